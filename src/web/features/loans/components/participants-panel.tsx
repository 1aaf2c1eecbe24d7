import { useId, useState } from 'react';
import type { LoanParticipantRole } from '../../../../shared/domain/access';
import { InviteParticipantSchema, PARTICIPANT_ROLE_LABELS, type LoanInvitationView, type LoanParticipantView } from '../../../../shared/schemas/participants';
import { useFailureNotice } from '../../../lib/me-context';
import { useAppForm } from '../../../lib/use-app-form';
import { Button } from '../../../ui/button';
import { Chip } from '../../../ui/chip';
import { ConfirmDialog } from '../../../ui/confirm-dialog';
import { DateTime } from '../../../ui/date-time';
import { TextField } from '../../../ui/field';
import { SelectField } from '../../../ui/field';
import { LoadFailed } from '../../../ui/load-failed';
import { Spinner } from '../../../ui/spinner';
import { useToast } from '../../../ui/toast';
import { useInviteParticipant } from '../api/invite-participant';
import { useParticipants } from '../api/list-participants';
import { useRemoveParticipant } from '../api/remove-participant';
import { useWithdrawLoanInvitation } from '../api/withdraw-loan-invitation';

/**
 * "Borrowers" on the team's loan page (owners and assistants): who follows
 * the loan, the invitations not yet accepted (send again, withdraw), the
 * invite form, and removal after a confirmation. Removal ends the person's
 * access on their next request.
 */
export function ParticipantsPanel({ loanId }: { loanId: string }) {
  const headingId = useId();
  const participants = useParticipants(loanId);
  return (
    <section aria-labelledby={headingId} className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6">
      <h2 id={headingId} className="text-lg font-semibold text-slate-900">
        Borrowers
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        They follow this loan on their phone: its timeline, terms and your contact, never internal notes or the DSCR.
      </p>
      {participants.isPending ? (
        <p className="mt-4 flex items-center gap-2 text-sm text-slate-600">
          <Spinner /> Loading borrowers
        </p>
      ) : participants.isError ? (
        <div className="mt-4">
          <LoadFailed message="The borrowers could not be loaded." onRetry={() => void participants.refetch()} />
        </div>
      ) : (
        <>
          <ParticipantList loanId={loanId} participants={participants.data.participants} />
          <PendingList loanId={loanId} invitations={participants.data.invitations} />
        </>
      )}
      <InviteParticipantForm loanId={loanId} />
    </section>
  );
}

function ParticipantList({ loanId, participants }: { loanId: string; participants: LoanParticipantView[] }) {
  const toast = useToast();
  const notifyFailure = useFailureNotice();
  const remove = useRemoveParticipant(loanId);
  const [removing, setRemoving] = useState<LoanParticipantView | null>(null);
  if (participants.length === 0) return <p className="mt-4 text-sm text-slate-600">No borrower follows this loan yet.</p>;
  return (
    <>
      <ul className="mt-4 divide-y divide-slate-100" aria-label="Borrowers on this loan">
        {participants.map((person) => (
          <li key={person.userId} className="flex flex-wrap items-center justify-between gap-2 py-3">
            <div className="min-w-0">
              <p className="font-semibold break-words text-slate-900">
                {person.name} <span className="text-sm font-normal text-slate-600">· {PARTICIPANT_ROLE_LABELS[person.role]}</span>
              </p>
              <p className="text-sm break-all text-slate-700">{person.email}</p>
              <p className="text-xs text-slate-600">
                Joined <DateTime iso={person.joinedAt} />
              </p>
            </div>
            <Button size="sm" variant="secondary" onClick={() => setRemoving(person)}>
              Remove<span className="sr-only">: {person.name}</span>
            </Button>
          </li>
        ))}
      </ul>
      <ConfirmDialog
        open={removing !== null}
        title={`Remove ${removing?.name ?? ''} from this loan?`}
        confirmLabel="Remove"
        busy={remove.isPending}
        onClose={() => setRemoving(null)}
        onConfirm={() => {
          if (!removing) return;
          remove.mutate(removing.userId, {
            onSuccess: () => {
              toast({ title: 'Success!', description: `${removing.name} no longer sees this loan.` });
              setRemoving(null);
            },
            onError: (error) => {
              setRemoving(null);
              notifyFailure('Removing the borrower failed', error);
            },
          });
        }}
      >
        They lose access to this loan at once. You can invite them again later.
      </ConfirmDialog>
    </>
  );
}

function PendingList({ loanId, invitations }: { loanId: string; invitations: LoanInvitationView[] }) {
  const headingId = useId();
  const toast = useToast();
  const notifyFailure = useFailureNotice();
  const withdraw = useWithdrawLoanInvitation(loanId);
  const resend = useInviteParticipant(loanId);
  const [busy, setBusy] = useState<string | null>(null);
  if (invitations.length === 0) return null;

  const act = async (invitation: LoanInvitationView, action: 'resend' | 'withdraw') => {
    setBusy(invitation.id);
    try {
      if (action === 'resend') {
        await resend.mutateAsync({ email: invitation.email, role: invitation.role });
        toast({ title: 'Success!', description: `A fresh link was sent to ${invitation.email}` });
      } else {
        await withdraw.mutateAsync(invitation.id);
        toast({ title: 'Success!', description: `The invitation to ${invitation.email} was withdrawn` });
      }
    } catch (error) {
      notifyFailure(action === 'resend' ? 'Sending the invitation again failed' : 'Withdrawing the invitation failed', error);
    } finally {
      setBusy(null);
    }
  };

  return (
    <div className="mt-4">
      <h3 id={headingId} className="text-sm font-semibold text-slate-900">
        Invited, not joined yet
      </h3>
      <ul aria-labelledby={headingId} className="mt-1 divide-y divide-slate-100">
        {invitations.map((invitation) => (
          <li key={invitation.id} className="py-3">
            <p className="text-sm font-semibold break-all text-slate-900">{invitation.email}</p>
            <p className="mt-0.5 flex flex-wrap items-center gap-2 text-xs text-slate-600">
              {PARTICIPANT_ROLE_LABELS[invitation.role]} ·{' '}
              {invitation.expired ? (
                <Chip tone="red">Expired</Chip>
              ) : (
                <span>
                  Expires <DateTime iso={invitation.expiresAt} />
                </span>
              )}
            </p>
            <span className="mt-2 inline-flex gap-2">
              <Button size="sm" variant="secondary" disabled={busy === invitation.id} onClick={() => void act(invitation, 'resend')}>
                {busy === invitation.id ? <Spinner /> : null}
                Send again<span className="sr-only">: {invitation.email}</span>
              </Button>
              <Button size="sm" variant="secondary" disabled={busy === invitation.id} onClick={() => void act(invitation, 'withdraw')}>
                Withdraw<span className="sr-only">: {invitation.email}</span>
              </Button>
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}

function InviteParticipantForm({ loanId }: { loanId: string }) {
  const toast = useToast();
  const notifyFailure = useFailureNotice();
  const headingId = useId();
  const invite = useInviteParticipant(loanId);
  const { onSubmit, submitting, field } = useAppForm({
    schema: InviteParticipantSchema,
    defaultValues: { email: '', role: 'borrower' as LoanParticipantRole },
    onSubmit: async (values, form) => {
      const invitation = await invite.mutateAsync(values);
      form.reset({ email: '', role: 'borrower' });
      toast({ title: 'Success!', description: `Invitation sent to ${invitation.email}` });
    },
    // 409: a team member, or on the loan already, said next to the address.
    explain: (failure) => (failure.code === 'conflict' ? { field: 'email', message: failure.message } : null),
    onFailure: (failure) => notifyFailure('Sending the invitation failed', failure),
  });
  const role = field('role');
  return (
    <form onSubmit={onSubmit} noValidate aria-labelledby={headingId} aria-busy={submitting} className="mt-5 space-y-3 border-t border-slate-100 pt-4">
      <h3 id={headingId} className="text-sm font-semibold text-slate-900">
        Invite a borrower
      </h3>
      <TextField label="E-mail" type="email" required autoComplete="off" maxLength={254} placeholder="borrower@example.com" {...field('email')} />
      <SelectField label="Role" {...role}>
        <option value="borrower">Borrower</option>
        <option value="co_borrower">Co-borrower</option>
      </SelectField>
      <Button type="submit" disabled={submitting} className="w-full">
        {submitting ? <Spinner /> : null}
        Send invitation
      </Button>
      <p className="text-xs text-slate-600">The link works once, for 7 days. The loan’s stage does not change by itself.</p>
    </form>
  );
}
