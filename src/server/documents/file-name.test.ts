import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_FILE_NAME, type DocumentType } from '../../shared/domain/documents';
import { safeFileName } from './file-name';

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

describe('safeFileName', () => {
  it('keeps a good name and its extension, and fixes a wrong or missing one by appending', () => {
    expect(safeFileName('March statement.PDF', 'application/pdf')).toBe('March statement.PDF');
    expect(safeFileName('IMG_0042.jpeg', 'image/jpeg')).toBe('IMG_0042.jpeg');
    expect(safeFileName('statement.exe', 'application/pdf')).toBe('statement.exe.pdf');
    expect(safeFileName('lease', DOCX)).toBe('lease.docx');
    expect(safeFileName('rent roll.csv', XLSX)).toBe('rent roll.csv.xlsx');
  });

  it('strips what could mislead or break a download or an unzipped package', () => {
    expect(safeFileName('../../etc/passwd', 'text/csv')).toBe('_.._etc_passwd.csv');
    expect(safeFileName('C:\\Users\\ann\\id.png', 'image/png')).toBe('C__Users_ann_id.png');
    expect(safeFileName('invoice\u202Efdp.exe', 'application/pdf')).toBe('invoicefdp.exe.pdf');
    expect(safeFileName('  .hidden  \t\n  name .pdf', 'application/pdf')).toBe('hidden name .pdf');
    expect(safeFileName('Cafe\u0301 <draft>?.pdf', 'application/pdf')).toBe('Café _draft__.pdf');
    expect(safeFileName('CON.pdf', 'application/pdf')).toBe('_CON.pdf');
    expect(safeFileName('', 'image/heic')).toBe('document.heic');
    expect(safeFileName(`${'é'.repeat(300)}.tiff`, 'image/tiff')).toBe(`${'é'.repeat(MAX_FILE_NAME - 5)}.tiff`);
    expect(safeFileName('😀'.repeat(300), 'image/png')).toBe(`${'😀'.repeat(MAX_FILE_NAME - 4)}.png`);
  });

  it('always gives a short, clean, NFC name with the right extension, and is stable', () => {
    const EXTENSION: Record<DocumentType, RegExp> = {
      'application/pdf': /\.pdf$/,
      'image/jpeg': /\.(jpg|jpeg|jpe|jfif)$/,
      'image/png': /\.png$/,
      'image/heic': /\.(heic|heif)$/,
      'image/tiff': /\.(tif|tiff)$/,
      [DOCX]: /\.docx$/,
      [XLSX]: /\.xlsx$/,
      'text/csv': /\.csv$/,
    };
    const types = Object.keys(EXTENSION) as DocumentType[];
    const names = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 400 }),
      fc.string({ unit: fc.constantFrom('.', ' ', '/', '\\', 'a', 'é', 'e\u0301', '\u202E', '\0', '\u200B', 'pdf', 'CON'), maxLength: 60 }),
    );
    fc.assert(
      fc.property(names, fc.constantFrom(...types), (name, type) => {
        const safe = safeFileName(name, type);
        expect([...safe].length).toBeLessThanOrEqual(MAX_FILE_NAME);
        expect(safe).toBe(safe.normalize('NFC'));
        expect(safe).not.toMatch(/[\p{Cc}\p{Cf}\p{Cs}/\\<>:"|?*]|^[\s.]|\s{2}/u);
        expect(safeFileName(safe, type)).toBe(safe);
        expect(safe.toLowerCase()).toMatch(EXTENSION[type]);
      }),
      { numRuns: 1000 },
    );
  });
});
