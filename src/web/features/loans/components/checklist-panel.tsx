import { useId, useState, type FormEvent } from 'react';
import { CATEGORY_LABELS, CHECKLIST_CATEGORIES, type ChecklistCategory, type ItemProvider } from '../../../../shared/domain/checklist-templates';
import { ITEM_STATUS_LABELS, nextItemStatus } from '../../../../shared/domain/checklist-status';
import type { ChecklistItemView } from '../../../../shared/schemas/checklist';
import { useFailureNotice } from '../../../lib/me-context';
import { Button } from '../../../ui/button';
import { ConfirmDialog } from '../../../ui/confirm-dialog';
import { CheckboxField, SelectField, TextField } from '../../../ui/field';
import { LoadFailed } from '../../../ui/load-failed';
import { ReasonDialog } from '../../../ui/reason-dialog';
import { useToast } from '../../../ui/toast';
import { useAddChecklistItem } from '../api/add-checklist-item';
import { useChangeItemStatus, type ItemStatusChange } from '../api/change-item-status';
import { useChecklist } from '../api/get-checklist';
import { useRemoveChecklistItem } from '../api/remove-checklist-item';
import { useReorderChecklist } from '../api/reorder-checklist';
import { ItemComments } from './discussion/item-comments';
import { useLandOnHashTarget } from './hash-target';
import { DueDate } from './due-date';
import { ItemDocuments } from './item-documents';
import { ItemStatusChip } from './item-status-chip';
import { UploadLinksDialog } from './upload-links-dialog';

const PROVIDER_LABELS: Record<ItemProvider, string> = { borrower: 'Borrower', third_party: 'Third party' };

/** The loan's document checklist for its team: every item with its tag, who provides it, when it is due, and what can be done with it. */
export function ChecklistPanel({ loanId }: { loanId: string }) {
  const checklist = useChecklist(loanId);
  const reorder = useReorderChecklist(loanId);
  const changeStatus = useChangeItemStatus(loanId);
  const remove = useRemoveChecklistItem(loanId);
  const notifyFailure = useFailureNotice();
  const toast = useToast();
  const [asking, setAsking] = useState<{ item: ChecklistItemView; action: 'waive' } | null>(null);
  const [removing, setRemoving] = useState<ChecklistItemView | null>(null);
  const [linksOf, setLinksOf] = useState<ChecklistItemView | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const panelIds = useId();
  // A notification's link to an item (an upload to review) lands on it with its documents open.
  const linkedItem = useLandOnHashTarget('item', checklist.isSuccess);
  const [openedLinked, setOpenedLinked] = useState<string | null>(null);
  if (linkedItem && linkedItem !== openedLinked && checklist.data?.items.some((item) => item.id === linkedItem)) {
    setOpenedLinked(linkedItem);
    setOpen((shown) => new Set(shown).add(linkedItem));
  }

  if (checklist.isPending) return <p className="text-sm text-slate-600">Loading the checklist…</p>;
  if (checklist.isError) return <LoadFailed message="The checklist could not be loaded." onRetry={() => void checklist.refetch()} />;
  const { items, outstandingRequired, maxFileBytes } = checklist.data;
  const toggle = (itemId: string) =>
    setOpen((shown) => {
      const next = new Set(shown);
      if (!next.delete(itemId)) next.add(itemId);
      return next;
    });

  const move = (index: number, by: -1 | 1) => {
    const ids = items.map((item) => item.id);
    const [moved] = ids.splice(index, 1);
    ids.splice(index + by, 0, moved!);
    setAnnouncement(`${items[index]!.label} moved to position ${index + by + 1} of ${items.length}`);
    reorder.mutate(ids, { onError: (error) => notifyFailure('Moving the item failed', error) });
  };

  const act = (item: ChecklistItemView, action: ItemStatusChange, reason?: string) =>
    changeStatus.mutate(
      { itemId: item.id, action, version: item.version, ...(reason === undefined ? {} : { reason }) },
      {
        onSuccess: (updated) => {
          setAsking(null);
          toast({ title: 'Success!', description: `${updated.label}: ${ITEM_STATUS_LABELS[updated.status].toLowerCase()}.` });
        },
        onError: (error) => notifyFailure('Changing the item failed', error),
      },
    );

  return (
    <div>
      <p className="text-sm text-slate-700">
        {outstandingRequired === 0
          ? 'Every required document is settled.'
          : `${outstandingRequired} required ${outstandingRequired === 1 ? 'document' : 'documents'} outstanding.`}
      </p>
      <p aria-live="polite" className="sr-only">
        {announcement}
      </p>
      <ol className="mt-4 divide-y divide-slate-200 rounded-xl border border-slate-200">
        {items.map((item, index) => (
          <li key={item.id} id={`item-${item.id}`} tabIndex={-1} className="p-3 focus:outline-2 focus:outline-navy-600">
            <div className="flex flex-col gap-3 sm:flex-row sm:items-start">
              <div className="min-w-0 flex-1">
                <div className="flex flex-wrap items-center gap-2">
                  <p className="font-medium break-words text-slate-900">{item.label}</p>
                  <ItemStatusChip status={item.status} pendingConfirmation={item.status === 'not_applicable' && !item.notApplicableConfirmed} />
                  {!item.required ? <span className="text-xs text-slate-600">Optional</span> : null}
                </div>
                <p className="mt-1 text-sm text-slate-600">
                  {CATEGORY_LABELS[item.category]} · {PROVIDER_LABELS[item.provider]}
                  {item.borrowerVisible ? '' : ' · Internal'}
                  {item.dueDate ? (
                    <>
                      {' · '}
                      <DueDate item={item} />
                    </>
                  ) : null}
                </p>
                {item.reason ? <p className="mt-1 text-sm text-slate-700">Reason: {item.reason}</p> : null}
              </div>
              <div className="flex flex-wrap items-center gap-2">
                <Button
                  size="sm"
                  variant="secondary"
                  aria-label={`Documents: ${item.label}`}
                  aria-expanded={open.has(item.id)}
                  aria-controls={`${panelIds}-${item.id}`}
                  onClick={() => toggle(item.id)}
                >
                  Documents
                </Button>
                {item.status === 'not_applicable' && !item.notApplicableConfirmed ? (
                  <>
                    <Button
                      size="sm"
                      aria-label={`Confirm not applicable: ${item.label}`}
                      onClick={() => act(item, 'confirm-not-applicable')}
                      disabled={changeStatus.isPending}
                    >
                      Confirm not applicable
                    </Button>
                    <Button
                      size="sm"
                      variant="secondary"
                      aria-label={`Ask for it again: ${item.label}`}
                      onClick={() => act(item, 'reject-not-applicable')}
                      disabled={changeStatus.isPending}
                    >
                      Ask for it again
                    </Button>
                  </>
                ) : null}
                {item.provider === 'third_party' ? (
                  <Button size="sm" variant="secondary" aria-label={`Upload links: ${item.label}`} onClick={() => setLinksOf(item)}>
                    Upload link
                  </Button>
                ) : null}
                {nextItemStatus(item.status, 'waive') ? (
                  <Button size="sm" variant="secondary" aria-label={`Waive ${item.label}`} onClick={() => setAsking({ item, action: 'waive' })}>
                    Waive
                  </Button>
                ) : null}
                {nextItemStatus(item.status, 'reopen') && !(item.status === 'not_applicable' && !item.notApplicableConfirmed) ? (
                  <Button
                    size="sm"
                    variant="secondary"
                    aria-label={`Request again: ${item.label}`}
                    onClick={() => act(item, 'reopen')}
                    disabled={changeStatus.isPending}
                  >
                    Request again
                  </Button>
                ) : null}
                <Button
                  size="sm"
                  variant="ghost"
                  aria-label={`Move ${item.label} up`}
                  disabled={index === 0 || reorder.isPending}
                  onClick={() => move(index, -1)}
                >
                  ↑
                </Button>
                <Button
                  size="sm"
                  variant="ghost"
                  aria-label={`Move ${item.label} down`}
                  disabled={index === items.length - 1 || reorder.isPending}
                  onClick={() => move(index, 1)}
                >
                  ↓
                </Button>
                <Button size="sm" variant="ghost" aria-label={`Remove ${item.label}`} onClick={() => setRemoving(item)}>
                  Remove
                </Button>
              </div>
            </div>
            {open.has(item.id) ? (
              <div id={`${panelIds}-${item.id}`} className="mt-3 rounded-xl bg-slate-50 p-3">
                <ItemDocuments loanId={loanId} item={item} maxFileBytes={maxFileBytes} />
              </div>
            ) : null}
            <div className="mt-1 -ml-2">
              <ItemComments loanId={loanId} itemId={item.id} itemLabel={item.label} viewer="team" internalItem={!item.borrowerVisible} />
            </div>
          </li>
        ))}
      </ol>
      <AddItemForm loanId={loanId} />
      <UploadLinksDialog loanId={loanId} item={linksOf} onClose={() => setLinksOf(null)} />
      <ReasonDialog
        open={asking !== null}
        title={`Waive ${asking?.item.label ?? 'the item'}`}
        confirmLabel="Waive"
        busy={changeStatus.isPending}
        onConfirm={(reason) => asking && act(asking.item, asking.action, reason)}
        onClose={() => setAsking(null)}
      >
        The item no longer counts as outstanding. {asking?.item.borrowerVisible ? 'The borrowers see the reason.' : 'It is internal: borrowers never see it.'}
      </ReasonDialog>
      <ConfirmDialog
        open={removing !== null}
        title={`Remove ${removing?.label ?? 'the item'}?`}
        confirmLabel="Remove"
        busy={remove.isPending}
        onConfirm={() =>
          removing &&
          remove.mutate(
            { itemId: removing.id, version: removing.version },
            { onSuccess: () => setRemoving(null), onError: (error) => notifyFailure('Removing the item failed', error) },
          )
        }
        onClose={() => setRemoving(null)}
      >
        It leaves this loan&apos;s checklist. The activity keeps a record of it.
      </ConfirmDialog>
    </div>
  );
}

function AddItemForm({ loanId }: { loanId: string }) {
  const add = useAddChecklistItem(loanId);
  const notifyFailure = useFailureNotice();
  const [open, setOpen] = useState(false);
  const [label, setLabel] = useState('');
  const [category, setCategory] = useState<ChecklistCategory>('property');
  const [provider, setProvider] = useState<ItemProvider>('borrower');
  const [borrowerVisible, setBorrowerVisible] = useState(true);
  const [required, setRequired] = useState(true);
  const [error, setError] = useState<string | undefined>();
  const headingId = useId();

  if (!open)
    return (
      <Button className="mt-4" variant="secondary" onClick={() => setOpen(true)}>
        Add an item
      </Button>
    );

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!label.trim()) {
      setError('Give the item a label');
      return;
    }
    add.mutate(
      { label: label.trim(), category, provider, borrowerVisible, required },
      {
        onSuccess: () => {
          setLabel('');
          setOpen(false);
        },
        onError: (failure) => notifyFailure('Adding the item failed', failure),
      },
    );
  }

  return (
    <form onSubmit={submit} noValidate aria-labelledby={headingId} className="mt-4 rounded-xl border border-slate-200 p-4">
      <h3 id={headingId} className="font-semibold text-slate-900">
        Add an item
      </h3>
      <div className="mt-3 grid gap-4 sm:grid-cols-2">
        <TextField
          label="Label"
          required
          value={label}
          maxLength={120}
          error={error}
          onChange={(event) => {
            setLabel(event.target.value);
            setError(undefined);
          }}
          className="sm:col-span-2"
        />
        <SelectField label="Category" value={category} onChange={(event) => setCategory(event.target.value as ChecklistCategory)}>
          {CHECKLIST_CATEGORIES.map((value) => (
            <option key={value} value={value}>
              {CATEGORY_LABELS[value]}
            </option>
          ))}
        </SelectField>
        <SelectField label="Provided by" value={provider} onChange={(event) => setProvider(event.target.value as ItemProvider)}>
          <option value="borrower">Borrower</option>
          <option value="third_party">Third party</option>
        </SelectField>
        <CheckboxField label="Required" checked={required} onChange={(event) => setRequired(event.target.checked)} />
        <CheckboxField label="Borrowers see it" checked={borrowerVisible} onChange={(event) => setBorrowerVisible(event.target.checked)} />
      </div>
      <div className="mt-4 flex flex-wrap gap-3">
        <Button type="submit" disabled={add.isPending}>
          Add item
        </Button>
        <Button variant="secondary" onClick={() => setOpen(false)}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
