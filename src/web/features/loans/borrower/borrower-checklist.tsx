import { useQueryClient } from '@tanstack/react-query';
import { useId, useState, type ReactNode } from 'react';
import { borrowerItemLabel, borrowerItemState, isItemSettled, type ItemStatus } from '../../../../shared/domain/checklist-status';
import type { BorrowerChecklistItemView } from '../../../../shared/schemas/checklist';
import { useFailureNotice } from '../../../lib/me-context';
import { Button } from '../../../ui/button';
import { FileUpload } from '../../../ui/file-upload';
import { LoadFailed } from '../../../ui/load-failed';
import { ReasonDialog } from '../../../ui/reason-dialog';
import { useToast } from '../../../ui/toast';
import { useChangeItemStatus } from '../api/change-item-status';
import { checklistItemPath, useChecklist } from '../api/get-checklist';
import { refreshDocuments } from '../api/list-versions';
import { ItemComments } from '../components/discussion/item-comments';
import { DocumentVersions } from '../components/document-versions';
import { DueDate } from '../components/due-date';
import { FilePreviewDialog, type FilePreview } from '../components/file-preview-dialog';
import { useLandOnHashTarget } from '../components/hash-target';
import { BorrowerStatusChip } from '../components/item-status-chip';

type Item = BorrowerChecklistItemView;

const fromYou = (item: Item) => item.provider === 'borrower';
const stateOf = (item: Item) => borrowerItemState(item.status, item.notApplicableConfirmed);
const done = (item: Item) => stateOf(item) === 'done';
/** Sent and now with the team: a version to review, or a "doesn't apply to me" to confirm. */
const waiting = (item: Item) => stateOf(item) === 'sent';
/** What the borrower can upload to: still needed from them, sent back, or expired. */
const needsUpload = (item: Item) => fromYou(item) && (item.status === 'requested' || item.status === 'needs_revision' || item.status === 'expired');
/** Statuses an item only reaches with a version uploaded. */
const HAS_VERSIONS: readonly ItemStatus[] = ['uploaded', 'in_review', 'approved', 'needs_revision', 'expired'];

/**
 * A borrower's checklist, phone first: what is still needed (with the reason
 * a document was sent back, where they see it first), what waits for the
 * team's review, and what is done. Each document needed from them takes an
 * upload right there (camera included); what they sent can be looked at again.
 * "Doesn't apply to me" asks for the reason the team reads before it confirms.
 */
export function BorrowerChecklist({ loanId }: { loanId: string }) {
  const checklist = useChecklist(loanId);
  const changeStatus = useChangeItemStatus(loanId);
  const notifyFailure = useFailureNotice();
  const toast = useToast();
  const [claiming, setClaiming] = useState<Item | null>(null);
  const [preview, setPreview] = useState<FilePreview | null>(null);
  // A notification's link to an item (needs revision, approved) lands on it.
  useLandOnHashTarget('item', checklist.isSuccess);

  if (checklist.isPending) return <p className="text-sm text-slate-600">Loading your documents…</p>;
  if (checklist.isError) return <LoadFailed message="Your documents could not be loaded." onRetry={() => void checklist.refetch()} />;
  const items = checklist.data.items as Item[];
  const groups: [string, Item[]][] = [
    ['Still needed', items.filter((item) => !done(item) && !waiting(item))],
    ['Waiting for review', items.filter(waiting)],
    ['Done', items.filter(done)],
  ];

  return (
    <div className="space-y-5">
      <p className="text-sm text-slate-700">
        {checklist.data.outstandingRequired === 0
          ? 'Nothing more is needed right now.'
          : `${checklist.data.outstandingRequired} required ${checklist.data.outstandingRequired === 1 ? 'document is' : 'documents are'} still open.`}
      </p>
      {groups.map(([title, group]) =>
        group.length > 0 ? (
          <Group key={title} title={title}>
            {group.map((item) => (
              <BorrowerItem key={item.id} loanId={loanId} item={item} maxFileBytes={checklist.data.maxFileBytes} onClaim={setClaiming} onPreview={setPreview} />
            ))}
          </Group>
        ) : null,
      )}
      <FilePreviewDialog preview={preview} onClose={() => setPreview(null)} />
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

function Group({ title, children }: { title: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId}>
      <h3 id={headingId} className="text-sm font-semibold tracking-wide text-slate-600 uppercase">
        {title}
      </h3>
      <ul className="mt-2 divide-y divide-slate-100 rounded-xl border border-slate-200">{children}</ul>
    </section>
  );
}

function BorrowerItem({
  loanId,
  item,
  maxFileBytes,
  onClaim,
  onPreview,
}: {
  loanId: string;
  item: Item;
  maxFileBytes: number;
  onClaim: (item: Item) => void;
  onPreview: (preview: FilePreview) => void;
}) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [showVersions, setShowVersions] = useState(false);
  const versionsId = useId();
  const settled = isItemSettled(item.status, item.notApplicableConfirmed);
  return (
    <li id={`item-${item.id}`} tabIndex={-1} className="p-3 focus:outline-2 focus:outline-navy-600">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="font-medium break-words text-slate-900">{item.label}</p>
        <BorrowerStatusChip status={item.status} notApplicableConfirmed={item.notApplicableConfirmed} />
      </div>
      {item.dueDate && !settled ? (
        <p className="mt-1 text-sm text-slate-600">
          <DueDate item={item} />
        </p>
      ) : null}
      {item.provider === 'third_party' && !settled ? <p className="mt-1 text-sm text-slate-600">Your team gets this from a third party.</p> : null}
      {stateOf(item) === 'new_version' && item.reason ? (
        <p className="mt-2 rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900">{borrowerItemLabel(item)}</p>
      ) : item.reason ? (
        <p className="mt-1 text-sm text-slate-800">Reason: {item.reason}</p>
      ) : null}
      {needsUpload(item) ? (
        <FileUpload
          base={checklistItemPath(loanId, item.id)}
          label={item.label}
          maxFileBytes={maxFileBytes}
          onUploaded={() => {
            toast({ title: 'Success!', description: `${item.label} uploaded: your team will review it.` });
            void refreshDocuments(queryClient, loanId);
          }}
        />
      ) : null}
      <div className="mt-2 -ml-3 flex flex-wrap gap-x-1">
        {HAS_VERSIONS.includes(item.status) ? (
          <Button
            size="sm"
            variant="ghost"
            aria-label={`Your uploads: ${item.label}`}
            aria-expanded={showVersions}
            aria-controls={versionsId}
            onClick={() => setShowVersions((shown) => !shown)}
          >
            Your uploads
          </Button>
        ) : null}
        {fromYou(item) && (item.status === 'requested' || item.status === 'needs_revision') ? (
          <Button size="sm" variant="ghost" aria-label={`Doesn't apply to me: ${item.label}`} onClick={() => onClaim(item)}>
            Doesn&apos;t apply to me
          </Button>
        ) : null}
      </div>
      {showVersions ? (
        <div id={versionsId} className="mt-2 rounded-xl bg-slate-50 p-2">
          <DocumentVersions loanId={loanId} itemId={item.id} label={item.label} forBorrower onPreview={(shown) => onPreview(shown)} />
        </div>
      ) : null}
      <div className="mt-1 -ml-2">
        <ItemComments loanId={loanId} itemId={item.id} itemLabel={item.label} viewer="borrower" />
      </div>
    </li>
  );
}
