import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { comment, loanReadCursor } from '../db/schema';
import type { CommentAudience } from './comments.queries';

/**
 * What the comments feature offers lists of loans (the pipeline, "My
 * loans"): per loan, how many comments this person has not read, counted as
 * the discussion counts them (comments.queries.ts `unreadAfter`): others'
 * comments, not deleted, after their read cursor in their audience's
 * sequence (decision 011). Borrowers count shared comments only, by
 * `shared_activity_seq`, so nothing internal shows even as a number.
 *
 * One statement over the loans given (a page that is already chosen, never
 * the whole book): a left join to the person's cursor and, for each loan, a
 * count over `comment_loan_idx` (loan_id, activity_seq) from that cursor on.
 */
export async function unreadCommentCounts(
  db: Db,
  { userId, audience, loanIds }: { userId: string; audience: CommentAudience; loanIds: readonly string[] },
): Promise<Map<string, number>> {
  if (loanIds.length === 0) return new Map();
  const seq = audience === 'team' ? sql`c.activity_seq` : sql`c.shared_activity_seq`;
  const shared = audience === 'team' ? sql`` : sql`and c.visibility = 'shared'`;
  const result = (await db.execute(sql`
    select page.loan_id, unread.n
      from unnest(array[${sql.join(
        loanIds.map((id) => sql`${id}::uuid`),
        sql`, `,
      )}]) as page(loan_id)
      left join ${loanReadCursor} rc on rc.user_id = ${userId} and rc.loan_id = page.loan_id
     cross join lateral (
       select count(*)::integer as n
         from ${comment} c
        where c.loan_id = page.loan_id
          and ${seq} > coalesce(rc.cursor, 0)
          ${shared}
          and c.deleted_at is null
          and c.author_id is distinct from ${userId}
     ) unread`)) as unknown as { rows: { loan_id: string; n: number }[] };
  return new Map(result.rows.map((row) => [row.loan_id, Number(row.n)]));
}
