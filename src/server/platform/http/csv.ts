/**
 * CSV injection (OWASP): a spreadsheet runs a cell that starts with one of
 * =, +, -, @, tab or carriage return as a formula. Coverly puts an apostrophe
 * before such a start, which makes it plain text. Not only at the start of a
 * cell: a spreadsheet set to split on `;` (most European Excel set-ups), on
 * tabs or lines starts a cell after each of those, so the same goes after any
 * separator inside a cell, behind spaces or quotes.
 */
const FORMULA_AT_START = /^(?=[ "]*[=+\-@\t\r])/;
const FORMULA_AFTER_SEPARATOR = /([,;\t\r\n][ "]*)(?=[=+\-@\t\r])/g;

/** Text that no spreadsheet reads as a formula, however it splits the line. */
export function defuseFormulas(text: string): string {
  return text.replace(FORMULA_AFTER_SEPARATOR, "$1'").replace(FORMULA_AT_START, "'");
}

/**
 * One CSV cell: always quoted, quotes doubled (RFC 4180), so every separator
 * and line break stays inside its cell. Text is defused (`defuseFormulas`);
 * a number is one Coverly computed and stays a number, negative or not.
 */
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '""';
  const text = typeof value === 'number' ? String(value) : defuseFormulas(value);
  return `"${text.replace(/"/g, '""')}"`;
}

/** RFC 4180 lines end with CRLF. */
export const csvRow = (cells: (string | number | null | undefined)[]) => `${cells.map(csvCell).join(',')}\r\n`;

/** A CSV file for Excel: a UTF-8 byte-order mark (else it misreads accented names), then the header and the rows. */
export const csvFile = (header: string[], rows: string[]) => `\uFEFF${csvRow(header)}${rows.join('')}`;
