import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { waitlistEntry, type WaitlistEntry } from '../db/schema';
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
