import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { folderNames, itemFolderName, MAX_FILE_BYTES, packageFileName, safeSegment } from './entry-names';

const file = (raw: string) => safeSegment(raw, { fallback: 'document', maxBytes: MAX_FILE_BYTES });

describe('names in the lender package', () => {
  it('keeps readable names as they are, in one Unicode spelling', () => {
    expect(file('Kontoauszug März.pdf')).toBe('Kontoauszug März.pdf');
    expect(file('Zoe\u0308 front.png')).toBe('Zoë front.png');
    expect(file('Zoe\u0308 front.png')).toBe(file('Zo\u00eb front.png'));
    expect(file('  two   spaces\tand a tab .pdf ')).toBe('two spaces and a tab.pdf');
  });

  it('takes out path separators, controls, characters Windows refuses, and text that disguises a name', () => {
    expect(file('../../etc/passwd')).toBe('_.._etc_passwd');
    expect(file('C:\\Windows\\win.ini')).toBe('C__Windows_win.ini');
    expect(file('a<b>c:d"e|f?g*h.pdf')).toBe('a_b_c_d_e_f_g_h.pdf');
    expect(file('line\nbreak\u0085.pdf')).toBe('line break.pdf');
    expect(file('invoice\u202efdp.exe')).toBe('invoicefdp.exe');
    expect(file('zero\u200bwidth\ufeff.pdf')).toBe('zerowidth.pdf');
    expect(file('.hidden.pdf')).toBe('hidden.pdf');
    expect(file('trailing dots...')).toBe('trailing dots');
    expect(file('..')).toBe('document');
    expect(file(' \u202e ')).toBe('document');
    expect(file('CON.pdf')).toBe('_CON.pdf');
    expect(file('lpt1')).toBe('_lpt1');
    expect(file('console.pdf')).toBe('console.pdf');
  });

  it('shortens a long name to its byte budget by whole characters, keeping the extension', () => {
    const long = `${'ž'.repeat(200)}.pdf`;
    const short = file(long);
    expect(Buffer.byteLength(short)).toBeLessThanOrEqual(MAX_FILE_BYTES);
    expect(short.endsWith('ž.pdf')).toBe(true);
    const emoji = file(`${'😀'.repeat(100)}.jpeg`);
    expect(emoji.endsWith('😀.jpeg')).toBe(true);
    expect(emoji).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
  });

  it('never gives two files of a folder names that differ only by case', () => {
    const name = folderNames();
    expect(['scan.png', 'SCAN.png', 'Scan.png', 'scan (2).png', 'notes', 'NOTES'].map((raw) => name(raw))).toEqual([
      'scan.png',
      'SCAN (2).png',
      'Scan (3).png',
      'scan (2) (2).png',
      'notes',
      'NOTES (2)',
    ]);
  });

  it('numbers the folders from 01 (wider past 99) and names the download after the borrower and the street', () => {
    expect(itemFolderName(3, 12, 'Bank statements, last 2–3 months')).toBe('03 Bank statements, last 2–3 months');
    expect(itemFolderName(7, 120, 'Lease / rent roll')).toBe('007 Lease _ rent roll');
    expect(packageFileName('José Núñez', '1200 Barton Springs Rd')).toBe('José Núñez - 1200 Barton Springs Rd - lender package.zip');
    expect(packageFileName('A/B', '')).toBe('A_B - Property - lender package.zip');
  });

  it('gives any name a safe one: non-empty, NFC, one segment, within its budget, unique in its folder', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary', maxLength: 300 }), { maxLength: 12 }), (raws) => {
        const name = folderNames();
        const given = raws.map((raw) => name(raw));
        for (const safe of given) {
          expect(safe.length).toBeGreaterThan(0);
          expect(safe).toBe(safe.normalize('NFC'));
          // eslint-disable-next-line no-control-regex -- none may be left
          expect(safe).not.toMatch(/[\\/:*?"<>|\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
          expect(safe).not.toMatch(/^[.\s]|[.\s]$/);
          expect(Buffer.byteLength(safe)).toBeLessThanOrEqual(MAX_FILE_BYTES);
        }
        expect(new Set(given.map((safe) => safe.toLocaleLowerCase('en-US'))).size).toBe(given.length);
      }),
    );
  });
});
