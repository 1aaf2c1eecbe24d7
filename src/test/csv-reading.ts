/** What a spreadsheet runs as a formula when a cell starts with it (OWASP, CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * The cells of a CSV file (its byte-order mark dropped) as a spreadsheet
 * reads it when set to split on `separator`:
 * - `quoted`: honouring quotes as RFC 4180 says, leniently as Excel does (text
 *   after a closing quote joins the cell, up to the next separator);
 * - `unquoted`: a reader that loses track of the quotes and starts a cell at
 *   every separator or line break, the quotes staying in the text.
 */
export function readCsvAs(body: string, separator: ',' | ';', mode: 'quoted' | 'unquoted'): string[] {
  const text = body.replace(/^\uFEFF/, '');
  if (mode === 'unquoted') return text.split(new RegExp(`[${separator}\\r\\n]`)).filter((cell) => cell !== '');
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  let started = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"' && !started) {
      quoted = true;
      started = true;
    } else if (c === separator || c === '\n' || (c === '\r' && text[i + 1] === '\n')) {
      cells.push(cell);
      cell = '';
      started = false;
      if (c === '\r') i++;
    } else {
      cell += c;
      started = true;
    }
  }
  if (started || cell !== '') cells.push(cell);
  return cells;
}

/**
 * Every cell of `body` that would start a formula, read with `,` and with `;`
 * (most European Excel set-ups), honouring the quotes or not; leading spaces
 * and quotes are skipped, as some readers trim them. Empty for a safe file.
 */
export function formulaCells(body: string): { reader: string; cell: string }[] {
  const found: { reader: string; cell: string }[] = [];
  for (const separator of [',', ';'] as const)
    for (const mode of ['quoted', 'unquoted'] as const)
      for (const cell of readCsvAs(body, separator, mode))
        if (FORMULA_START.test(cell.replace(/^[ "]*/, ''))) found.push({ reader: `${mode} ${separator}`, cell });
  return found;
}
