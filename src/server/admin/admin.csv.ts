import type { WaitlistEntry } from '../db/schema';

/**
 * A spreadsheet runs a cell that starts with one of these as a formula (CSV
 * injection, OWASP); a leading apostrophe makes it plain text.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One CSV cell: formula-safe, and quoted when RFC 4180 needs it (comma, quote, line break). */
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** RFC 4180 lines end with CRLF. */
export const csvRow = (cells: (string | number | null | undefined)[]) => `${cells.map(csvCell).join(',')}\r\n`;

const HEADER = ['Full name', 'Email', 'Phone', 'Company', 'Status', 'Signed up (UTC)', 'Invited (UTC)', 'Submissions'];

/**
 * The waitlist as CSV, header first. It starts with a UTF-8 byte-order mark
 * because Excel, the usual destination, otherwise misreads accented names.
 */
export function waitlistCsv(entries: WaitlistEntry[]): string {
  const lines = entries.map((e) =>
    csvRow([e.fullName, e.email, e.phone, e.company, e.status, e.createdAt.toISOString(), e.invitedAt?.toISOString(), e.submissions]),
  );
  return `\uFEFF${csvRow(HEADER)}${lines.join('')}`;
}

/** waitlist-YYYY-MM-DD.csv, dated in UTC like the timestamps inside. */
export const waitlistCsvFilename = (now: Date) => `waitlist-${now.toISOString().slice(0, 10)}.csv`;
