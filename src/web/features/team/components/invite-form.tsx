import { useId, useState, type FormEvent } from 'react';
import '../../../lib/zod-config';
import { InviteAssistantSchema, type PendingInvitation } from '../../../../shared/schemas/teams';
import { toFieldIssues } from '../../../../shared/schemas/validation';
import { ApiError } from '../../../lib/api-client';
import { Button } from '../../../ui/button';
import { TextField } from '../../../ui/field';
import { Spinner } from '../../../ui/spinner';
import { useToast } from '../../../ui/toast';
import { useFailureNotice } from '../../app-shell/me-context';
import { inviteAssistant } from '../api/invite-assistant';

/** "Invite an assistant" (owners): an e-mail address, and the invitation goes out with the team's branding. */
export function InviteForm({ teamId, onSent }: { teamId: string; onSent: (invitation: PendingInvitation) => void }) {
  const toast = useToast();
  const notifyFailure = useFailureNotice();
  const headingId = useId();
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [sending, setSending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (sending) return;
    const parsed = InviteAssistantSchema.safeParse({ email });
    if (!parsed.success) {
      setError(toFieldIssues(parsed.error)[0]?.message);
      return;
    }
    setError(undefined);
    setSending(true);
    try {
      const invitation = await inviteAssistant(teamId, parsed.data);
      setEmail('');
      toast({ title: 'Success!', description: `Invitation sent to ${invitation.email}` });
      onSent(invitation);
    } catch (failure) {
      if (failure instanceof ApiError) {
        // 409 (already a member) names the address: show it next to the field too.
        const issue = failure.fieldErrors.find((f) => f.field === 'email')?.message ?? (failure.code === 'conflict' ? failure.message : undefined);
        if (issue) setError(issue);
      }
      notifyFailure('Sending the invitation failed', failure);
    } finally {
      setSending(false);
    }
  }

  return (
    <section aria-labelledby={headingId} className="mt-8 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
      <h2 id={headingId} className="text-lg font-semibold text-slate-900">
        Invite an assistant
      </h2>
      <p className="mt-1 max-w-2xl text-sm text-slate-600">
        They get an e-mail with a link to join your team. Assistants work every loan file with you; only owners manage the team. Until they accept, the invitation is listed below with its expiry.
      </p>
      <form onSubmit={onSubmit} noValidate aria-busy={sending} className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-start">
        <TextField
          label="E-mail"
          name="email"
          type="email"
          required
          autoComplete="off"
          maxLength={254}
          placeholder="assistant@example.com"
          value={email}
          onChange={(event) => {
            setEmail(event.target.value);
            if (error) setError(undefined);
          }}
          error={error}
          className="sm:w-96"
        />
        <Button type="submit" disabled={sending} className="h-11 sm:mt-[1.625rem]">
          {sending ? <Spinner /> : null}
          Invite
        </Button>
      </form>
    </section>
  );
}
