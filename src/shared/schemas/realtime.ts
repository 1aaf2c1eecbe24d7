import { z } from 'zod';
import { LoanId } from './loan-id';
import type { ActivityView } from './loans';

/** The loans one stream may carry at most: a page shows one loan, a list a screenful. */
export const MAX_STREAM_LOANS = 20;

/**
 * `GET /api/events[?loans=<id>,<id>][&lastEventId=…]`: the loans the page
 * shows (each one the caller may view; none on a page without a loan, where
 * the stream carries the inbox's count only), and where a fresh EventSource
 * resumes when it cannot send `Last-Event-ID` (the header wins when both are there).
 */
export const EventsQuerySchema = z.strictObject({
  loans: z
    .string({ error: 'loans: the ids of the loans to follow, comma-separated' })
    .max(MAX_STREAM_LOANS * 40, { error: `loans: at most ${MAX_STREAM_LOANS} loan ids` })
    .optional()
    .transform((value) => (value ? value.split(',') : []))
    .pipe(z.array(LoanId).max(MAX_STREAM_LOANS, { error: `loans: at most ${MAX_STREAM_LOANS} loan ids` }))
    .transform((ids) => [...new Set(ids)].sort()),
  lastEventId: z.string().max(1024, { error: 'lastEventId: too long to be an event id' }).optional(),
});
export type EventsQuery = z.infer<typeof EventsQuerySchema>;

/** The stream's events (`event:` name → `data` JSON). Only `activity` carries an `id:`. */
export interface ActivityEventData {
  loanId: string;
  /** The row as `GET /api/loans/:loanId/activity` gives it to this reader. */
  item: ActivityView;
}
export interface InboxEventData {
  unread: number;
}
/** Someone else with the loan open. A borrower sees the team as one viewer named after it, never a team member's id. */
export interface PresenceViewer {
  /** Team readers only: the person's id. */
  id?: string;
  name: string;
  /** On the loan's team (else a borrower or co-borrower). */
  team: boolean;
}
export interface PresenceEventData {
  loanId: string;
  viewers: PresenceViewer[];
}
/** The gap since the client's last event id is too large to replay: refetch the loan. */
export interface ResetEventData {
  loanId: string;
}

export const STREAM_EVENTS = ['activity', 'inbox', 'presence', 'heartbeat', 'reset'] as const;
export type StreamEvent = (typeof STREAM_EVENTS)[number];
