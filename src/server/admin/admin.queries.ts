import { and, desc, eq, getTableColumns, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { job, waitlistEntry, type WaitlistEntry } from '../db/schema';
import type { ListJobsQuery, ListWaitlistQuery, WaitlistSort } from '../../shared/schemas/admin';
import { MAIL_QUEUE } from '../platform/mail/mail-jobs';

/** Makes `%`, `_` and `\` match themselves in a LIKE pattern (backslash is PostgreSQL's default escape). */
export const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

// Text columns sort case-insensitively, the way a person reads a list.
const SORT_KEYS: Record<WaitlistSort, SQL> = {
  createdAt: sql`${waitlistEntry.createdAt}`,
  fullName: sql`lower(${waitlistEntry.fullName})`,
  email: sql`${waitlistEntry.emailKey}`,
  company: sql`lower(${waitlistEntry.company})`,
  status: sql`${waitlistEntry.status}`,
};

function waitlistFilter({ q, status }: Pick<ListWaitlistQuery, 'q' | 'status'>): SQL | undefined {
  const pattern = q ? `%${escapeLike(q)}%` : null;
  return and(
    pattern
      ? or(
          ilike(waitlistEntry.fullName, pattern),
          ilike(waitlistEntry.email, pattern),
          ilike(waitlistEntry.company, pattern),
          ilike(waitlistEntry.phone, pattern),
        )
      : undefined,
    status ? eq(waitlistEntry.status, status) : undefined,
  );
}

/**
 * The entries matching the admin's search, sorted, at most `limit` of them,
 * with the count of every match. Empty companies sort last either way; ties
 * fall back to the newest first, so the order is stable between requests.
 */
export async function listWaitlistEntries(db: Db, query: ListWaitlistQuery, limit?: number): Promise<{ entries: WaitlistEntry[]; total: number }> {
  const direction = sql.raw(query.dir === 'asc' ? 'asc' : 'desc');
  const select = db
    .select({ ...getTableColumns(waitlistEntry), total: sql<number>`(count(*) over ())::int` })
    .from(waitlistEntry)
    .where(waitlistFilter(query))
    .orderBy(sql`${SORT_KEYS[query.sort]} ${direction} nulls last`, desc(waitlistEntry.createdAt), waitlistEntry.id)
    .$dynamic();
  // The window count is taken before the limit: it counts every match.
  const rows = await (limit === undefined ? select : select.limit(limit));
  return { entries: rows.map(({ total: _total, ...entry }) => entry), total: rows[0]?.total ?? 0 };
}

/** Marks the entry invited (again, for a repeated invitation); null when there is no such entry. */
export async function markWaitlistEntryInvited(db: Db, id: string): Promise<WaitlistEntry | null> {
  const [row] = await db
    .update(waitlistEntry)
    .set({ status: 'invited', invitedAt: sql`now()`, updatedAt: sql`now()` })
    .where(eq(waitlistEntry.id, id))
    .returning();
  return row ?? null;
}

/** Jobs in `status`, newest first, with the addressee and subject of e-mail jobs read from their payload. */
export async function listJobs(db: Db, { status }: ListJobsQuery, limit: number) {
  const mailField = (field: 'to' | 'subject') => sql<string | null>`case when ${job.queue} = ${MAIL_QUEUE} then ${job.payload} ->> ${field}::text end`;
  return db
    .select({
      id: job.id,
      queue: job.queue,
      status: job.status,
      recipient: mailField('to'),
      subject: mailField('subject'),
      attempts: job.attempts,
      maxAttempts: job.maxAttempts,
      lastError: job.lastError,
      updatedAt: job.updatedAt,
    })
    .from(job)
    .where(eq(job.status, status))
    .orderBy(desc(job.updatedAt), desc(job.id))
    .limit(limit);
}
