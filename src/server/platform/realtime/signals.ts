import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';

/**
 * Signals for the realtime stream, sent with PostgreSQL's NOTIFY in the
 * caller's transaction: the database delivers them only when it commits, and
 * never when it rolls back, so a listener never hears of a row it cannot read
 * yet. They carry ids only; whoever hears one reads the rows from the tables
 * (the activity after its cursor, the person's unread count), checking access
 * as it sends them. Channel names are lower-case (PGlite folds them) and a
 * payload stays far below NOTIFY's 8000 bytes.
 */
export const ACTIVITY_CHANNEL = 'coverly_activity';
export const INBOX_CHANNEL = 'coverly_inbox';
/**
 * "What this person, or everyone on this loan, may read changed": a session
 * ended, a participant or member was removed, a loan deleted. Sent by
 * database triggers (migration 0017), whatever code removed the row:
 * `user:<userId>` or `loan:<loanId>`.
 */
export const ACCESS_CHANNEL = 'coverly_access';
/** Who has a stream open on which loan, between app instances (realtime/presence.ts). */
export const PRESENCE_CHANNEL = 'coverly_presence';

export const REALTIME_CHANNELS = [ACTIVITY_CHANNEL, INBOX_CHANNEL, ACCESS_CHANNEL, PRESENCE_CHANNEL] as const;
export type RealtimeChannel = (typeof REALTIME_CHANNELS)[number];

/** "The loan's activity now reaches `seq`": payload `<loanId>:<seq>`. */
export async function signalActivity(db: Db, loanId: string, seq: number) {
  await db.execute(sql`select pg_notify(${ACTIVITY_CHANNEL}, ${`${loanId}:${seq}`})`);
}

/** "The person's inbox changed" (a new notification, one read): payload `<userId>`. */
export async function signalInbox(db: Db, userId: string) {
  await db.execute(sql`select pg_notify(${INBOX_CHANNEL}, ${userId})`);
}

/** Sends a payload on any realtime channel (presence announcements; tests). */
export async function signal(db: Db, channel: RealtimeChannel, payload: string) {
  await db.execute(sql`select pg_notify(${channel}, ${payload})`);
}

/** Parses an activity signal's payload; null for anything else. */
export function parseActivitySignal(payload: string): { loanId: string; seq: number } | null {
  const match = /^([0-9a-f-]{36}):(\d+)$/.exec(payload);
  return match ? { loanId: match[1]!, seq: Number(match[2]) } : null;
}

/** Parses an access signal's payload; null for anything else. */
export function parseAccessSignal(payload: string): { userId: string } | { loanId: string } | null {
  if (payload.startsWith('user:') && payload.length > 5) return { userId: payload.slice(5) };
  const match = /^loan:([0-9a-f-]{36})$/.exec(payload);
  return match ? { loanId: match[1]! } : null;
}
