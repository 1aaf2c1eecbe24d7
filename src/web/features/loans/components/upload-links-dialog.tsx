import { useId } from 'react';
import type { ChecklistItemView } from '../../../../shared/schemas/checklist';
import {
  SendUploadLinkSchema,
  UPLOAD_LINK_DEFAULT_DAYS,
  type SendUploadLink,
  type UploadLinkState,
  type UploadLinkView,
} from '../../../../shared/schemas/upload-links';
import { useFailureNotice } from '../../../lib/me-context';
import { useAppForm } from '../../../lib/use-app-form';
import { Button } from '../../../ui/button';
import { Chip } from '../../../ui/chip';
import { DateTime } from '../../../ui/date-time';
import { SelectField, TextField } from '../../../ui/field';
import { LoadFailed } from '../../../ui/load-failed';
import { ModalDialog } from '../../../ui/modal-dialog';
import { Spinner } from '../../../ui/spinner';
import { useToast } from '../../../ui/toast';
import { useUploadLinks } from '../api/list-upload-links';
import { useRevokeUploadLink } from '../api/revoke-upload-link';
import { useSendUploadLink } from '../api/send-upload-link';

const STATE_CHIPS: Record<UploadLinkState, { tone: 'green' | 'navy' | 'slate' | 'red'; label: string }> = {
  active: { tone: 'green', label: 'Active' },
  used: { tone: 'navy', label: 'Used' },
  expired: { tone: 'slate', label: 'Expired' },
  revoked: { tone: 'red', label: 'Withdrawn' },
};

const EXPIRY_CHOICES = [1, 3, 7, 14, 30];

/**
 * An item's upload links, for items a third party provides: the ones sent
 * (to whom, when, their state; withdraw an active one) and the form that
 * mails a new one, on ModalDialog.
 */
export function UploadLinksDialog({ loanId, item, onClose }: { loanId: string; item: ChecklistItemView | null; onClose: () => void }) {
  const titleId = useId();

  return (
    <ModalDialog open={item !== null} titleId={titleId} size="lg" onClose={onClose}>
      {item ? (
        <>
          <h2 id={titleId} className="text-lg font-semibold break-words">
            Upload links: {item.label}
          </h2>
          <p className="mt-2 text-sm text-slate-600">
            A link lets someone without an account (a title company, an insurance agent, an appraiser) upload this document once. It reads nothing else of the
            loan.
          </p>
          <LinkList loanId={loanId} itemId={item.id} />
          <SendLinkForm loanId={loanId} itemId={item.id} />
          <div className="mt-6 flex justify-end">
            <Button variant="secondary" onClick={onClose}>
              Close
            </Button>
          </div>
        </>
      ) : null}
    </ModalDialog>
  );
}

function LinkList({ loanId, itemId }: { loanId: string; itemId: string }) {
  const links = useUploadLinks(loanId, itemId);
  const revoke = useRevokeUploadLink(loanId, itemId);
  const toast = useToast();
  const notifyFailure = useFailureNotice();
  const headingId = useId();

  if (links.isPending)
    return (
      <p className="mt-4 flex items-center gap-2 text-sm text-slate-600">
        <Spinner /> Loading the links
      </p>
    );
  if (links.isError) return <LoadFailed message="The links could not be loaded." onRetry={() => void links.refetch()} />;
  if (links.data.links.length === 0) return <p className="mt-4 text-sm text-slate-600">No link sent for this item yet.</p>;

  const withdraw = (link: UploadLinkView) =>
    revoke.mutate(link.id, {
      onSuccess: () => toast({ title: 'Success!', description: `The link sent to ${link.email} no longer works.` }),
      onError: (error) => notifyFailure('Withdrawing the link failed', error),
    });

  return (
    <div className="mt-4">
      <h3 id={headingId} className="text-sm font-semibold text-slate-900">
        Sent
      </h3>
      <ul aria-labelledby={headingId} className="mt-1 divide-y divide-slate-100">
        {links.data.links.map((link) => (
          <li key={link.id} className="flex flex-wrap items-start justify-between gap-2 py-3">
            <div className="min-w-0">
              <p className="flex flex-wrap items-center gap-2 text-sm font-semibold text-slate-900">
                <span className="break-words">{link.name}</span> <Chip tone={STATE_CHIPS[link.state].tone}>{STATE_CHIPS[link.state].label}</Chip>
              </p>
              <p className="text-sm break-all text-slate-700">{link.email}</p>
              <p className="text-xs text-slate-600">
                Sent <DateTime iso={link.createdAt} />
                {link.sentBy ? ` by ${link.sentBy}` : ''} ·{' '}
                {link.usedAt ? (
                  <>
                    used <DateTime iso={link.usedAt} />
                  </>
                ) : link.revokedAt ? (
                  <>
                    withdrawn <DateTime iso={link.revokedAt} />
                  </>
                ) : (
                  <>
                    {link.state === 'expired' ? 'expired' : 'works until'} <DateTime iso={link.expiresAt} />
                  </>
                )}
              </p>
            </div>
            {link.state === 'active' ? (
              <Button size="sm" variant="secondary" disabled={revoke.isPending} onClick={() => withdraw(link)}>
                Withdraw<span className="sr-only">: the link sent to {link.email}</span>
              </Button>
            ) : null}
          </li>
        ))}
      </ul>
    </div>
  );
}

function SendLinkForm({ loanId, itemId }: { loanId: string; itemId: string }) {
  const send = useSendUploadLink(loanId, itemId);
  const toast = useToast();
  const notifyFailure = useFailureNotice();
  const headingId = useId();
  const defaults: SendUploadLink = { name: '', email: '', expiresInDays: UPLOAD_LINK_DEFAULT_DAYS };
  const { form, onSubmit, submitting, field } = useAppForm({
    schema: SendUploadLinkSchema,
    defaultValues: defaults,
    onSubmit: async (values, current) => {
      const link = await send.mutateAsync(values);
      current.reset(defaults);
      toast({ title: 'Success!', description: `Upload link sent to ${link.email}` });
    },
    onFailure: (failure) => notifyFailure('Sending the link failed', failure),
  });
  const expiry = form.register('expiresInDays', { valueAsNumber: true });
  return (
    <form onSubmit={onSubmit} noValidate aria-labelledby={headingId} aria-busy={submitting} className="mt-5 space-y-3 border-t border-slate-100 pt-4">
      <h3 id={headingId} className="text-sm font-semibold text-slate-900">
        Send a new link
      </h3>
      <TextField label="Name" required autoComplete="off" maxLength={120} placeholder="Lone Star Title, Sam Lee" {...field('name')} />
      <TextField label="E-mail" type="email" required autoComplete="off" maxLength={254} placeholder="closings@title.example" {...field('email')} />
      <SelectField label="The link works for" {...expiry} error={form.formState.errors.expiresInDays?.message}>
        {EXPIRY_CHOICES.map((days) => (
          <option key={days} value={days}>
            {days === 1 ? '1 day' : `${days} days`}
          </option>
        ))}
      </SelectField>
      <Button type="submit" disabled={submitting} className="w-full">
        {submitting ? <Spinner /> : null}
        Send upload link
      </Button>
    </form>
  );
}
