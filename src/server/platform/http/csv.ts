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

/** A CSV file for Excel: a UTF-8 byte-order mark (else it misreads accented names), then the header and the rows. */
export const csvFile = (header: string[], rows: string[]) => `\uFEFF${csvRow(header)}${rows.join('')}`;
