import { useId, useState } from 'react';
import { isItemSettled } from '../../../../shared/domain/checklist-status';
import type { BorrowerChecklistItemView } from '../../../../shared/schemas/checklist';
import { formatCalendarDate } from '../../../lib/dates';
import { useFailureNotice } from '../../../lib/me-context';
import { Button } from '../../../ui/button';
import { LoadFailed } from '../../../ui/load-failed';
import { ReasonDialog } from '../../../ui/reason-dialog';
import { useToast } from '../../../ui/toast';
import { useChangeItemStatus } from '../api/change-item-status';
import { useChecklist } from '../api/get-checklist';
import { ItemStatusChip } from '../components/item-status-chip';

type Item = BorrowerChecklistItemView;

const needsYou = (item: Item) => item.provider === 'borrower' && (item.status === 'requested' || item.status === 'needs_revision' || item.status === 'expired');
const done = (item: Item) => isItemSettled(item.status, item.notApplicableConfirmed);

/**
 * A borrower's checklist, phone first: what is still needed from them (and
 * why a document needs another go), what others are sending or the team is
 * reviewing, and what is done. "Doesn't apply to me" asks for the reason the
 * team reads before it confirms.
 */
export function BorrowerChecklist({ loanId }: { loanId: string }) {
  const checklist = useChecklist(loanId);
  const changeStatus = useChangeItemStatus(loanId);
  const notifyFailure = useFailureNotice();
  const toast = useToast();
  const [claiming, setClaiming] = useState<Item | null>(null);

  if (checklist.isPending) return <p className="text-sm text-slate-600">Loading your documents…</p>;
  if (checklist.isError) return <LoadFailed message="Your documents could not be loaded." onRetry={() => void checklist.refetch()} />;
  const items = checklist.data.items as Item[];
  const groups: [string, Item[]][] = [
    ['Needed from you', items.filter(needsYou)],
    ['In progress', items.filter((item) => !needsYou(item) && !done(item))],
    ['Done', items.filter(done)],
  ];

  return (
    <div className="space-y-5">
      <p className="text-sm text-slate-700">
        {checklist.data.outstandingRequired === 0
          ? 'Nothing more is needed right now.'
          : `${checklist.data.outstandingRequired} required ${checklist.data.outstandingRequired === 1 ? 'document is' : 'documents are'} still open.`}
      </p>
      {groups.map(([title, group]) => (group.length > 0 ? <Group key={title} title={title} items={group} onClaim={setClaiming} /> : null))}
      <ReasonDialog
        open={claiming !== null}
        title={`${claiming?.label ?? 'This document'} doesn't apply to me`}
        confirmLabel="Send"
        busy={changeStatus.isPending}
        onConfirm={(reason) =>
          claiming &&
          changeStatus.mutate(
            { itemId: claiming.id, action: 'claim-not-applicable', version: claiming.version, reason },
            {
              onSuccess: () => {
                setClaiming(null);
                toast({ title: 'Success!', description: 'Your team will confirm it.' });
              },
              onError: (error) => notifyFailure('Sending failed', error),
            },
          )
        }
        onClose={() => setClaiming(null)}
      >
        Tell your team why: they confirm it or ask you for it after all.
      </ReasonDialog>
    </div>
  );
}

function Group({ title, items, onClaim }: { title: string; items: Item[]; onClaim: (item: Item) => void }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId}>
      <h3 id={headingId} className="text-sm font-semibold tracking-wide text-slate-600 uppercase">
        {title}
      </h3>
      <ul className="mt-2 divide-y divide-slate-100 rounded-xl border border-slate-200">
        {items.map((item) => (
          <li key={item.id} className="p-3">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <p className="font-medium break-words text-slate-900">{item.label}</p>
              <ItemStatusChip status={item.status} pendingConfirmation={item.status === 'not_applicable' && !item.notApplicableConfirmed} />
            </div>
            {item.dueDate && !isItemSettled(item.status, item.notApplicableConfirmed) ? (
              <p className="mt-1 text-sm text-slate-600">Due {formatCalendarDate(item.dueDate)}</p>
            ) : null}
            {item.provider === 'third_party' && !isItemSettled(item.status, item.notApplicableConfirmed) ? (
              <p className="mt-1 text-sm text-slate-600">Your team gets this from a third party.</p>
            ) : null}
            {item.reason ? (
              <p className="mt-1 text-sm text-slate-800">{item.status === 'needs_revision' ? `What to fix: ${item.reason}` : `Reason: ${item.reason}`}</p>
            ) : null}
            {needsYou(item) && item.status !== 'expired' ? (
              <Button size="sm" variant="ghost" className="mt-2 -ml-3" aria-label={`Doesn't apply to me: ${item.label}`} onClick={() => onClaim(item)}>
                Doesn&apos;t apply to me
              </Button>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
