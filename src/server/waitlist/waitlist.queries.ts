import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { job, waitlistEntry, type WaitlistEntry } from '../db/schema';
import type { JoinWaitlist } from '../../shared/schemas/waitlist';

/**
 * Inserts the entry, or — for an e-mail already on the list in any letter
 * case — updates it with the newest details (keeping phone and company when
 * the new sign-up leaves them out). Never a second row.
 */
export async function upsertWaitlistEntry(db: Db, input: Omit<JoinWaitlist, 'website'>): Promise<{ entry: WaitlistEntry; created: boolean }> {
  const [row] = await db
    .insert(waitlistEntry)
    .values({ fullName: input.fullName, email: input.email, phone: input.phone ?? null, company: input.company ?? null })
    .onConflictDoUpdate({
      target: waitlistEntry.emailKey,
      set: {
        fullName: sql`excluded.full_name`,
        email: sql`excluded.email`,
        phone: sql`coalesce(excluded.phone, ${waitlistEntry.phone})`,
        company: sql`coalesce(excluded.company, ${waitlistEntry.company})`,
        submissions: sql`${waitlistEntry.submissions} + 1`,
        updatedAt: sql`now()`,
      },
    })
    .returning();
  if (!row) throw new Error('upsertWaitlistEntry returned no row');
  return { entry: row, created: row.submissions === 1 };
}

/** The row a first sign-up from `input` becomes: what `insertNewWaitlistEntry` stores. */
export function newWaitlistEntry(input: Omit<JoinWaitlist, 'website'>, now = new Date()): WaitlistEntry {
  return {
    id: randomUUID(),
    fullName: input.fullName,
    email: input.email,
    emailKey: input.email.toLowerCase(),
    phone: input.phone ?? null,
    company: input.company ?? null,
    status: 'new',
    submissions: 1,
    createdAt: now,
    updatedAt: now,
    invitedAt: null,
  };
}

/**
 * Stores `entry` (from `newWaitlistEntry`) and its outbox jobs in one
 * statement, so in one round trip and atomically — unless its address is
 * already on the list (in any letter case): then nothing is written and the
 * answer is false.
 */
export async function insertNewWaitlistEntry(db: Db, entry: WaitlistEntry, jobs: { queue: string; payload: unknown }[]): Promise<boolean> {
  const values = sql.join(
    jobs.map(({ queue, payload }, i) => sql`(${i}::int, ${queue}::text, ${JSON.stringify(payload)}::jsonb)`),
    sql`, `,
  );
  const result = (await db.execute(sql`
    with entry as (
      insert into ${waitlistEntry} (id, full_name, email, phone, company, status, submissions, created_at, updated_at)
      values (${entry.id}::uuid, ${entry.fullName}, ${entry.email}, ${entry.phone}, ${entry.company}, ${entry.status}, ${entry.submissions},
              ${entry.createdAt.toISOString()}::timestamptz, ${entry.updatedAt.toISOString()}::timestamptz)
      on conflict (email_key) do nothing
      returning id
    ), jobs as (
      insert into ${job} (queue, payload)
      select queue, payload from entry, (values ${values}) as mail (n, queue, payload) order by n
      returning id
    )
    select (select count(*) from entry)::int as created, (select count(*) from jobs)::int as jobs`)) as unknown as {
    rows: { created: number; jobs: number }[];
  };
  const row = result.rows[0];
  if (row && row.created === 1 && row.jobs !== jobs.length) throw new Error(`insertNewWaitlistEntry stored ${row.jobs} of ${jobs.length} jobs`);
  return row?.created === 1;
}
