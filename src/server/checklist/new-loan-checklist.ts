import { checklistFor, DSCR_TEMPLATE, type TemplateItem } from '../../shared/domain/checklist-templates';
import type { LoanPurpose, PropertyType } from '../../shared/domain/loan-fields';
import type { Db } from '../db/client';
import type { checklistItem } from '../db/schema';
import { insertItems, teamTemplate } from './checklist.queries';
import { refreshLoanDocumentCounts } from './document-counts';

/** The team's own template, or the built-in DSCR one while it has none. */
export async function templateOf(db: Db, teamId: string): Promise<{ builtIn: boolean; items: TemplateItem[] }> {
  const own = await teamTemplate(db, teamId);
  return own.length > 0 ? { builtIn: false, items: own } : { builtIn: true, items: [...DSCR_TEMPLATE] };
}

/** YYYY-MM-DD `days` after `today`. */
export function addDays(today: string, days: number): string {
  const date = new Date(`${today}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** Rows for template items put on a loan, from position `start`, due `dueInDays` after `today`. */
export function itemRowsFrom(
  loanId: string,
  items: readonly TemplateItem[],
  start: number,
  today: string,
  by: string | null,
): (typeof checklistItem.$inferInsert)[] {
  return items.map((item, index) => ({
    loanId,
    key: item.key,
    position: start + index,
    label: item.label,
    category: item.category,
    required: item.required,
    provider: item.provider,
    borrowerVisible: item.borrowerVisible,
    dueDate: item.dueInDays ? addDays(today, item.dueInDays) : null,
    validityDays: item.validityDays ?? null,
    updatedBy: by,
  }));
}

/**
 * Gives a new loan its checklist from the team's template, chosen by its
 * purpose and property type, in the caller's transaction (the loans feature
 * calls it when it opens a loan file). Resolves with the loan's document
 * counters as they now stand.
 */
export async function createLoanChecklist(
  tx: Db,
  loan: { id: string; teamId: string; purpose: LoanPurpose; propertyType: PropertyType },
  by: string,
  today = new Date().toISOString().slice(0, 10),
) {
  const { items } = await templateOf(tx, loan.teamId);
  await insertItems(tx, itemRowsFrom(loan.id, checklistFor(items, loan.purpose, loan.propertyType), 0, today, by));
  return refreshLoanDocumentCounts(tx, loan.id);
}
