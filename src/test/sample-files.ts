import { randomBytes } from 'node:crypto';
import PDFDocument from 'pdfkit';
import { jpegBytes, pngImage } from './fixtures/images';

/**
 * Real documents of the kinds borrowers upload, made here rather than checked
 * in: small ones for the upload and review tests, and larger ones spanning
 * several 64 KiB segments for the proof of encryption at rest (leasePdf,
 * noisePng, leaseJpeg: their bytes are what the proof looks for in storage).
 */

/** The bytes pdfkit writes for a document `draw` fills. */
function pdfOf(options: PDFKit.PDFDocumentOptions, draw: (doc: PDFKit.PDFDocument) => void): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument(options);
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    draw(doc);
    doc.end();
  });
}

/** A real one-page PDF with `text` on it (pdfkit), optionally password-protected. */
export function samplePdf(text = 'Bank statement', options: { password?: string } = {}): Promise<Buffer> {
  return pdfOf({ size: 'LETTER', ...(options.password ? { userPassword: options.password, ownerPassword: `${options.password}-owner` } : {}) }, (doc) =>
    doc.fontSize(14).text(text),
  );
}

/** A real PNG of `width`×`height` RGB pixels, coloured from `seed`: the same bytes every time. */
export function samplePng(width = 16, height = 16, seed = 7): Buffer {
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3);
    for (let x = 0; x < width * 3; x++) row[1 + x] = (x * seed + y * 31) & 0xff;
    rows.push(row);
  }
  return pngImage({ width, height, bitDepth: 8, colourType: 2 }, Buffer.concat(rows));
}

const LEASE_TEXT =
  'RESIDENTIAL LEASE AGREEMENT. This lease is made between Harbor Holdings LLC (Landlord) and the Tenant for the premises at ' +
  '1200 Barton Springs Rd, Austin, TX. Monthly rent: $2,450.00, due on the first day of each month. Security deposit: $2,450.00. ';

/** A PDF of a few pages of lease text, its content streams left uncompressed (so its text stands in its bytes). */
export function leasePdf(pages = 8): Promise<Buffer> {
  return pdfOf({ compress: false, info: { Title: 'Lease agreement' } }, (doc) => {
    for (let page = 0; page < pages; page++) {
      if (page > 0) doc.addPage();
      doc.fontSize(18).text(`Lease agreement, page ${page + 1}`);
      doc.fontSize(10).text(LEASE_TEXT.repeat(12));
    }
  });
}

/** A truecolour PNG of noise, `width` × `height` (about 3 bytes a pixel: noise does not compress). */
export function noisePng(width = 200, height = 150): Buffer {
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) rows.push(Buffer.concat([Buffer.from([0]), randomBytes(width * 3)]));
  return pngImage({ width, height, bitDepth: 8, colourType: 2 }, Buffer.concat(rows));
}

/** A valid JPEG (the 1×1 grey one) carrying comment segments of lease text, to about `size` bytes. */
export function leaseJpeg(size = 150_000): Buffer {
  const jpeg = jpegBytes();
  const app0End = 2 + 2 + 16; // SOI, then APP0's marker and its 16 bytes
  const comments: Buffer[] = [];
  for (let total = jpeg.length; total < size;) {
    const text = Buffer.from(LEASE_TEXT.repeat(Math.ceil(Math.min(60_000, size - total) / LEASE_TEXT.length))).subarray(0, Math.min(60_000, size - total));
    const length = Buffer.alloc(2);
    length.writeUInt16BE(text.length + 2);
    comments.push(Buffer.from([0xff, 0xfe]), length, text); // COM
    total += text.length + 4;
  }
  return Buffer.concat([jpeg.subarray(0, app0End), ...comments, jpeg.subarray(app0End)]);
}
