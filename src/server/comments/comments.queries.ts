import { and, asc, count, desc, eq, gt, inArray, isNotNull, isNull, lt, ne, or, sql, type SQL } from 'drizzle-orm';
import type { CommentVisibility } from '../../shared/domain/comments';
import type { MentionCandidate } from '../../shared/schemas/comments';
import type { Db } from '../db/client';
import { activity, checklistItem, comment, loan, loanParticipant, loanReadCursor, teamMember, user, type CommentRow } from '../db/schema';

/** Who reads: the team (every comment, by `activity_seq`) or a borrower (shared ones, by `shared_activity_seq`). */
export type CommentAudience = 'team' | 'borrowers';

/** The reader's cursor of a comment: the team's sequence, or the borrowers' shared one (decision 011). */
const cursorOf = (audience: CommentAudience) => (audience === 'team' ? comment.activitySeq : comment.sharedActivitySeq);

/** What a reader may see of a loan's comments: all of them for the team, the shared ones for borrowers. */
function visibleTo(loanId: string, audience: CommentAudience): SQL[] {
  const where: SQL[] = [eq(comment.loanId, loanId)];
  if (audience === 'borrowers') where.push(eq(comment.visibility, 'shared'));
  return where;
}

export async function findComment(db: Db, commentId: string): Promise<CommentRow | undefined> {
  const [row] = await db.select().from(comment).where(eq(comment.id, commentId));
  return row;
}

/** The comment, locked until the transaction ends (edits and deletions of one comment serialise on it). */
export async function lockComment(db: Db, commentId: string): Promise<CommentRow | undefined> {
  const [row] = await db.select().from(comment).where(eq(comment.id, commentId)).for('update');
  return row;
}

export async function insertComment(db: Db, values: typeof comment.$inferInsert): Promise<CommentRow> {
  const [row] = await db.insert(comment).values(values).returning();
  if (!row) throw new Error('insertComment returned no row');
  return row;
}

export async function updateComment(db: Db, commentId: string, values: Partial<typeof comment.$inferInsert>): Promise<CommentRow> {
  const [row] = await db.update(comment).set(values).where(eq(comment.id, commentId)).returning();
  if (!row) throw new Error('updateComment found no row');
  return row;
}

/** A checklist item of the loan, and whether its borrowers see it; nothing for an item of another loan or none. */
export async function itemOfLoan(db: Db, loanId: string, itemId: string): Promise<{ borrowerVisible: boolean } | undefined> {
  const [row] = await db
    .select({ borrowerVisible: checklistItem.borrowerVisible })
    .from(checklistItem)
    .where(and(eq(checklistItem.id, itemId), eq(checklistItem.loanId, loanId)));
  return row;
}

/**
 * The people who may see a comment of this visibility: the owners and
 * assistants of the loan's team, and for a shared one its borrowers and
 * co-borrowers. The team first, each side by name.
 */
export async function loanPeople(db: Db, loanId: string, visibility: CommentVisibility): Promise<MentionCandidate[]> {
  const team = await db
    .select({ id: user.id, name: user.name })
    .from(loan)
    .innerJoin(teamMember, eq(teamMember.teamId, loan.teamId))
    .innerJoin(user, eq(user.id, teamMember.userId))
    .where(eq(loan.id, loanId))
    .orderBy(asc(user.name), asc(user.id));
  const borrowers =
    visibility === 'shared'
      ? await db
          .select({ id: user.id, name: user.name })
          .from(loanParticipant)
          .innerJoin(user, eq(user.id, loanParticipant.userId))
          .where(eq(loanParticipant.loanId, loanId))
          .orderBy(asc(user.name), asc(user.id))
      : [];
  return [...team.map((p) => ({ ...p, side: 'team' as const })), ...borrowers.map((p) => ({ ...p, side: 'borrower' as const }))];
}

/** A comment as the views are built from it: the row, its author's name and side, and whether its item is borrower-visible. */
const viewColumns = (audience: CommentAudience) => ({
  row: comment,
  cursor: sql<number>`${cursorOf(audience)}`.mapWith(Number),
  authorName: user.name,
  // The side they spoke for when they posted it (kept in the activity row: a person may leave the team or the loan later).
  authorSide: sql<string | null>`${activity.data}->>'side'`,
  itemBorrowerVisible: checklistItem.borrowerVisible,
});
export type CommentSource = { row: CommentRow; cursor: number; authorName: string | null; authorSide: string | null; itemBorrowerVisible: boolean | null };

function selectViews(db: Db, audience: CommentAudience) {
  return db
    .select(viewColumns(audience))
    .from(comment)
    .leftJoin(user, eq(user.id, comment.authorId))
    .leftJoin(activity, and(eq(activity.loanId, comment.loanId), eq(activity.seq, comment.activitySeq)))
    .leftJoin(checklistItem, eq(checklistItem.id, comment.itemId));
}

/** One comment as `audience` sees it (nothing when it is not theirs to see). */
export async function commentSource(db: Db, loanId: string, audience: CommentAudience, commentId: string): Promise<CommentSource | undefined> {
  const [row] = await selectViews(db, audience).where(and(...visibleTo(loanId, audience), eq(comment.id, commentId)));
  return row;
}

/**
 * A page of the loan's threads, newest first, started before the reader's
 * cursor `before` (one more than a page, to tell whether there is another).
 */
export async function threadPage(
  db: Db,
  loanId: string,
  audience: CommentAudience,
  { before, itemId, limit }: { before?: number; itemId?: string; limit: number },
) {
  const where = [...visibleTo(loanId, audience), isNull(comment.parentId)];
  if (before) where.push(lt(cursorOf(audience), before));
  if (itemId) where.push(eq(comment.itemId, itemId));
  // An item made internal since keeps its threads from borrowers' item view (its id is not theirs to know).
  if (itemId && audience === 'borrowers') where.push(eq(checklistItem.borrowerVisible, true));
  return selectViews(db, audience)
    .where(and(...where))
    .orderBy(desc(cursorOf(audience)))
    .limit(limit + 1);
}

/** The replies of these threads, oldest first. */
export async function repliesOf(db: Db, loanId: string, audience: CommentAudience, parentIds: string[]) {
  if (parentIds.length === 0) return [];
  return selectViews(db, audience)
    .where(and(...visibleTo(loanId, audience), inArray(comment.parentId, parentIds)))
    .orderBy(asc(cursorOf(audience)));
}

/** The names of these people (mentions), by id. */
export async function namesOf(db: Db, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.select({ id: user.id, name: user.name }).from(user).where(inArray(user.id, ids));
  return new Map(rows.map((row) => [row.id, row.name]));
}

/** Comments (not deleted) per checklist item, over the items and comments the reader sees. */
export async function itemCounts(db: Db, loanId: string, audience: CommentAudience): Promise<Record<string, number>> {
  const where = [...visibleTo(loanId, audience), isNull(comment.deletedAt), isNotNull(comment.itemId)];
  if (audience === 'borrowers') where.push(eq(checklistItem.borrowerVisible, true));
  const rows = await db
    .select({ itemId: comment.itemId, n: count() })
    .from(comment)
    .innerJoin(checklistItem, eq(checklistItem.id, comment.itemId))
    .where(and(...where))
    .groupBy(comment.itemId);
  return Object.fromEntries(rows.map((row) => [row.itemId!, row.n]));
}

/** The newest position of the reader's sequence of the loan's activity. */
export async function latestCursor(db: Db, loanId: string, audience: CommentAudience): Promise<number> {
  const [row] = await db
    .select({ seq: audience === 'team' ? loan.activitySeq : loan.sharedActivitySeq })
    .from(loan)
    .where(eq(loan.id, loanId));
  return row?.seq ?? 0;
}

export async function readCursorOf(db: Db, userId: string, loanId: string): Promise<number> {
  const [row] = await db
    .select({ cursor: loanReadCursor.cursor })
    .from(loanReadCursor)
    .where(and(eq(loanReadCursor.userId, userId), eq(loanReadCursor.loanId, loanId)));
  return row?.cursor ?? 0;
}

/** Moves the person's cursor forward to `cursor`; a smaller one leaves it where it is. Returns where it is now. */
export async function advanceReadCursor(db: Db, userId: string, loanId: string, cursor: number): Promise<number> {
  const [row] = await db
    .insert(loanReadCursor)
    .values({ userId, loanId, cursor })
    .onConflictDoUpdate({
      target: [loanReadCursor.userId, loanReadCursor.loanId],
      set: { cursor: sql`greatest(${loanReadCursor.cursor}, excluded.cursor)`, updatedAt: sql`now()` },
    })
    .returning({ cursor: loanReadCursor.cursor });
  return row?.cursor ?? cursor;
}

/** Comments by others after `cursor` that the reader sees (deleted ones not counted), and the first of them. */
export async function unreadAfter(db: Db, loanId: string, audience: CommentAudience, userId: string, cursor: number) {
  const where = [
    ...visibleTo(loanId, audience),
    isNull(comment.deletedAt),
    gt(cursorOf(audience), cursor),
    or(isNull(comment.authorId), ne(comment.authorId, userId))!,
  ];
  const [counted] = await db
    .select({ n: count() })
    .from(comment)
    .where(and(...where));
  const [first] = await db
    .select({ id: comment.id })
    .from(comment)
    .where(and(...where))
    .orderBy(asc(cursorOf(audience)))
    .limit(1);
  return { count: counted?.n ?? 0, firstUnreadId: first?.id ?? null };
}
