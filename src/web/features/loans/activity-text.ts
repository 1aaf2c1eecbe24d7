import {
  LOAN_FIELD_LABELS,
  LOAN_PURPOSE_LABELS,
  PREPAYMENT_LABELS,
  PROPERTY_TYPE_LABELS,
  US_STATES,
  type LoanField,
  type LoanPurpose,
  type PrepaymentKind,
  type PropertyType,
  type UsState,
} from '../../../shared/domain/loan-fields';
import { STAGE_LABELS, type LoanStage } from '../../../shared/domain/loan-stages';
import { formatCents, formatPercent } from '../../../shared/money';
import type { ActivityView } from '../../../shared/schemas/loans';
import { formatCalendarDate } from '../../lib/dates';

const stageLabel = (stage: unknown) => (typeof stage === 'string' && stage in STAGE_LABELS ? STAGE_LABELS[stage as LoanStage] : 'an unknown stage');

const itemLabel = (data: Record<string, unknown>) => (typeof data.label === 'string' ? `“${data.label}”` : 'an item');

/** One field's value in words: cents as dollars, percents with their sign, enums by their labels. */
export function fieldValueText(field: string, value: unknown, people: ReadonlyMap<string, string> = new Map()): string {
  if (value === null || value === undefined || value === '') return 'nothing';
  if (field.endsWith('Cents')) {
    if (Array.isArray(value)) return value.map((cents) => (typeof cents === 'number' ? formatCents(cents) : String(cents))).join(' / ');
    return typeof value === 'number' ? formatCents(value) : String(value);
  }
  if (field.endsWith('Percent')) return typeof value === 'number' ? formatPercent(value) : String(value);
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  switch (field) {
    case 'propertyType':
      return PROPERTY_TYPE_LABELS[value as PropertyType] ?? String(value);
    case 'purpose':
      return LOAN_PURPOSE_LABELS[value as LoanPurpose] ?? String(value);
    case 'prepaymentKind':
      return PREPAYMENT_LABELS[value as PrepaymentKind] ?? String(value);
    case 'propertyState':
      return US_STATES[value as UsState] ?? String(value);
    case 'termYears':
    case 'amortizationYears':
    case 'prepaymentYears':
      return `${String(value)} years`;
    case 'interestOnlyMonths':
      return `${String(value)} months`;
    case 'targetClosingDate':
      return typeof value === 'string' ? formatCalendarDate(value, 'long') : String(value);
    case 'assigneeId':
      return people.get(String(value)) ?? 'a former team member';
    case 'internalNotes':
      return String(value).length > 80 ? `“${String(value).slice(0, 80)}…”` : `“${String(value)}”`;
    default:
      return String(value);
  }
}

interface FieldChange {
  field: string;
  from: unknown;
  to: unknown;
}

const isChange = (value: unknown): value is FieldChange => typeof value === 'object' && value !== null && 'field' in value;

/**
 * One activity row in words, for the loan's feed: "Asha changed Loan amount
 * from $300,000.00 to $280,000.00". An edit of several fields is one line
 * per field. `people` names team members by id (for the assignee).
 */
export function activityLines(item: ActivityView, people: ReadonlyMap<string, string> = new Map()): string[] {
  const who = item.actor?.name || 'Someone';
  const data = item.data;
  switch (item.kind) {
    case 'loan.created': {
      const opened = `${who} opened the loan file at ${stageLabel(data.stage ?? 'lead')}`;
      const assignee = data.assignee as { id?: unknown; name?: unknown } | undefined;
      if (!assignee || typeof assignee.name !== 'string') return [opened];
      const self = item.actor && 'id' in item.actor && item.actor.id === assignee.id;
      return [`${opened} and assigned it to ${self ? 'themselves' : assignee.name}`];
    }
    case 'loan.updated': {
      const changes = Array.isArray(data.changes) ? data.changes.filter(isChange) : [];
      if (changes.length === 0) return [`${who} edited the loan`];
      return changes.map((change) => {
        const label = LOAN_FIELD_LABELS[change.field as LoanField] ?? change.field;
        return `${who} changed ${label} from ${fieldValueText(change.field, change.from, people)} to ${fieldValueText(change.field, change.to, people)}`;
      });
    }
    case 'loan.assigned':
      return [data.to ? `${who} assigned the loan to ${String(data.to)}` : `${who} unassigned the loan`];
    case 'stage.changed':
      return [`${who} moved the loan from ${stageLabel(data.from)} to ${stageLabel(data.to)}`];
    case 'stage.reopened':
      return [`${who} reopened the loan at ${stageLabel(data.to)}`];
    case 'loan.archived':
      return [`${who} archived the loan`];
    case 'loan.restored':
      return [`${who} restored the loan`];
    case 'participant.joined':
      return [`${String(data.name ?? 'A borrower')} joined the loan${data.role === 'co_borrower' ? ' as co-borrower' : ''}`];
    case 'participant.invited':
      return [`${who} invited ${String(data.email ?? 'a borrower')}${data.role === 'co_borrower' ? ' as co-borrower' : ''}`];
    case 'participant.removed':
      return [`${who} removed ${String(data.name ?? data.email ?? 'a borrower')} from the loan`];
    case 'checklist.item_added':
      return [`${who} added ${itemLabel(data)} to the checklist`];
    case 'checklist.item_removed':
      return [`${who} removed ${itemLabel(data)} from the checklist`];
    case 'checklist.item_updated': {
      const changes = Array.isArray(data.changes) ? data.changes.filter(isChange) : [];
      return [`${who} edited ${itemLabel(data)}${changes.length ? ` (${changes.map((change) => change.field).join(', ')})` : ''}`];
    }
    case 'checklist.reordered':
      return [`${who} reordered the checklist`];
    case 'checklist.item_waived':
      return [`${who} waived ${itemLabel(data)}`];
    case 'checklist.item_reopened':
      return [`${who} asked for ${itemLabel(data)} again`];
    case 'checklist.item_not_applicable':
      return [`${who} said ${itemLabel(data)} doesn't apply`];
    case 'checklist.not_applicable_confirmed':
      return [`${who} confirmed ${itemLabel(data)} doesn't apply`];
    case 'checklist.not_applicable_rejected':
      return [`${who} asked for ${itemLabel(data)} after all`];
    case 'checklist.item_expired':
      // Time did it, not a person: the document was good only until before the closing.
      return [
        typeof data.validThrough === 'string'
          ? `${itemLabel(data)} expired: it was good through ${formatCalendarDate(data.validThrough, 'long')}`
          : `${itemLabel(data)} expired`,
      ];
    case 'document.uploaded': {
      const files = typeof data.fileCount === 'number' && data.fileCount > 1 ? ` (${data.fileCount} files)` : '';
      return [`${who} uploaded version ${String(data.versionNumber ?? '')} of ${itemLabel(data)}${files}`];
    }
    case 'document.review_started':
      return [`${who} started reviewing version ${String(data.versionNumber ?? '')} of ${itemLabel(data)}`];
    case 'document.approved':
      return [`${who} approved version ${String(data.versionNumber ?? '')} of ${itemLabel(data)}`];
    case 'document.needs_revision':
      return [`${who} asked for a new version of ${itemLabel(data)}`, ...(typeof data.reason === 'string' ? [`“${data.reason}”`] : [])];
    case 'document.viewed':
      return [`${who} viewed ${String(data.name ?? 'a file')}`];
    case 'document.downloaded':
      return [`${who} downloaded ${String(data.name ?? 'a file')}`];
    case 'document.link_sent':
      return [`${who} sent ${String(data.name ?? 'a third party')} (${String(data.email ?? '')}) an upload link for ${itemLabel(data)}`];
    case 'document.link_revoked':
      return [`${who} withdrew the upload link sent to ${String(data.email ?? 'a third party')} for ${itemLabel(data)}`];
    case 'comment.posted':
      return [data.parentId ? `${who} replied in the discussion` : `${who} commented${data.itemId ? ' on an item' : ''}`];
    case 'comment.edited':
      return [`${who} edited a comment`];
    case 'comment.deleted':
      return [`${who} deleted a comment`];
    case 'package.downloaded':
      return [
        `${who} downloaded the lender package (${typeof data.documents === 'number' ? `${data.documents} document${data.documents === 1 ? '' : 's'}` : 'documents'})`,
      ];
    case 'reminder.sent': {
      const names = Array.isArray(data.recipients) ? data.recipients.filter((name): name is string => typeof name === 'string') : [];
      const count = Array.isArray(data.items) ? data.items.length : 0;
      const what = `${count} owed document${count === 1 ? '' : 's'}`;
      const to = names.length ? names.join(', ') : 'the borrowers';
      // The schedule sent it, or a person pressed "Send reminder now".
      return [data.trigger === 'now' ? `${who} sent ${to} a reminder of ${what}` : `Reminder of ${what} sent to ${to}`];
    }
    case 'reminders.turned_off':
      return [`${who} turned reminders off`];
    case 'reminders.turned_on':
      return [`${who} turned reminders on`];
    default:
      return [`${who}: ${item.kind.replace(/[._]/g, ' ')}`];
  }
}

/** The note of a stage move, when it has one (team view only). */
export const activityNote = (item: ActivityView): string | null =>
  (item.kind === 'stage.changed' || item.kind === 'stage.reopened') && typeof item.data.note === 'string' ? item.data.note : null;
