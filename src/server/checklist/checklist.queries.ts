import { and, asc, eq, sql } from 'drizzle-orm';
import type { TemplateItem } from '../../shared/domain/checklist-templates';
import type { Db } from '../db/client';
import { checklistItem, checklistTemplateItem, loan, team, type ChecklistItemRow } from '../db/schema';

export const listItems = (db: Db, loanId: string) =>
  db.select().from(checklistItem).where(eq(checklistItem.loanId, loanId)).orderBy(asc(checklistItem.position));

export async function findItem(db: Db, itemId: string): Promise<ChecklistItemRow | undefined> {
  const [row] = await db.select().from(checklistItem).where(eq(checklistItem.id, itemId));
  return row;
}

/** Just what the access layer needs to know of an item. */
export async function itemScope(db: Db, itemId: string) {
  const [row] = await db
    .select({ loanId: checklistItem.loanId, borrowerVisible: checklistItem.borrowerVisible })
    .from(checklistItem)
    .where(eq(checklistItem.id, itemId));
  return row;
}

export async function insertItems(db: Db, rows: (typeof checklistItem.$inferInsert)[]) {
  if (rows.length === 0) return [];
  return db.insert(checklistItem).values(rows).returning();
}

export async function nextPosition(db: Db, loanId: string): Promise<number> {
  const [row] = await db
    .select({ next: sql<number>`coalesce(max(${checklistItem.position}), -1)::int + 1` })
    .from(checklistItem)
    .where(eq(checklistItem.loanId, loanId));
  return row?.next ?? 0;
}

/** Writes `values` if the item is still at `version`; undefined when it is not (or is gone). */
export async function updateItemAt(db: Db, itemId: string, version: number, values: Partial<typeof checklistItem.$inferInsert>) {
  const [row] = await db
    .update(checklistItem)
    .set({ ...values, version: sql`${checklistItem.version} + 1`, updatedAt: sql`now()` })
    .where(and(eq(checklistItem.id, itemId), eq(checklistItem.version, version)))
    .returning();
  return row;
}

export async function deleteItemAt(db: Db, itemId: string, version: number) {
  const [row] = await db
    .delete(checklistItem)
    .where(and(eq(checklistItem.id, itemId), eq(checklistItem.version, version)))
    .returning();
  return row;
}

/** Sets every item's position to its index in `itemIds`, in one statement. */
export async function setPositions(db: Db, loanId: string, itemIds: string[]) {
  const values = sql.join(
    itemIds.map((id, index) => sql`(${id}::uuid, ${index}::integer)`),
    sql`, `,
  );
  await db.execute(sql`
    update ${checklistItem} as c
       set position = o.position
      from (values ${values}) as o(id, position)
     where c.id = o.id and c.loan_id = ${loanId}`);
}

export async function loanDeal(db: Db, loanId: string) {
  const [row] = await db.select({ teamId: loan.teamId, purpose: loan.purpose, propertyType: loan.propertyType }).from(loan).where(eq(loan.id, loanId));
  return row;
}

/**
 * Locks the team's row until the transaction ends, so two saves of its
 * template take turns (`no key update`: a loan being created for the team,
 * which only holds a key share on the row, does not wait). False when there
 * is no such team.
 */
export async function lockTeamTemplate(db: Db, teamId: string): Promise<boolean> {
  const rows = await db.select({ id: team.id }).from(team).where(eq(team.id, teamId)).for('no key update');
  return rows.length > 0;
}

export async function teamTemplate(db: Db, teamId: string): Promise<TemplateItem[]> {
  const rows = await db.select().from(checklistTemplateItem).where(eq(checklistTemplateItem.teamId, teamId)).orderBy(asc(checklistTemplateItem.position));
  return rows.map((row) => ({
    key: row.key,
    label: row.label,
    category: row.category,
    required: row.required,
    provider: row.provider,
    borrowerVisible: row.borrowerVisible,
    ...(row.dueInDays !== null ? { dueInDays: row.dueInDays } : {}),
    ...(row.validityDays !== null ? { validityDays: row.validityDays } : {}),
    ...(row.purposes ? { purposes: row.purposes } : {}),
    ...(row.propertyTypes ? { propertyTypes: row.propertyTypes } : {}),
  }));
}

export async function replaceTeamTemplate(db: Db, teamId: string, items: TemplateItem[]) {
  await db.delete(checklistTemplateItem).where(eq(checklistTemplateItem.teamId, teamId));
  if (items.length === 0) return;
  await db.insert(checklistTemplateItem).values(
    items.map((item, position) => ({
      teamId,
      key: item.key,
      position,
      label: item.label,
      category: item.category,
      required: item.required,
      provider: item.provider,
      borrowerVisible: item.borrowerVisible,
      dueInDays: item.dueInDays ?? null,
      validityDays: item.validityDays ?? null,
      purposes: item.purposes ? [...item.purposes] : null,
      propertyTypes: item.propertyTypes ? [...item.propertyTypes] : null,
    })),
  );
}
