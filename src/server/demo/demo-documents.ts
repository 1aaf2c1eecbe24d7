import PDFDocument from 'pdfkit';
import sharp from 'sharp';
import type { DocumentType } from '../../shared/domain/documents';

/*
 * The demo's document files: small, real files of every kind a checklist
 * item is sent as (a PDF with the document's title on it, phone photos of an
 * ID as JPEG, a scanned page as a bilevel TIFF, which gets a converted
 * preview). Made once per kind and stored anew (encrypted under its own key)
 * for every version that carries it. Every page says it is made up.
 */

export interface DemoFile {
  name: string;
  type: DocumentType;
  bytes: Buffer;
}

/** What a version of an item carries: which files, by the item's template key. */
export type DemoFileKind = 'pdf' | 'two-pdfs' | 'id-photos' | 'scan';

export function fileKindOf(key: string | null): DemoFileKind {
  if (key === 'government-id') return 'id-photos';
  if (key === 'bank-statements') return 'two-pdfs';
  if (key === 'articles-of-organization' || key === 'good-standing') return 'scan';
  return 'pdf';
}

/** How many files a version of the item carries. */
export const filesPerVersion = (key: string | null) => (fileKindOf(key) === 'id-photos' || fileKindOf(key) === 'two-pdfs' ? 2 : 1);

function pdf(title: string, lines: string[]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // A fixed creation date, so the same document is the same bytes on every run.
    const doc = new PDFDocument({
      size: 'LETTER',
      margin: 64,
      info: { Title: title, Creator: 'Coverly demo', CreationDate: new Date('2026-01-01T00:00:00Z') },
    });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    doc.font('Helvetica-Bold').fontSize(20).text(title);
    doc.moveDown(0.5).font('Helvetica').fontSize(10).fillColor('#b91c1c').text('SAMPLE — made up for the Coverly demo. Not a real document.');
    doc.moveDown().fillColor('#111827').fontSize(12);
    for (const line of lines) doc.text(line).moveDown(0.4);
    doc.end();
  });
}

/** A phone photo of one side of a made-up ID card: a card on a desk, in shapes only (no real data). */
function idPhoto(side: 'front' | 'back'): Promise<Buffer> {
  const card =
    side === 'front'
      ? `<rect x="40" y="40" width="560" height="352" rx="24" fill="#e0f2fe" stroke="#0369a1" stroke-width="6"/>
         <rect x="72" y="100" width="150" height="190" rx="8" fill="#94a3b8"/><circle cx="147" cy="170" r="40" fill="#cbd5e1"/>
         <rect x="250" y="110" width="300" height="22" fill="#0f172a"/><rect x="250" y="160" width="240" height="16" fill="#475569"/>
         <rect x="250" y="200" width="270" height="16" fill="#475569"/><rect x="250" y="240" width="180" height="16" fill="#475569"/>
         <rect x="72" y="320" width="480" height="18" fill="#b91c1c"/>`
      : `<rect x="40" y="40" width="560" height="352" rx="24" fill="#f1f5f9" stroke="#0369a1" stroke-width="6"/>
         <rect x="72" y="90" width="496" height="70" fill="#0f172a"/>
         ${Array.from({ length: 28 }, (_, i) => `<rect x="${80 + i * 17}" y="220" width="${i % 3 === 0 ? 10 : 5}" height="110" fill="#111827"/>`).join('')}`;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="432"><rect width="640" height="432" fill="#a16207"/>${card}</svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 82 }).toBuffer();
}

/** A scanned letter page at 150 dpi, bilevel (CCITT Group 4) as office scanners write them: a heading and lines of "text". */
function scannedPage(): Promise<Buffer> {
  const [width, height] = [1275, 1650];
  const page = Buffer.alloc(width * height, 255);
  const bar = (top: number, left: number, right: number, thickness: number) => {
    for (let y = top; y < top + thickness; y++) page.fill(0, y * width + left, y * width + right);
  };
  bar(150, 150, 900, 28);
  for (let line = 0, top = 260; top < height - 200; line++, top += 36) bar(top, 150, width - 150 - ((line * 97) % 380), 10);
  return sharp(page, { raw: { width, height, channels: 1 } })
    .toColourspace('b-w')
    .tiff({ compression: 'ccittfax4', bitdepth: 1 })
    .toBuffer();
}

const slug = (label: string) =>
  label
    .toLowerCase()
    .replace(/\(.*?\)/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/**
 * The files of one version of an item (by its template key and label), made
 * on first use and kept for the rest of the seed.
 */
export function demoFileMaker() {
  const made = new Map<string, Promise<DemoFile[]>>();
  const make = async (kind: DemoFileKind, label: string): Promise<DemoFile[]> => {
    switch (kind) {
      case 'id-photos':
        return [
          { name: 'IMG_4127.jpg', type: 'image/jpeg', bytes: await idPhoto('front') },
          { name: 'IMG_4128.jpg', type: 'image/jpeg', bytes: await idPhoto('back') },
        ];
      case 'two-pdfs':
        return Promise.all(
          ['September', 'October'].map(async (month) => ({
            name: `statement-${month.toLowerCase()}.pdf`,
            type: 'application/pdf' as const,
            bytes: await pdf(`${label} — ${month}`, [
              'Account ending 4471 · Business checking',
              `Statement period: ${month} 1 – ${month === 'September' ? 30 : 31}`,
              'Beginning balance  $48,210.77',
              'Deposits and credits  $12,400.00',
              'Withdrawals and debits  $9,872.15',
              'Ending balance  $50,738.62',
            ]),
          })),
        );
      case 'scan':
        return [{ name: `${slug(label)}-scan.tif`, type: 'image/tiff', bytes: await scannedPage() }];
      case 'pdf':
        return [
          {
            name: `${slug(label)}.pdf`,
            type: 'application/pdf',
            bytes: await pdf(label, ['Prepared for: the borrowing entity on this loan', 'Property: as on the loan file', 'Signed and dated on the last page']),
          },
        ];
    }
  };
  return (key: string | null, label: string): Promise<DemoFile[]> => {
    const kind = fileKindOf(key);
    const id = kind === 'id-photos' ? kind : `${kind}:${label}`;
    let files = made.get(id);
    if (!files) made.set(id, (files = make(kind, label)));
    return files;
  };
}
