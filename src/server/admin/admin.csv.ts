import { csvFile, csvRow } from '../platform/http/csv';
import type { WaitlistEntry } from '../db/schema';

const HEADER = ['Full name', 'Email', 'Phone', 'Company', 'Status', 'Signed up (UTC)', 'Invited (UTC)', 'Submissions'];

/** The waitlist as CSV, header first (the same formula-safe cells as every export). */
export function waitlistCsv(entries: WaitlistEntry[]): string {
  const lines = entries.map((e) =>
    csvRow([e.fullName, e.email, e.phone, e.company, e.status, e.createdAt.toISOString(), e.invitedAt?.toISOString(), e.submissions]),
  );
  return csvFile(HEADER, lines);
}

/** waitlist-YYYY-MM-DD.csv, dated in UTC like the timestamps inside. */
export const waitlistCsvFilename = (now: Date) => `waitlist-${now.toISOString().slice(0, 10)}.csv`;
