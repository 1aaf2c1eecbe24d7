import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../server/db/client';
import { job } from '../server/db/schema';
import { MAIL_QUEUE } from '../server/platform/mail/mail-jobs';

/** The token of the newest upload link mailed to `email`, read from its mail in the outbox (before it is sent). */
export async function uploadLinkTokenFor(db: Db, email: string): Promise<string> {
  const [row] = await db
    .select({ payload: job.payload })
    .from(job)
    .where(and(eq(job.queue, MAIL_QUEUE), sql`lower(${job.payload}->>'to') = ${email.toLowerCase()}`))
    .orderBy(sql`${job.id} desc`)
    .limit(1);
  const text = (row?.payload as { text?: string } | undefined)?.text ?? '';
  const token = /\/upload#([A-Za-z0-9_-]{43})/.exec(text)?.[1];
  if (!token) throw new Error(`No upload link mail to ${email}`);
  return token;
}

/** The headers a link's holder sends: its token as a bearer credential. */
export const linkBearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });
