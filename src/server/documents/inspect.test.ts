import { createHash } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { crc32, deflateRawSync, deflateSync } from 'node:zlib';
import fc from 'fast-check';
import PDFDocument from 'pdfkit';
import { describe, expect, it } from 'vitest';
import { ZipFile } from 'yazl';
import type { DocumentType } from '../../shared/domain/documents';
import { AppError } from '../../shared/errors';
import { deflatedZeros, rawZip, type RawEntry } from '../../test/zip-files';
import { createInspector } from './inspect';

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

// ---- Sample files, built here by the tools that make real ones ----

/** Bytes that look random but are the same on every run (SHA-256 in counter mode), so no test depends on luck. */
function noise(length: number): Buffer {
  const blocks = Array.from({ length: Math.ceil(length / 32) }, (_, i) => createHash('sha256').update(`noise ${i}`).digest());
  return Buffer.concat(blocks).subarray(0, length);
}

function pdf(options: PDFKit.PDFDocumentOptions = {}): Promise<Buffer> {
  const doc = new PDFDocument(options);
  const parts: Buffer[] = [];
  doc.on('data', (part: Buffer) => parts.push(part));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(parts))));
  doc.text('Bank statement, March: balance $12,345.67');
  doc.end();
  return done;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const frame = Buffer.alloc(8 + data.length + 4);
  frame.writeUInt32BE(data.length, 0);
  body.copy(frame, 4);
  frame.writeUInt32BE(crc32(body), 8 + data.length);
  return frame;
}

/** An 8-bit RGB PNG (PNG spec §11.2): signature, IHDR, one zlib IDAT of filter-0 rows, IEND. */
function png(width = 4, height = 4): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const rows = Buffer.alloc(height * (1 + width * 3), 0x80);
  for (let y = 0; y < height; y++) rows[y * (1 + width * 3)] = 0;
  return Buffer.concat([
    Buffer.from('89504e470d0a1a0a', 'hex'),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(rows)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A 16×16 baseline JPEG made by jpeg-js's encoder (quality 75), decoded back by jpeg-js to check it. */
const JPEG = Buffer.from(
  '/9j/4AAQSkZJRgABAQAAAQABAAD/2wCEAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8UHRofHh0aHBwgJC4nICIsIxwcKDcpLDAxNDQ0Hyc5PTgyPC4zNDIBCQkJDAsMGA0NGDIhHCEyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMv/AABEIABAAEAMBEQACEQEDEQH/xAGiAAABBQEBAQEBAQAAAAAAAAAAAQIDBAUGBwgJCgsQAAIBAwMCBAMFBQQEAAABfQECAwAEEQUSITFBBhNRYQcicRQygZGhCCNCscEVUtHwJDNicoIJChYXGBkaJSYnKCkqNDU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6g4SFhoeIiYqSk5SVlpeYmZqio6Slpqeoqaqys7S1tre4ubrCw8TFxsfIycrS09TV1tfY2drh4uPk5ebn6Onq8fLz9PX29/j5+gEAAwEBAQEBAQEBAQAAAAAAAAECAwQFBgcICQoLEQACAQIEBAMEBwUEBAABAncAAQIDEQQFITEGEkFRB2FxEyIygQgUQpGhscEJIzNS8BVictEKFiQ04SXxFxgZGiYnKCkqNTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqCg4SFhoeIiYqSk5SVlpeYmZqio6Slpqeoqaqys7S1tre4ubrCw8TFxsfIycrS09TV1tfY2dri4+Tl5ufo6ery8/T19vf4+fr/2gAMAwEAAhEDEQA/APP7HQunyV9BVxZll+O21OmsNC6fJXmVcWfc5fjttTpbDQ+nyV5lXFn4tl+O21OnsdC6fJXmVcWfc5fjttT/AP/Z',
  'base64',
);

/** A JPEG with a comment segment (T.81 §B.2.4.5) right after SOI. */
const withJpegComment = (text: string) => {
  const body = Buffer.from(text, 'latin1');
  const segment = Buffer.concat([Buffer.from([0xff, 0xfe, (body.length + 2) >> 8, (body.length + 2) & 0xff]), body]);
  return Buffer.concat([JPEG.subarray(0, 2), segment, JPEG.subarray(2)]);
};

/**
 * An 8-bit grayscale, uncompressed TIFF 6.0 file in one strip, its directory
 * before the pixels or (as libtiff writes it) after them.
 */
function tiff({ side = 2, bigEndian = false, directoryLast = false, dng = false } = {}): Buffer {
  const tags: [number, number, number][] = [
    [256, 3, side], // ImageWidth
    [257, 3, side], // ImageLength
    [258, 3, 8], // BitsPerSample
    [259, 3, 1], // Compression: none
    [262, 3, 1], // PhotometricInterpretation: black is zero
    [273, 4, 0], // StripOffsets, set below
    [277, 3, 1], // SamplesPerPixel
    [278, 3, side], // RowsPerStrip
    [279, 4, side * side], // StripByteCounts
    ...(dng ? [[50706, 1, 0x01040000] as [number, number, number]] : []), // DNGVersion
  ];
  const directoryLength = 2 + tags.length * 12 + 4;
  const [directory, pixels] = directoryLast ? [8 + side * side, 8] : [8, 8 + directoryLength];
  const file = Buffer.alloc(8 + directoryLength + side * side);
  const u16 = (value: number, at: number) => (bigEndian ? file.writeUInt16BE(value, at) : file.writeUInt16LE(value, at));
  const u32 = (value: number, at: number) => (bigEndian ? file.writeUInt32BE(value, at) : file.writeUInt32LE(value, at));
  file.write(bigEndian ? 'MM' : 'II', 0, 'latin1');
  u16(42, 2);
  u32(directory, 4);
  u16(tags.length, directory);
  tags.forEach(([tag, kind, value], i) => {
    const at = directory + 2 + i * 12;
    u16(tag, at);
    u16(kind, at + 2);
    u32(1, at + 4);
    if (kind === 3) u16(value, at + 8);
    else u32(tag === 273 ? pixels : value, at + 8);
  });
  for (let i = 0; i < side * side; i++) file[pixels + i] = i % 256;
  return file;
}

/** A 64×64 HEIC photo encoded by libheif's heif-enc (brands heic, mif1, miaf), which heif-info reads back. */
const HEIC = Buffer.from(
  'AAAAHGZ0eXBoZWljAAAAAG1pZjFoZWljbWlhZgAAAUJtZXRhAAAAAAAAACFoZGxyAAAAAAAAAABwaWN0AAAAAAAAAAAAAAAAAAAAAA5waXRtAAAAAAABAAAAImlsb2MAAAAAREAAAQABAAAAAAFmAAEAAAAAAAAARgAAACNpaW5mAAAAAAABAAAAFWluZmUCAAAAAAEAAGh2YzEAAAAAwmlwcnAAAACkaXBjbwAAAHhodmNDAQNwAAAAAAAAAAAAHvAA/P34+AAADwMgAAEAGEABDAH//wNwAAADAJAAAAMAAAMAHroCQCEAAQArQgEBA3AAAAMAkAAAAwAAAwAeoCCBBZbqSSmubgQEDAgAAAMACAAAAwAIQCIAAQAHRAHBcrAiQAAAABRpc3BlAAAAAAAAAEAAAABAAAAAEHBpeGkAAAAAAwgICAAAABZpcG1hAAAAAAAAAAEAAQOBAoMAAABObWRhdAAAAEIoAa8ZgPeAQ/3g2xpRNnUns/RThI114IiJ+3WKHzQ/ZAN3JpYoKgyW4vIhYqXvMW5y8h6ougC+kBGzbd9fC7DclDA=',
  'base64',
);

function box(type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + body.length, 0);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, body]);
}

/** An ISO BMFF file as phones write HEIC: ftyp (major brand, minor version, compatible brands), meta with a `pict` handler, mdat. */
function heic(major = 'heic', compatible = ['mif1', 'heic']): Buffer {
  const ftyp = box('ftyp', Buffer.from(`${major}\0\0\0\0${compatible.join('')}`, 'latin1'));
  const hdlr = box('hdlr', Buffer.concat([Buffer.alloc(8), Buffer.from('pict', 'latin1'), Buffer.alloc(13)]));
  const meta = box('meta', Buffer.concat([Buffer.alloc(4), hdlr]));
  return Buffer.concat([ftyp, meta, box('mdat', noise(300))]);
}

type ZipPart = [name: string, data: Buffer | string, options?: { compress?: boolean; forceZip64Format?: boolean; stream?: boolean }];

/** A ZIP by yazl; a part with `stream` is added as a stream, so its sizes come after it in a data descriptor (flag bit 3). */
function zip(parts: ZipPart[], endOptions: { forceZip64Format?: boolean } = {}): Promise<Buffer> {
  const file = new ZipFile();
  for (const [name, data, { stream, ...options } = {}] of parts) {
    if (stream) file.addReadStream(new PassThrough().end(Buffer.from(data)), name, { mtime: new Date(2026, 0, 1), ...options });
    else file.addBuffer(Buffer.from(data), name, { mtime: new Date(2026, 0, 1), ...options });
  }
  file.end({ comment: '', forceZip64Format: endOptions.forceZip64Format ?? false });
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    file.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk));
    file.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    file.outputStream.on('error', reject);
  });
}

const contentTypes = (main: string) =>
  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
  `<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>` +
  `<Override PartName="${main}" ContentType="${main.startsWith('/word') ? 'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml' : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml'}"/></Types>`;
const rels = (target: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="${target}"/></Relationships>`;

/** The parts of a minimal Word document, [Content_Types].xml first as Word writes it. */
const docxParts = (): ZipPart[] => [
  ['[Content_Types].xml', contentTypes('/word/document.xml')],
  ['_rels/.rels', rels('word/document.xml')],
  [
    'word/document.xml',
    '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>Lease</w:t></w:r></w:p></w:body></w:document>',
  ],
];
const xlsxParts = (): ZipPart[] => [
  ['[Content_Types].xml', contentTypes('/xl/workbook.xml')],
  ['_rels/.rels', rels('xl/workbook.xml')],
  [
    'xl/workbook.xml',
    '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheets><sheet name="Rent roll" sheetId="1"/></sheets></workbook>',
  ],
  ['xl/worksheets/sheet1.xml', '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData/></worksheet>'],
];

const rawDocxParts = (): RawEntry[] => docxParts().map(([name, data]) => ({ name, data }));

// ---- Feeding the inspector ----

type Outcome = { type: DocumentType } | { code: string; status: number; message: string };

/** Feeds `file` in pieces of the given sizes (cycled), or whole. */
async function inspect(file: Buffer, sizes: number[] = [file.length || 1], options: { size?: number } = {}): Promise<Outcome> {
  const inspector = createInspector(options);
  // As the upload does: the next chunk waits while the inspector is unpacking.
  for (let at = 0, i = 0; at < file.length; at += sizes[i++ % sizes.length]!) await inspector.update(file.subarray(at, at + sizes[i % sizes.length]!));
  try {
    return { type: await inspector.finish() };
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return { code: error.code, status: error.status, message: error.message };
  }
}

const refused = (code: string, message: RegExp | string) => expect.objectContaining({ code, message: expect.stringMatching(message) });

describe('createInspector: allowed types, from their content', () => {
  it('accepts a PDF, a PNG, a JPEG, a TIFF and a HEIC photo', async () => {
    expect(await inspect(await pdf())).toEqual({ type: 'application/pdf' });
    expect(await inspect(png())).toEqual({ type: 'image/png' });
    expect(await inspect(JPEG)).toEqual({ type: 'image/jpeg' });
    expect(await inspect(tiff())).toEqual({ type: 'image/tiff' });
    expect(await inspect(tiff({ bigEndian: true }))).toEqual({ type: 'image/tiff' });
    expect(await inspect(HEIC)).toEqual({ type: 'image/heic' });
    expect(await inspect(heic())).toEqual({ type: 'image/heic' });
    // Samsung phones write the mif1 brand first and heic among the compatible ones.
    expect(await inspect(heic('mif1', ['mif1', 'heic', 'miaf']))).toEqual({ type: 'image/heic' });
  });

  it('accepts a TIFF whose directory comes after its image data, beyond what file-type reads of the head', async () => {
    const late = tiff({ side: 400, directoryLast: true });
    expect(late.readUInt32LE(4)).toBeGreaterThan(64 * 1024);
    expect(await inspect(late)).toEqual({ type: 'image/tiff' });
    expect(await inspect(tiff({ side: 400, directoryLast: true, bigEndian: true }))).toEqual({ type: 'image/tiff' });
    // Camera RAW files are TIFFs too; file-type tells them by their tags wherever the directory is.
    expect(await inspect(tiff({ side: 400, directoryLast: true, dng: true }))).toEqual(refused('unsupported_file_type', /^This file is a camera RAW photo;/));
    expect(await inspect(late.subarray(0, late.length - 100))).toEqual(refused('unsupported_file_type', /isn't recognised/));
  });

  it('accepts DOCX and XLSX, also when [Content_Types].xml comes after a large part, and in ZIP64 form', async () => {
    expect(await inspect(await zip(docxParts()))).toEqual({ type: DOCX });
    expect(await inspect(await zip(xlsxParts()))).toEqual({ type: XLSX });
    // openpyxl and others write [Content_Types].xml last; here it is beyond what file-type reads.
    const photo: ZipPart = ['word/media/image1.png', noise(200_000), { compress: false }];
    const [types, ...rest] = docxParts();
    expect(await inspect(await zip([photo, ...rest, types!]))).toEqual({ type: DOCX });
    const zip64 = docxParts().map(([name, data]): ZipPart => [name, data, { forceZip64Format: true }]);
    expect(await inspect(await zip(zip64, { forceZip64Format: true }))).toEqual({ type: DOCX });
  });

  it('accepts CSV: quoted fields with commas, doubled quotes and line breaks, CRLF or LF, a BOM, UTF-8, blank lines', async () => {
    const statement =
      '\uFEFFDate,Description,Amount\r\n2026-03-01,"Rent, unit 2",1850.00\r\n2026-03-02,"Says ""hi""\nover two lines",-12.5\r\n\r\n2026-03-03,Café ☕ 東京,7\r\n';
    expect(await inspect(Buffer.from(statement))).toEqual({ type: 'text/csv' });
    expect(await inspect(Buffer.from('a,b\n1,2'))).toEqual({ type: 'text/csv' });
    expect(await inspect(Buffer.from('"a","b"\r\n"",""'))).toEqual({ type: 'text/csv' });
    // file-type takes a leading "BM" for a bitmap and "MZ" for a program; the whole file says otherwise.
    expect(await inspect(Buffer.from('BMO account,Balance\n1234,56.78\n'))).toEqual({ type: 'text/csv' });
    expect(await inspect(Buffer.from('MZ code,Rent\n1,2\n'))).toEqual({ type: 'text/csv' });
  });
});

describe('createInspector: refusals, each a 4xx that says why', () => {
  it('refuses an empty file', async () => {
    expect(await inspect(Buffer.alloc(0))).toEqual({ code: 'empty_file', status: 422, message: 'This file is empty' });
  });

  it('refuses other types by what they are, whatever the name would say', async () => {
    const plainZip = await zip([['notes.txt', 'hello']]);
    expect(await inspect(plainZip)).toEqual({
      code: 'unsupported_file_type',
      status: 415,
      message: 'This file is a ZIP archive; upload PDF, JPEG, PNG, HEIC, TIFF, DOCX, XLSX or CSV files',
    });
    expect(await inspect(Buffer.concat([Buffer.from('MZ'), noise(500)]))).toEqual(refused('unsupported_file_type', /^This file is a Windows program;/));
    expect(await inspect(Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1'))).toEqual(refused('unsupported_file_type', /^This file is a GIF image;/));
    expect(await inspect(noise(4096))).toEqual(refused('unsupported_file_type', /^This file's type isn't recognised;/));
    expect(await inspect(heic('avif', ['mif1', 'avif']))).toEqual(refused('unsupported_file_type', /AVIF/));
    expect(await inspect(heic('mif1', ['mif1', 'avif']))).toEqual(refused('unsupported_file_type', /HEIF image that is not a HEIC photo/));
    expect(await inspect(heic('msf1', ['msf1', 'heic']))).toEqual(refused('unsupported_file_type', /HEIF image sequence/));
  });

  it('refuses a macro-enabled document and a ZIP that only pretends to be one', async () => {
    const parts = docxParts();
    const docm = 'application/vnd.ms-word.document.macroEnabled.main+xml';
    parts[0] = ['[Content_Types].xml', contentTypes('/word/document.xml').replace(/application\/[^"]*document\.main\+xml/, docm)];
    parts.push(['word/vbaProject.bin', noise(100)]);
    expect(await inspect(await zip(parts))).toEqual(refused('unsupported_file_type', /macro-enabled Word document/));
    const [types, ...rest] = docxParts();
    const lateTypes = await zip([['word/media/big.bin', noise(100_000), { compress: false }], ...rest, ['word/vbaProject.bin', 'x'], types!]);
    expect(await inspect(lateTypes)).toEqual(refused('unsupported_file_type', /macro-enabled Word document/));
    // Word's folder without the package's content types is just a ZIP.
    expect(await inspect(await zip(rest))).toEqual(refused('unsupported_file_type', /ZIP archive/));
  });

  it('refuses a password-protected PDF (pdfkit with user and owner passwords), and not a PDF that only mentions /EncryptMetadata', async () => {
    const locked = await pdf({ userPassword: 'borrower', ownerPassword: 'owner' });
    expect(locked.includes('/Encrypt')).toBe(true);
    expect(await inspect(locked)).toEqual({
      code: 'password_protected_pdf',
      status: 422,
      message: 'This PDF is password-protected or locked against changes; remove the password (or print it to a new PDF) and upload it again',
    });
    // Locked by an owner password only: it opens without one, but is encrypted all the same.
    expect(await inspect(await pdf({ ownerPassword: 'owner', permissions: { printing: 'highResolution' } }))).toEqual(
      refused('password_protected_pdf', /locked against changes; .*print it to a new PDF/),
    );
    const plain = await pdf();
    const mentions = Buffer.concat([plain.subarray(0, 9), Buffer.from('%/EncryptMetadata false\n'), plain.subarray(9)]);
    expect(await inspect(mentions)).toEqual({ type: 'application/pdf' });
  });

  it('refuses files cut off mid-upload', async () => {
    const cut = (file: Buffer) => file.subarray(0, Math.floor(file.length * 0.7));
    expect(await inspect(cut(await pdf()))).toEqual({
      code: 'damaged_file',
      status: 422,
      message: 'This PDF is cut off (it has no end); upload the whole file again',
    });
    expect(await inspect(cut(png()))).toEqual(refused('damaged_file', /^This PNG image is cut off/));
    expect(await inspect(cut(JPEG))).toEqual(refused('damaged_file', /^This JPEG image is cut off/));
    expect(await inspect(cut(HEIC))).toEqual(refused('damaged_file', /^This HEIC photo is cut off/));
    expect(await inspect(Buffer.concat([HEIC, Buffer.alloc(100)]))).toEqual(refused('damaged_file', /^This HEIC photo is cut off or damaged/));
    expect(await inspect(cut(await zip(docxParts())))).toEqual(refused('damaged_file', /^This Word document is cut off or damaged/));
    expect(await inspect(cut(await zip(xlsxParts())))).toEqual(refused('damaged_file', /^This Excel workbook is cut off or damaged/));
    expect(await inspect(Buffer.from('a,b\n"1,2'))).toEqual(refused('unsupported_file_type', /a quoted field is never closed/));
    expect(await inspect(Buffer.from('a,é').subarray(0, 3))).toEqual(refused('unsupported_file_type', /isn't recognised/));
  });

  it('refuses polyglots: another file after the end, a ZIP end record at the end, a PDF header up front', async () => {
    const archive = await zip([['payload.html', '<script>alert(1)</script>']]);
    expect(await inspect(Buffer.concat([await pdf(), archive]))).toEqual(refused('unsafe_file', /^This PDF has other data after its end/));
    expect(await inspect(Buffer.concat([await pdf(), Buffer.from('<html><script>alert(1)</script>')]))).toEqual(
      refused('unsafe_file', /^This PDF has other data/),
    );
    expect(await inspect(Buffer.concat([png(), archive]))).toEqual(refused('unsafe_file', /^This PNG image has other data after its end/));
    expect(await inspect(Buffer.concat([JPEG, Buffer.from('<html><script>alert(1)</script>')]))).toEqual(
      refused('unsafe_file', /^This JPEG image has other data/),
    );
    expect(await inspect(Buffer.concat([tiff(), archive]))).toEqual(refused('unsafe_file', /^This TIFF image also holds a ZIP archive/));
    expect(await inspect(withJpegComment('%PDF-1.7 1 0 obj'))).toEqual(refused('unsafe_file', /^This JPEG image also holds a PDF/));
    expect(await inspect(Buffer.from('<html><body>a,b</body></html>\n1,2'))).toEqual(refused('unsupported_file_type', /HTML or XML text/));
  });

  it('keeps what phones and tools legitimately put after an image or a PDF', async () => {
    expect(await inspect(Buffer.concat([await pdf(), Buffer.from('\r\n\0\0  \n')]))).toEqual({ type: 'application/pdf' });
    expect(await inspect(Buffer.concat([JPEG, Buffer.alloc(64)]))).toEqual({ type: 'image/jpeg' });
    // An Ultra HDR gain map (a second JPEG), a motion photo's MP4, a Samsung trailer; an EXIF thumbnail's own end marker inside.
    expect(await inspect(Buffer.concat([JPEG, JPEG]))).toEqual({ type: 'image/jpeg' });
    expect(await inspect(Buffer.concat([JPEG, box('ftyp', Buffer.from('mp42\0\0\0\0isommp42')), box('mdat', noise(2000))]))).toEqual({
      type: 'image/jpeg',
    });
    expect(await inspect(Buffer.concat([JPEG, Buffer.from('\0\0\x01\x0aSEFH'), noise(300), Buffer.from('\x2c\x01\0\0SEFT', 'latin1')]))).toEqual({
      type: 'image/jpeg',
    });
    expect(await inspect(withJpegComment(`Thumbnail \xff\xd9 inside`))).toEqual({ type: 'image/jpeg' });
  });

  it('refuses a zip bomb: a real one (50 MiB of zeros in 50 KB) and one whose directory claims 4 GiB', async () => {
    const real = await zip([...docxParts(), ['word/media/zeros.bin', Buffer.alloc(50 * 2 ** 20)]]);
    expect(real.length).toBeLessThan(100_000);
    expect(await inspect(real)).toEqual(
      refused('unsafe_file', /^This Word document claims to unpack to 50 MB, far more than a real one; it may be a zip bomb/),
    );
    // 42.zip style: the central directory's sizes are what a reader trusts before inflating.
    const claimed = await zip(docxParts(), { forceZip64Format: false });
    const header = claimed.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    claimed.writeUInt32LE(0xfffffffe, header + 24);
    expect(await inspect(claimed)).toEqual(refused('unsafe_file', /zip bomb/));
    // Where a ZIP is not allowed at all, the bomb is refused as a ZIP.
    expect(await inspect(await zip([['zeros.bin', Buffer.alloc(50 * 2 ** 20)]]))).toEqual(refused('unsupported_file_type', /ZIP archive/));
  });

  it('refuses a DOCX whose central directory is broken, or too large to check', async () => {
    const broken = await zip(docxParts());
    broken.writeUInt32LE(0x02014b51, broken.lastIndexOf(Buffer.from('504b0102', 'hex')));
    expect(await inspect(broken)).toEqual(refused('damaged_file', /^This Word document is cut off or damaged/));
    const appended = Buffer.concat([await zip(docxParts()), Buffer.from('<html>')]);
    expect(await inspect(appended)).toEqual(refused('damaged_file', /^This Word document is cut off or damaged/));
    // Twenty parts whose names are 60,000 characters long: a central directory of 1.2 MB, past the megabyte kept.
    const many = docxParts();
    for (let i = 0; i < 20; i++) many.push([`word/${String(i).padStart(60_000, 'x')}.xml`, '<x/>', { compress: false }]);
    expect(await inspect(await zip(many))).toEqual(refused('unsafe_file', /^This Word document has too many parts to check/));
  });

  it('refuses text that is not CSV, saying why', async () => {
    const cases: [string, RegExp][] = [
      ['Dear lender,\nplease find attached\n', /row 2 has 1 columns where the first row has 2/],
      ['just one column\nand another\n', /its first row has only one column/],
      ['a,b\n1,2,3\n', /row 2 has 3 columns where the first row has 2/],
      ['a,b\n1,x"y"\n', /row 2 has a quote inside a field/],
      ['a,b\n"1"x,2\n', /row 2 has text after a closing quote/],
      ['\n\n\r\n', /it has no rows/],
    ];
    for (const [text, why] of cases) expect(await inspect(Buffer.from(text))).toEqual(refused('unsupported_file_type', why));
    expect(await inspect(Buffer.from('a,b\n1,\0\n', 'latin1'))).toEqual(refused('unsupported_file_type', /isn't recognised/));
    expect(await inspect(Buffer.from('a,b\n1,\xff\n', 'latin1'))).toEqual(refused('unsupported_file_type', /isn't recognised/));
  });
});

describe('createInspector: a DOCX or XLSX is unpacked for real, whatever its headers say (issue 22)', () => {
  const bomb = deflatedZeros(64 * 2 ** 20);
  const tenBombs = (lie: Partial<RawEntry>): RawEntry[] => [
    ...rawDocxParts(),
    ...Array.from({ length: 10 }, (_, i): RawEntry => ({ name: `word/media/image${i}.png`, deflated: bomb, ...lie })),
  ];

  it('refuses ten 64 MiB deflated parts whose headers say 100 bytes each, and stops unpacking at the limit', async () => {
    const lies: Partial<RawEntry>[] = [
      { claim: 100 }, // the directory and the local headers
      { claim: 100, localClaim: 64 * 2 ** 20 }, // the directory alone
      { claim: 100, descriptor: true }, // sizes after the data, and the directory
    ];
    for (const lie of lies) {
      const file = rawZip(tenBombs(lie));
      expect(file.length).toBeLessThan(1_000_000);
      const started = performance.now();
      // Known size (an upload's announced one): unpacking stops at 100 × 640 KB.
      expect(await inspect(file, [64 * 1024], { size: file.length }), JSON.stringify(lie)).toEqual({
        code: 'unsafe_file',
        status: 422,
        message: 'This Word document unpacks to more than 62 MB (Coverly stopped unpacking it there), far more than a real one of 640 KB; it may be a zip bomb',
      });
      expect(performance.now() - started).toBeLessThan(5_000);
      // Size unknown until the end (unpacking stops at 1 GiB then): a lie or the size, whichever shows first.
      expect(await inspect(file, [1 << 20]), 'size unknown').toEqual(refused('unsafe_file', /it may be a zip bomb/));
    }
  });

  it('refuses a directory that lies about a part below the limit, points two names at one part, or hides one', async () => {
    const zeros: RawEntry = { name: 'word/media/zeros.bin', deflated: deflatedZeros(10 * 2 ** 20) };
    expect(await inspect(rawZip([...rawDocxParts(), { ...zeros, claim: 100, localClaim: 10 * 2 ** 20 }]))).toEqual({
      code: 'unsafe_file',
      status: 422,
      message:
        "This Word document's table of contents does not match its parts (it says word/media/zeros.bin unpacks to 100 bytes, but it unpacks to 10485760); it may be a zip bomb. Save it again and upload that",
    });
    expect(await inspect(rawZip([...rawDocxParts(), { ...zeros, claim: 100 }]))).toEqual(
      refused(
        'unsafe_file',
        /^This Word document's parts are not what their headers say \(its header says word\/media\/zeros\.bin unpacks to 100 bytes, but it unpacks to 10485760\)/,
      ),
    );
    expect(await inspect(rawZip([...rawDocxParts(), { ...zeros, claim: 100, descriptor: true }]))).toEqual(
      refused(
        'unsafe_file',
        /^This Word document's parts are not what their headers say \(word\/media\/zeros\.bin gives sizes after it that are not its own\)/,
      ),
    );
    // Overlapping entries (a "better zip bomb"): the directory names one part twice under two names.
    const overlap = rawZip([...rawDocxParts(), { ...zeros, deflated: deflatedZeros(2 ** 20) }, { name: 'word/media/other.bin', data: 'x' }], (at) =>
      at.map((entry, i) => (i === at.length - 1 ? { entry: at[i - 1]!.entry, offset: at[i - 1]!.offset } : entry)),
    );
    expect(await inspect(overlap)).toEqual(
      refused('unsafe_file', /table of contents does not match its parts \(word\/media\/zeros\.bin points where no part starts, or where another points\)/),
    );
    const hidden = rawZip([...rawDocxParts(), { name: 'word/media/hidden.bin', data: 'x' }], (at) => at.slice(0, -1));
    expect(await inspect(hidden)).toEqual(refused('unsafe_file', /table of contents does not match its parts \(it lists 3 parts where the file holds 4\)/));
  });

  it('accepts parts deflated or stored, with their sizes before or after them (data descriptors, as streaming writers make)', async () => {
    expect(await inspect(rawZip(rawDocxParts()))).toEqual({ type: DOCX });
    expect(await inspect(rawZip(rawDocxParts().map((entry) => ({ ...entry, descriptor: true }))))).toEqual({ type: DOCX });
    expect(await inspect(rawZip(rawDocxParts().map((entry) => ({ ...entry, stored: true }))))).toEqual({ type: DOCX });
    expect(await inspect(await zip(docxParts().map(([name, data]): ZipPart => [name, data, { stream: true }])))).toEqual({ type: DOCX });
    // A large part of 10 MiB of zeros is fine within the limit when every header says so.
    expect(await inspect(rawZip([...rawDocxParts(), { name: 'word/media/zeros.bin', deflated: deflatedZeros(10 * 2 ** 20), descriptor: true }]))).toEqual({
      type: DOCX,
    });
  });

  it('refuses parts it cannot unpack or walk, saying which', async () => {
    const garbage: RawEntry = { name: 'word/media/x.bin', deflated: { bytes: Buffer.from([0xff, 0xff, 0xff, 0xff]), size: 4, crc: 0 } };
    expect(await inspect(rawZip([...rawDocxParts(), garbage]))).toEqual(
      refused('damaged_file', /^This Word document is damaged \(word\/media\/x\.bin is not valid compressed data\); save it again/),
    );
    const cut = deflateRawSync(noise(5000)).subarray(0, 1000);
    expect(await inspect(rawZip([...rawDocxParts(), { name: 'word/media/cut.bin', deflated: { bytes: cut, size: 5000, crc: 0 } }]))).toEqual(
      refused('damaged_file', /^This Word document is damaged \(word\/media\/cut\.bin is cut off\)/),
    );
    expect(await inspect(rawZip([...rawDocxParts(), { name: 'word/media/raw.bin', data: 'abc', stored: true, descriptor: true }]))).toEqual(
      refused('damaged_file', /word\/media\/raw\.bin is stored uncompressed with its size only after it/),
    );
  });

  it('unpacks a 4 MB workbook quickly, in step with the upload, holding a bounded amount', async () => {
    const rows = Array.from(
      { length: 250_000 },
      (_, i) => `<row r="${i + 1}"><c r="A${i + 1}"><v>${(i * 7919) % 100_003}</v></c><c r="B${i + 1}" t="s"><v>${i % 97}</v></c></row>`,
    );
    const sheet = `<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${rows.join('')}</sheetData></worksheet>`;
    const parts = xlsxParts().map(([name, data]): ZipPart => (name === 'xl/worksheets/sheet1.xml' ? [name, sheet] : [name, data]));
    const workbook = await zip(parts);
    expect(workbook.length).toBeGreaterThan(2_000_000);
    const inspector = createInspector({ size: workbook.length });
    const started = performance.now();
    let largest = 0;
    for (let at = 0; at < workbook.length; at += 64 * 1024) {
      await inspector.update(workbook.subarray(at, at + 64 * 1024));
      largest = Math.max(largest, inspector.retainedBytes);
    }
    expect(await inspector.finish()).toBe(XLSX);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(largest).toBeLessThan(1.5 * 2 ** 20);
  });
});

describe('createInspector: streaming', () => {
  it('gives the same answer whatever the chunks (one, single bytes, random sizes)', async () => {
    const locked = await pdf({ userPassword: 'x' });
    const samples = [
      await pdf(),
      locked,
      await pdf({ ownerPassword: 'owner' }),
      Buffer.concat([await pdf(), Buffer.from('<html>')]),
      png(),
      JPEG,
      Buffer.concat([JPEG, Buffer.from('trailing')]),
      tiff(),
      tiff({ side: 100, directoryLast: true }),
      HEIC,
      heic(),
      HEIC.subarray(0, 100),
      await zip(docxParts()),
      await zip(xlsxParts()),
      await zip(docxParts().map(([name, data]): ZipPart => [name, data, { stream: true }])),
      rawZip(rawDocxParts().map((entry) => ({ ...entry, descriptor: true }))),
      rawZip([...rawDocxParts(), { name: 'word/media/zeros.bin', data: Buffer.alloc(300_000), claim: 100 }]),
      Buffer.from('a,"b\r\nc",é東\r\n1,2,3\r\n'),
      Buffer.from('a,"b\r\nc"\r\n1,"2"""\r\n'),
      Buffer.from('x'),
    ];
    const whole = await Promise.all(samples.map((file) => inspect(file)));
    for (const [i, file] of samples.entries()) expect(await inspect(file, [1]), `sample ${i} byte by byte`).toEqual(whole[i]);
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: samples.length - 1 }),
        fc.array(fc.integer({ min: 1, max: 4096 }), { minLength: 1, maxLength: 20 }),
        async (i, sizes) => {
          expect(await inspect(samples[i]!, sizes)).toEqual(whole[i]);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('keeps its memory bounded over a 20 MB file: the head, the tail, a few bytes of state', async () => {
    const random = noise(64 * 1024);
    const cases: [first: Buffer, body: Buffer, last: Buffer, answer: Outcome, bound: number][] = [
      [Buffer.from('%PDF-1.7\n'), random, Buffer.from('\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n'), { type: 'application/pdf' }, 200 * 1024],
      [Buffer.from('a,b\n'), Buffer.from('1,"2"\r\n'.repeat(8 * 1024)), Buffer.from('1,2\n'), { type: 'text/csv' }, 200 * 1024],
      // Entropy-coded data has no FF byte unless stuffed; the scan skips it in bulk.
      [
        JPEG.subarray(0, JPEG.length - 2),
        Buffer.from(random.map((byte) => (byte === 0xff ? 0 : byte))),
        Buffer.from([0xff, 0xd9]),
        { type: 'image/jpeg' },
        200 * 1024,
      ],
      // A DOCX keeps its last megabyte, where the central directory is; this one never gets one.
      [Buffer.from('PK\x03\x04'), random, Buffer.alloc(0), refused('unsupported_file_type', /ZIP archive/), 1.2 * 2 ** 20],
    ];
    for (const [first, body, last, answer, bound] of cases) {
      const inspector = createInspector();
      inspector.update(first);
      let largest = 0;
      for (let sent = 0; sent < 20e6; sent += body.length) {
        inspector.update(body);
        largest = Math.max(largest, inspector.retainedBytes);
      }
      inspector.update(last);
      const outcome = await inspector.finish().then(
        (type): Outcome => ({ type }),
        (error: AppError): Outcome => ({ code: error.code, status: error.status, message: error.message }),
      );
      expect(outcome).toEqual(answer);
      expect(largest).toBeLessThan(bound);
    }
  });
});
