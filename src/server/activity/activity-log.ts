import { and, asc, desc, eq, gt, isNotNull, lt, sql, type SQL } from 'drizzle-orm';
import { isBorrowerActivityKind } from '../../shared/domain/borrower-view';
import type { ActivityVisibility } from '../../shared/schemas/loans';
import type { Db } from '../db/client';
import { activity, loan, team, user } from '../db/schema';
import { signalActivity } from '../platform/realtime/signals';

/**
 * The loan's activity: the one module that writes it and reads it back.
 *
 * Each row gets the loan's next `seq` (and, when shared, its next
 * `shared_seq`) from the loan row, in the same statement that inserts it. That
 * UPDATE holds the loan's row lock until the writer's transaction ends, so the
 * numbers of one loan become visible in order: a reader asking for the rows
 * after N never skips one that commits late (see db/schema/activity.ts). The
 * team reads by `seq`; borrowers read by `shared_seq`, so the gaps left by
 * internal rows reveal nothing to them.
 */

export interface NewActivity {
  actorId: string | null;
  kind: string;
  data?: Record<string, unknown>;
  visibility: ActivityVisibility;
}

/**
 * Appends rows to the loan's activity, in the caller's transaction with the
 * change they record, and touches the loan's last activity time. One
 * statement, so the numbers are taken and used under the same lock even
 * outside a transaction. Returns the rows' `seq`, in order (none when the
 * loan does not exist).
 */
export async function recordActivity(db: Db, loanId: string, entries: NewActivity | NewActivity[]): Promise<number[]> {
  const rows = await recordActivityOnLoans(
    db,
    [entries].flat().map((entry) => ({ ...entry, loanId })),
  );
  return rows.map((row) => row.seq);
}

/**
 * Appends rows to the activity of several loans at once (a sweep that
 * changes items on many loans), in one statement as `recordActivity` does:
 * each loan's rows take its next numbers, in the order given. Returns each
 * row's loan, `seq` and `shared_seq` (null for an internal row), by loan and
 * in order.
 */
export async function recordActivityOnLoans(
  db: Db,
  entries: (NewActivity & { loanId: string })[],
): Promise<{ loanId: string; seq: number; sharedSeq: number | null }[]> {
  if (entries.length === 0) return [];
  // A shared row borrowers could not read would still take a number in their sequence: a gap they could see.
  const unreadable = entries.find((entry) => entry.visibility === 'shared' && !isBorrowerActivityKind(entry.kind));
  if (unreadable) throw new Error(`Activity ${unreadable.kind} is written as shared, but the borrower projection has no entry for it (borrower-view.ts)`);
  // Each row's place among its loan's rows (i), and among its loan's shared rows (shared_i).
  const counters = new Map<string, { all: number; shared: number }>();
  const values = entries.map((entry) => {
    const counter = counters.get(entry.loanId) ?? { all: 0, shared: 0 };
    counters.set(entry.loanId, counter);
    counter.all += 1;
    const sharedIndex = entry.visibility === 'shared' ? ++counter.shared : null;
    return sql`(${entry.loanId}::uuid, ${counter.all}::integer, ${sharedIndex}::integer, ${entry.actorId}::text, ${entry.kind}::text, ${JSON.stringify(entry.data ?? {})}::jsonb, ${entry.visibility}::text)`;
  });
  const result = (await db.execute(sql`
    with v(loan_id, i, shared_i, actor_id, kind, data, visibility) as (values ${sql.join(values, sql`, `)}),
    counts as (select loan_id, count(*)::integer as n, count(shared_i)::integer as shared_n from v group by loan_id),
    taken as (
      update ${loan}
         set activity_seq = activity_seq + counts.n,
             shared_activity_seq = shared_activity_seq + counts.shared_n,
             last_activity_at = now()
        from counts
       where ${loan.id} = counts.loan_id
   returning ${loan.id} as loan_id, activity_seq - counts.n as seq0, shared_activity_seq - counts.shared_n as shared0)
    insert into ${activity} (loan_id, seq, shared_seq, actor_id, kind, data, visibility)
    select v.loan_id, taken.seq0 + v.i, taken.shared0 + v.shared_i, v.actor_id, v.kind, v.data, v.visibility
      from v join taken on taken.loan_id = v.loan_id
     order by v.loan_id, v.i
 returning loan_id, seq, shared_seq`)) as unknown as { rows: { loan_id: string; seq: number; shared_seq: number | null }[] };
  const rows = result.rows
    .map((row) => ({ loanId: row.loan_id, seq: Number(row.seq), sharedSeq: row.shared_seq === null ? null : Number(row.shared_seq) }))
    .sort((a, b) => (a.loanId === b.loanId ? a.seq - b.seq : a.loanId < b.loanId ? -1 : 1));
  // Each loan's newest number, heard by the realtime stream once the caller's transaction commits.
  const newest = new Map(rows.map((row) => [row.loanId, row.seq]));
  for (const [loanId, seq] of newest) await signalActivity(db, loanId, seq);
  return rows;
}

/**
 * Forgets what a deleted comment said and whom it named, in the deletion's
 * transaction: its `comment.edited` rows lose their earlier texts and
 * mentions, and its `comment.posted` row its mentions. The rows stay (who
 * posted and edited it, and when), so no reader's sequence changes.
 */
export async function forgetCommentText(db: Db, loanId: string, commentId: string): Promise<void> {
  await db
    .update(activity)
    .set({
      data: sql`case ${activity.kind}
        when 'comment.posted' then ${activity.data} || '{"mentions": []}'::jsonb
        else ${activity.data} - 'previousBody' - 'previousMentions' end`,
    })
    .where(
      and(eq(activity.loanId, loanId), sql`${activity.kind} in ('comment.posted', 'comment.edited')`, sql`${activity.data} ->> 'commentId' = ${commentId}`),
    );
}

export interface ImportedActivity extends NewActivity {
  loanId: string;
  at: Date;
}

/**
 * Writes the whole history of loans that have no activity yet (the demo
 * seed), numbered in the order given, and sets each loan's counters to match.
 * Returns each row's `seq` and `shared_seq` (null for an internal row), in
 * the order given: what the rows that point at them (comments) keep.
 */
export async function importActivity(db: Db, rows: ImportedActivity[], chunkSize = 2000): Promise<{ seq: number; sharedSeq: number | null }[]> {
  const counters = new Map<string, { seq: number; shared: number }>();
  const numbered = rows.map((row) => {
    const counter = counters.get(row.loanId) ?? { seq: 0, shared: 0 };
    counter.seq += 1;
    if (row.visibility === 'shared') counter.shared += 1;
    counters.set(row.loanId, counter);
    return { ...row, data: row.data ?? {}, seq: counter.seq, sharedSeq: row.visibility === 'shared' ? counter.shared : null };
  });
  for (let i = 0; i < numbered.length; i += chunkSize) await db.insert(activity).values(numbered.slice(i, i + chunkSize));
  for (const [loanId, counter] of counters) {
    await db.update(loan).set({ activitySeq: counter.seq, sharedActivitySeq: counter.shared }).where(eq(loan.id, loanId));
  }
  return numbered.map(({ seq, sharedSeq }) => ({ seq, sharedSeq }));
}

export const ACTIVITY_PAGE_SIZE = 50;

/** Who reads: the team (every row, by `seq`) or a borrower (shared rows, by `shared_seq`). */
export type ActivityAudience = 'team' | 'borrowers';

const cursorOf = (audience: ActivityAudience) => (audience === 'team' ? activity.seq : activity.sharedSeq);

const selection = (audience: ActivityAudience) => ({
  cursor: sql<number>`${cursorOf(audience)}`.mapWith(Number),
  kind: activity.kind,
  data: activity.data,
  visibility: activity.visibility,
  at: activity.at,
  actorId: user.id,
  actorName: user.name,
});

function audienceFilter(loanId: string, audience: ActivityAudience): SQL[] {
  const where: SQL[] = [eq(activity.loanId, loanId)];
  if (audience === 'borrowers') where.push(isNotNull(activity.sharedSeq));
  return where;
}

/** A page of the loan's activity, newest first, before the audience's cursor `before` (one row more than a page, to tell whether there is another). */
export async function activityPage(db: Db, loanId: string, audience: ActivityAudience, before?: number) {
  const where = audienceFilter(loanId, audience);
  if (before) where.push(lt(cursorOf(audience), before));
  return db
    .select(selection(audience))
    .from(activity)
    .leftJoin(user, eq(user.id, activity.actorId))
    .where(and(...where))
    .orderBy(desc(cursorOf(audience)))
    .limit(ACTIVITY_PAGE_SIZE + 1);
}

/** The loan's rows after the audience's cursor `after`, oldest first: what a reader that saw up to `after` missed. */
export async function activityAfter(db: Db, loanId: string, audience: ActivityAudience, after: number, limit = 500) {
  const where = audienceFilter(loanId, audience);
  where.push(gt(cursorOf(audience), after));
  return db
    .select(selection(audience))
    .from(activity)
    .leftJoin(user, eq(user.id, activity.actorId))
    .where(and(...where))
    .orderBy(asc(cursorOf(audience)))
    .limit(limit);
}

/** The name of the loan's team: who did what, as a borrower reads the team's doings. */
export async function loanTeamName(db: Db, loanId: string): Promise<string | undefined> {
  const [row] = await db.select({ name: team.name }).from(loan).innerJoin(team, eq(team.id, loan.teamId)).where(eq(loan.id, loanId));
  return row?.name;
}

/**
 * The loan's rows after the team's `seq` `after`, oldest first, each with both
 * of its numbers: the realtime hub reads a loan's new rows once and hands each
 * reader its own projection and cursor (`seq` for the team, `sharedSeq`,
 * null on internal rows, for borrowers).
 */
export async function activityRowsAfter(db: Db, loanId: string, after: number, limit = 500) {
  return db
    .select({ ...selection('team'), seq: activity.seq, sharedSeq: activity.sharedSeq })
    .from(activity)
    .leftJoin(user, eq(user.id, activity.actorId))
    .where(and(eq(activity.loanId, loanId), gt(activity.seq, after)))
    .orderBy(asc(activity.seq))
    .limit(limit);
}
