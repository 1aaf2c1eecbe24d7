import { createHash } from 'node:crypto';
import type { SignedInPrincipal } from '../../shared/domain/access';
import { checklistChanges, type TemplateItem } from '../../shared/domain/checklist-templates';
import { ITEM_STATUS_LABELS, nextItemStatus, type ItemAction } from '../../shared/domain/checklist-status';
import { borrowerChecklist, outstandingRequired } from '../../shared/domain/checklist-view';
import { LOAN_PURPOSES, PROPERTY_TYPES } from '../../shared/domain/loan-fields';
import { AppError, invalidField } from '../../shared/errors';
import type {
  AddItemFields,
  BorrowerChecklistItemView,
  ChecklistItemView,
  ChecklistTemplateFields,
  ChecklistTemplateView,
  ChecklistView,
  UpdateItemFields,
} from '../../shared/schemas/checklist';
import { recordActivity } from '../activity/activity-log';
import { recordAudit, type AuditEntry } from '../audit/audit';
import type { AppContext } from '../app-context';
import type { Db } from '../db/client';
import type { ChecklistItemRow } from '../db/schema';
import { enqueueObjectDeletion, objectKeysOfItems } from '../platform/files/file-objects';
import * as q from './checklist.queries';
import { noteDocumentsRequested } from './documents-requested';
import { refreshLoanDocumentCounts } from './document-counts';
import { itemRowsFrom, templateOf } from './new-loan-checklist';
import { owedAgain } from '../reminders/owed-again';

type Deps = Pick<AppContext, 'db'>;
type AuditOrigin = NonNullable<AuditEntry['origin']>;

const actorOf = (principal: SignedInPrincipal) => ({ id: principal.userId, email: principal.email });

export function itemView(row: ChecklistItemRow): ChecklistItemView {
  return {
    id: row.id,
    key: row.key,
    position: row.position,
    label: row.label,
    category: row.category,
    required: row.required,
    provider: row.provider,
    borrowerVisible: row.borrowerVisible,
    status: row.status,
    reason: row.reason,
    notApplicableConfirmed: row.notApplicableConfirmed,
    dueDate: row.dueDate,
    validityDays: row.validityDays,
    documentDate: row.documentDate,
    requestedAt: row.requestedAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    version: row.version,
  };
}

/** What happened to an item, in the loan's activity: shared when its borrowers see the item, else internal. */
function itemActivity(tx: Db, row: ChecklistItemRow, actorId: string, kind: string, data: Record<string, unknown> = {}, { internal = false } = {}) {
  return recordActivity(tx, row.loanId, {
    actorId,
    kind,
    visibility: row.borrowerVisible && !internal ? 'shared' : 'internal',
    data: { itemId: row.id, label: row.label, ...data },
  });
}

const stale = () => new AppError('conflict', 'This item was changed by someone else meanwhile. Reload to see it.');

async function mustFind(db: Db, loanId: string, itemId: string): Promise<ChecklistItemRow> {
  const row = await q.findItem(db, itemId);
  // Deleted between the access check and now, or (never past the access layer) on another loan.
  if (!row || row.loanId !== loanId) throw new AppError('not_found', 'This checklist item does not exist');
  return row;
}

/** The loan's checklist as the caller may see it: all of it for the team, the borrower-visible items for borrowers. */
export async function checklist(
  db: Db,
  loanId: string,
  audience: 'team' | 'borrowers',
): Promise<Omit<ChecklistView<ChecklistItemView> | ChecklistView<BorrowerChecklistItemView>, 'maxFileBytes'>> {
  const rows = await q.listItems(db, loanId);
  if (audience === 'team') {
    const items = rows.map(itemView);
    return { items, outstandingRequired: outstandingRequired(items) };
  }
  const items = rows.filter((row) => row.borrowerVisible).map(itemView);
  // Numbered over their own items: the team's positions count the internal ones too.
  return { items: borrowerChecklist(items), outstandingRequired: outstandingRequired(items) };
}

/** One item as a borrower sees it, numbered among the items they see (as in their list). */
async function borrowerItemView(db: Db, loanId: string, itemId: string): Promise<BorrowerChecklistItemView> {
  const item = borrowerChecklist((await q.listItems(db, loanId)).map(itemView)).find((candidate) => candidate.id === itemId);
  if (!item) throw new AppError('not_found', 'This checklist item does not exist');
  return item;
}

export async function addItem(deps: Deps, principal: SignedInPrincipal, loanId: string, fields: AddItemFields): Promise<ChecklistItemView> {
  return deps.db.transaction(async (tx) => {
    const [row] = await q.insertItems(tx, [{ ...fields, loanId, key: null, position: await q.nextPosition(tx, loanId), updatedBy: principal.userId }]);
    await itemActivity(tx, row!, principal.userId, 'checklist.item_added');
    await noteDocumentsRequested(tx, loanId, [row!]);
    await refreshLoanDocumentCounts(tx, loanId);
    return itemView(row!);
  });
}

const EDITABLE = ['label', 'category', 'required', 'provider', 'borrowerVisible', 'dueDate', 'validityDays'] as const;

export async function updateItem(
  deps: Deps,
  principal: SignedInPrincipal,
  loanId: string,
  itemId: string,
  input: UpdateItemFields,
): Promise<ChecklistItemView> {
  const { version, ...patch } = input;
  return deps.db.transaction(async (tx) => {
    const before = await mustFind(tx, loanId, itemId);
    const changes = EDITABLE.filter((field) => field in patch && patch[field] !== undefined && patch[field] !== before[field]).map((field) => ({
      field,
      from: before[field],
      to: patch[field],
    }));
    // A new due date is a new schedule: its reminders may run to their cap again, still never twice on one day.
    const newDueDate = changes.some((change) => change.field === 'dueDate');
    const row = await q.updateItemAt(tx, itemId, version, { ...patch, ...(newDueDate ? { remindersSent: 0 } : {}), updatedBy: principal.userId });
    if (!row) throw stale();
    if (changes.length > 0) await itemActivity(tx, row, principal.userId, 'checklist.item_updated', { changes }, { internal: true });
    // Required and borrower-visible are among the fields: the counts may move.
    if (changes.length > 0) await refreshLoanDocumentCounts(tx, loanId);
    return itemView(row);
  });
}

export async function removeItem(deps: Deps, principal: SignedInPrincipal, loanId: string, itemId: string, version: number): Promise<void> {
  await deps.db.transaction(async (tx) => {
    await mustFind(tx, loanId, itemId);
    const objectKeys = await objectKeysOfItems(tx, [itemId]);
    const row = await q.deleteItemAt(tx, itemId, version);
    if (!row) throw stale();
    // Its documents' rows went with it; their objects are deleted once this commits.
    await enqueueObjectDeletion(tx, objectKeys);
    await itemActivity(tx, row, principal.userId, 'checklist.item_removed');
    await refreshLoanDocumentCounts(tx, loanId);
  });
}

/** Puts the items in the order given, which must name each of the loan's items once. */
export async function reorderItems(deps: Deps, principal: SignedInPrincipal, loanId: string, itemIds: string[]) {
  return deps.db.transaction(async (tx) => {
    const current = await q.listItems(tx, loanId);
    const wanted = itemIds.map((id) => id.toLowerCase());
    const have = new Set(current.map((row) => row.id));
    if (wanted.length !== have.size || new Set(wanted).size !== wanted.length || wanted.some((id) => !have.has(id))) {
      throw invalidField('itemIds', 'List every item of this checklist once, in its new order');
    }
    await q.setPositions(tx, loanId, wanted);
    await recordActivity(tx, loanId, { actorId: principal.userId, kind: 'checklist.reordered', visibility: 'internal', data: {} });
    return checklist(tx, loanId, 'team');
  });
}

/** How each status action changes an item, and what it writes to the activity. */
const ACTION_EFFECTS: Record<
  'waive' | 'reopen' | 'claim-not-applicable' | 'confirm-not-applicable' | 'reject-not-applicable',
  { action: ItemAction; kind: string; values: (reason: string | null) => Partial<ChecklistItemRow>; withReason?: boolean }
> = {
  waive: { action: 'waive', kind: 'checklist.item_waived', values: (reason) => ({ reason, notApplicableConfirmed: false }), withReason: true },
  // Asked for again: its reminders start over (owedAgain).
  reopen: {
    action: 'reopen',
    kind: 'checklist.item_reopened',
    values: () => ({ reason: null, notApplicableConfirmed: false, documentDate: null, ...owedAgain() }),
  },
  'claim-not-applicable': {
    action: 'claim-not-applicable',
    kind: 'checklist.item_not_applicable',
    values: (reason) => ({ reason, notApplicableConfirmed: false }),
    withReason: true,
  },
  'confirm-not-applicable': { action: 'confirm-not-applicable', kind: 'checklist.not_applicable_confirmed', values: () => ({ notApplicableConfirmed: true }) },
  'reject-not-applicable': {
    action: 'reject-not-applicable',
    kind: 'checklist.not_applicable_rejected',
    values: () => ({ reason: null, notApplicableConfirmed: false, ...owedAgain() }),
  },
};
export type StatusAction = keyof typeof ACTION_EFFECTS;

/**
 * Moves an item's status tag by one of the actions. The answer is the item as
 * the caller sees it: the team's view, or a borrower's (a borrower claiming
 * "doesn't apply to me").
 */
export async function changeItemStatus(
  deps: Deps,
  principal: SignedInPrincipal,
  loanId: string,
  itemId: string,
  which: StatusAction,
  { version, reason = null }: { version: number; reason?: string | null },
  audience: 'team' | 'borrowers',
): Promise<ChecklistItemView | BorrowerChecklistItemView> {
  const effect = ACTION_EFFECTS[which];
  return deps.db.transaction(async (tx) => {
    const before = await mustFind(tx, loanId, itemId);
    if (before.version !== version) throw stale();
    // Confirming twice, or confirming what nobody claimed, is refused like any move the tag does not allow.
    const next = which === 'confirm-not-applicable' && before.notApplicableConfirmed ? null : nextItemStatus(before.status, effect.action);
    if (!next) throw new AppError('conflict', `This item is ${ITEM_STATUS_LABELS[before.status].toLowerCase()}: it cannot be ${which.replace(/-/g, ' ')} now.`);
    const row = await q.updateItemAt(tx, itemId, version, { ...effect.values(reason), status: next, updatedBy: principal.userId });
    if (!row) throw stale();
    const byBorrower = which === 'claim-not-applicable' ? { byName: principal.name } : {};
    await itemActivity(tx, row, principal.userId, effect.kind, { ...(effect.withReason ? { reason } : {}), ...byBorrower });
    // Asked for again (reopened, or "not applicable" sent back): the borrowers hear of it.
    if (which === 'reopen' || which === 'reject-not-applicable') await noteDocumentsRequested(tx, loanId, [row]);
    await refreshLoanDocumentCounts(tx, loanId);
    return audience === 'team' ? itemView(row) : borrowerItemView(tx, loanId, itemId);
  });
}

/** What the loan's deal needs from the team's template that it lacks, and which of its items no longer apply. */
export async function templateSuggestions(db: Db, loanId: string) {
  const deal = await q.loanDeal(db, loanId);
  if (!deal) throw new AppError('not_found', 'This loan does not exist');
  const { items } = await templateOf(db, deal.teamId);
  const rows = await q.listItems(db, loanId);
  const { missing, noLongerApplies } = checklistChanges(
    items,
    rows.flatMap((row) => (row.key ? [row.key] : [])),
    deal.purpose,
    deal.propertyType,
  );
  return { missing, noLongerApplies: rows.filter((row) => row.key && noLongerApplies.includes(row.key)).map(itemView) };
}

/** Adds chosen items of the team's template the loan does not have yet. */
export async function addFromTemplate(deps: Deps, principal: SignedInPrincipal, loanId: string, keys: string[], today = new Date().toISOString().slice(0, 10)) {
  return deps.db.transaction(async (tx) => {
    const deal = await q.loanDeal(tx, loanId);
    if (!deal) throw new AppError('not_found', 'This loan does not exist');
    const { items } = await templateOf(tx, deal.teamId);
    const have = new Set((await q.listItems(tx, loanId)).flatMap((row) => (row.key ? [row.key] : [])));
    const unknown = keys.filter((key) => !items.some((item) => item.key === key));
    if (unknown.length > 0) throw invalidField('keys', `Not in the team's template: ${unknown.join(', ')}`);
    const chosen = items.filter((item) => keys.includes(item.key) && !have.has(item.key));
    const rows = await q.insertItems(tx, itemRowsFrom(loanId, chosen, await q.nextPosition(tx, loanId), today, principal.userId));
    for (const row of rows) await itemActivity(tx, row, principal.userId, 'checklist.item_added');
    await noteDocumentsRequested(tx, loanId, rows);
    await refreshLoanDocumentCounts(tx, loanId);
    return checklist(tx, loanId, 'team');
  });
}

/**
 * The template's fingerprint: SHA-256 of every field of every item in order
 * (absent ones as null) and whether it is the built-in one. Two reads of the
 * same template give the same revision, so no column has to count saves.
 */
export function templateRevision(template: { builtIn: boolean; items: readonly TemplateItem[] }): string {
  const items = template.items.map((item) => [
    item.key,
    item.label,
    item.category,
    item.required,
    item.provider,
    item.borrowerVisible,
    item.dueInDays ?? null,
    item.validityDays ?? null,
    item.purposes ?? null,
    item.propertyTypes ?? null,
  ]);
  return createHash('sha256')
    .update(JSON.stringify([template.builtIn, items]))
    .digest('hex')
    .slice(0, 16);
}

/** The team's template as the editor reads it: its own or the built-in one, with its revision. */
export async function templateView(db: Db, teamId: string): Promise<ChecklistTemplateView> {
  const template = await templateOf(db, teamId);
  return { ...template, revision: templateRevision(template) };
}

const staleTemplate = () =>
  new AppError('conflict', 'Someone else changed the checklist template since you opened it. Reload it to see their version, then make your changes again.');

/** Locks the team's template and checks it is still the revision the editor read. */
async function lockRevision(tx: Db, teamId: string, revision: string) {
  if (!(await q.lockTeamTemplate(tx, teamId))) throw new AppError('not_found', 'This team does not exist');
  if ((await templateView(tx, teamId)).revision !== revision) throw staleTemplate();
}

/** Replaces the team's template with `items`, in order (owners; audited). */
export async function saveTemplate(
  deps: Deps,
  principal: SignedInPrincipal,
  teamId: string,
  { revision, items }: ChecklistTemplateFields,
  origin: AuditOrigin,
) {
  const template: TemplateItem[] = items.map(({ dueInDays, validityDays, purposes, propertyTypes, ...item }) => ({
    ...item,
    ...(dueInDays !== null ? { dueInDays } : {}),
    ...(validityDays !== null ? { validityDays } : {}),
    // Every purpose (or property type) listed is the same as none named: stored as "all", so a new one would apply too.
    ...(purposes !== null && purposes.length < LOAN_PURPOSES.length ? { purposes } : {}),
    ...(propertyTypes !== null && propertyTypes.length < PROPERTY_TYPES.length ? { propertyTypes } : {}),
  }));
  return deps.db.transaction(async (tx) => {
    await lockRevision(tx, teamId, revision);
    await q.replaceTeamTemplate(tx, teamId, template);
    await recordAudit(tx, { action: 'checklist_template.saved', actor: actorOf(principal), teamId, origin, data: { items: template.length } });
    return templateView(tx, teamId);
  });
}

/** Back to the built-in template (owners; audited). */
export async function resetTemplate(deps: Deps, principal: SignedInPrincipal, teamId: string, revision: string, origin: AuditOrigin) {
  return deps.db.transaction(async (tx) => {
    await lockRevision(tx, teamId, revision);
    await q.replaceTeamTemplate(tx, teamId, []);
    await recordAudit(tx, { action: 'checklist_template.reset', actor: actorOf(principal), teamId, origin });
    return templateView(tx, teamId);
  });
}
