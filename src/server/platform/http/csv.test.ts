import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvCell, csvFile, csvRow } from './csv';

/** What a spreadsheet runs as a formula when a cell starts with it (OWASP, CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** The cells of one line as RFC 4180 reads it (quoted cells, "" for a quote). */
function parseRow(line: string): string[] {
  const cells: string[] = [];
  let i = 0;
  for (;;) {
    let cell = '';
    if (line[i] === '"') {
      i++;
      for (;;) {
        if (line[i] === '"' && line[i + 1] === '"') {
          cell += '"';
          i += 2;
        } else if (line[i] === '"') {
          i++;
          break;
        } else if (i >= line.length) {
          throw new Error(`unterminated quote in ${JSON.stringify(line)}`);
        } else cell += line[i++];
      }
    } else {
      while (i < line.length && line[i] !== ',') cell += line[i++];
    }
    cells.push(cell);
    if (line[i] === ',') i++;
    else if (i >= line.length) return cells;
    else throw new Error(`text after a closing quote in ${JSON.stringify(line)}`);
  }
}

/**
 * The worst reading of a line: a spreadsheet that splits on another
 * separator (`;` in most European Excel set-ups, a tab, a line break) and
 * loses track of the quotes. No piece may then start a formula, once the
 * quotes and spaces before it are skipped.
 */
const formulaPieces = (line: string) =>
  line
    .split(/[,;\t\r\n]/)
    .map((piece) => piece.replace(/^[ "]*/, ''))
    .filter((piece) => FORMULA_START.test(piece));

describe('CSV cells', () => {
  it('quotes every cell, empty ones too, and doubles quotes (RFC 4180)', () => {
    expect(csvCell('plain')).toBe('"plain"');
    expect(csvCell('')).toBe('""');
    expect(csvCell(null)).toBe('""');
    expect(csvCell(undefined)).toBe('""');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvRow(['a', null, 3])).toBe('"a","","3"\r\n');
    expect(csvFile(['H1', 'H2'], [csvRow(['x', 'y'])])).toBe('\uFEFF"H1","H2"\r\n"x","y"\r\n');
  });

  it('defuses a cell that starts a formula with a leading apostrophe (=, +, -, @, tab, carriage return)', () => {
    expect(csvCell('=1+1')).toBe(`"'=1+1"`);
    expect(csvCell('+1 555 0100')).toBe(`"'+1 555 0100"`);
    expect(csvCell('-2')).toBe(`"'-2"`);
    expect(csvCell('@SUM(A1)')).toBe(`"'@SUM(A1)"`);
    expect(csvCell('\tx')).toBe(`"'\tx"`);
    expect(csvCell('\rx')).toBe(`"'\rx"`);
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
    // Behind spaces or a quote too: some readers trim them.
    expect(csvCell('  =1+1')).toBe(`"'  =1+1"`);
    expect(csvCell('"=1+1')).toBe(`"'""=1+1"`);
  });

  it('defuses a formula behind a separator inside a cell, for spreadsheets that split on ; (the issue’s cell)', () => {
    const cell = "Zed;=cmd|' /C calc'!A0;";
    expect(csvCell(cell)).toBe(`"Zed;'=cmd|' /C calc'!A0;"`);
    const line = csvRow([cell, 'a;=1+2', 'b,+1', 'c\t-1', 'd\n@x', 'e; "=1', 'Austin, TX', 'Smith-Jones']);
    expect(formulaPieces(line)).toEqual([]);
    // Read as RFC 4180, each cell is whole, with the apostrophes only before what would start a formula.
    expect(parseRow(line.slice(0, -2))).toEqual(["Zed;'=cmd|' /C calc'!A0;", "a;'=1+2", "b,'+1", "c\t'-1", "d\n'@x", `e; "'=1`, 'Austin, TX', 'Smith-Jones']);
  });

  it('writes Coverly’s own numbers as numbers, negative ones too', () => {
    expect(csvCell(3)).toBe('"3"');
    expect(csvCell(0)).toBe('"0"');
    expect(csvCell(-5.5)).toBe('"-5.5"');
  });

  it('never lets any text start a formula, however a spreadsheet splits the line, and keeps every cell whole (property-based)', () => {
    const risky = fc.constantFrom('=', '+', '-', '@', '\t', '\r', '\n', ',', ';', '"', ' ', "'", 'a', '1');
    const cellText = fc.oneof(
      fc.string({ maxLength: 20 }),
      fc.array(risky, { maxLength: 12 }).map((chars) => chars.join('')),
    );
    fc.assert(
      fc.property(fc.array(cellText, { minLength: 1, maxLength: 5 }), (cells) => {
        const line = csvRow(cells);
        expect(line.endsWith('\r\n')).toBe(true);
        expect(formulaPieces(line)).toEqual([]);
        const read = parseRow(line.slice(0, -2));
        expect(read).toHaveLength(cells.length);
        // Nothing is lost or changed but an apostrophe before what would start a formula (behind spaces or quotes).
        const withoutAddedApostrophes = (text: string) => text.replace(/'(?=[ "]*[=+\-@\t\r])/g, '');
        expect(read.map(withoutAddedApostrophes)).toEqual(cells.map(withoutAddedApostrophes));
      }),
      { numRuns: 500 },
    );
  });
});
