import type { ActivityAudience } from '../activity/activity-log';

/**
 * The stream's event id: where its reader is in every loan of the stream, so
 * one `Last-Event-ID` resumes them all (decision 020). Each loan's entry is
 *
 *     <the loan id's first hex digits>:<t|b><cursor>
 *
 * joined by commas, e.g. `3f2a9c1b:t42,9a0c2d11:b7`: the audience letter says
 * whose sequence the cursor counts (`t` the team's `seq`, `b` the borrowers'
 * `shared_seq`, decision 011), so a cursor is never read in the other
 * sequence. The prefix is the shortest one, of 8 digits or more, that tells
 * the stream's loans apart; a browser stores the id and sends it back on
 * every reconnect, so it is kept short (a loan page: 12 characters or so).
 */
export interface LoanCursor {
  loanId: string;
  audience: ActivityAudience;
  cursor: number;
}

export const MAX_EVENT_ID_LENGTH = 1024;
const ENTRY = /^([0-9a-f]{8,32}):([tb])(\d{1,10})$/;

const hexOf = (loanId: string) => loanId.replaceAll('-', '').toLowerCase();

/** The prefix length that tells these loans apart (8 hex digits unless two of them share them). */
export function prefixLength(loanIds: readonly string[]): number {
  const hexes = loanIds.map(hexOf);
  for (let length = 8; length < 32; length++) if (new Set(hexes.map((hex) => hex.slice(0, length))).size === hexes.length) return length;
  return 32;
}

export function packEventId(cursors: readonly LoanCursor[]): string {
  const length = prefixLength(cursors.map((c) => c.loanId));
  return cursors.map((c) => `${hexOf(c.loanId).slice(0, length)}:${c.audience === 'team' ? 't' : 'b'}${c.cursor}`).join(',');
}

export interface ParsedEventId {
  /** Each stream loan's cursor the id names unambiguously, in the reader's audience. */
  cursors: Map<string, number>;
  /** Loans the id names in another audience, or ambiguously: their cursor cannot be trusted (a `reset` for each). */
  unusable: Set<string>;
}

/**
 * Reads an event id for a stream on `loans`, each with the reader's audience.
 * Returns null when it is not an event id at all (the route answers 400);
 * loans it does not name start from now, and get a `reset` when it names
 * them in a way that cannot be trusted.
 */
export function parseEventId(id: string, loans: readonly { loanId: string; audience: ActivityAudience }[]): ParsedEventId | null {
  if (id.length === 0 || id.length > MAX_EVENT_ID_LENGTH) return null;
  const entries: { prefix: string; audience: ActivityAudience; cursor: number }[] = [];
  for (const part of id.split(',')) {
    const match = ENTRY.exec(part);
    if (!match) return null;
    const cursor = Number(match[3]);
    if (cursor > 2_147_483_647) return null;
    entries.push({ prefix: match[1]!, audience: match[2] === 't' ? 'team' : 'borrowers', cursor });
  }
  const cursors = new Map<string, number>();
  const unusable = new Set<string>();
  const hexes = loans.map(({ loanId }) => hexOf(loanId));
  const loansNamedBy = (prefix: string) => hexes.filter((hex) => hex.startsWith(prefix)).length;
  for (const [i, { loanId, audience }] of loans.entries()) {
    const named = entries.filter((entry) => hexes[i]!.startsWith(entry.prefix));
    if (named.length === 0) continue;
    // Two entries for one loan, one entry naming two loans of this stream, or the other audience's sequence.
    if (named.length > 1 || loansNamedBy(named[0]!.prefix) > 1 || named[0]!.audience !== audience) unusable.add(loanId);
    else cursors.set(loanId, named[0]!.cursor);
  }
  return { cursors, unusable };
}
