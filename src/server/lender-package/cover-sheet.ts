import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Font } from 'fontkit';
import { ITEM_STATUS_LABELS, type ItemStatus } from '../../shared/domain/checklist-status';
import { DSCR_BAND_LABELS, type DscrThresholds } from '../../shared/domain/dscr';
import type { LoanDscrAnalysis } from '../../shared/domain/loan-dscr';
import { formatPropertyAddress, LOAN_PURPOSE_LABELS, PREPAYMENT_LABELS, PROPERTY_TYPE_LABELS } from '../../shared/domain/loan-fields';
import { STAGE_LABELS, type LoanStage } from '../../shared/domain/loan-stages';
import { formatCents, formatPercent, formatRatio } from '../../shared/money';
import type { LoanInput } from '../../shared/schemas/loans';

/** What the cover sheet lists: the loan, its DSCR figures, and what the package holds and leaves out. */
export interface CoverSheet {
  teamName: string;
  preparedBy: string;
  generatedAt: Date;
  loan: LoanInput & { stage: LoanStage };
  /** The loan page's analysis (analyseLoan), against the team's thresholds. */
  dscr: LoanDscrAnalysis;
  thresholds: DscrThresholds;
  documents: CoverDocument[];
  /** Waived and not-applicable items, with their reasons. */
  settled: { label: string; status: 'waived' | 'not_applicable'; confirmed: boolean; reason: string | null }[];
  /** Items with no approved version yet. */
  outstanding: { label: string; status: ItemStatus }[];
}

export interface CoverDocument {
  /** The item's folder in the zip ("03 Bank statements"). */
  folder: string;
  label: string;
  status: ItemStatus;
  versionNumber: number;
  documentDate: string | null;
  files: { name: string; size: number; sha256: string }[];
}

// DejaVu covers Latin, Greek and Cyrillic with their accents ("José Núñez", "Zoë", "Łódź"). Each font is read and
// parsed once (fontkit) and the parsed font handed to every PDF, which subsets it: parsing the tables is most of
// the work of a small document, and the package's first byte waits for its cover sheet. pdfkit itself is loaded
// with the first cover sheet, not with the server: importing it takes longer than starting the rest of the app.
const require = createRequire(import.meta.url);
let typesetting: Promise<{ PDFDocument: typeof import('pdfkit'); fonts: { regular: Font; bold: Font; mono: Font } }> | undefined;
function loadTypesetting() {
  typesetting ??= Promise.all([import('pdfkit'), import('fontkit')]).then(([pdfkit, { create }]) => {
    const parse = (file: string) => create(readFileSync(require.resolve(`dejavu-fonts-ttf/ttf/${file}`)));
    return {
      PDFDocument: pdfkit.default,
      fonts: { regular: parse('DejaVuSans.ttf'), bold: parse('DejaVuSans-Bold.ttf'), mono: parse('DejaVuSansMono.ttf') },
    };
  });
  // A failed load is tried again by the next cover sheet.
  typesetting.catch(() => (typesetting = undefined));
  return typesetting;
}

const INK = '#0f172a';
const MUTED = '#475569';
const RULE = '#cbd5e1';
const NAVY = '#1e2a4a';
const MARGIN = 48;

const dateFormat = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', year: 'numeric', month: 'long', day: 'numeric' });
const shortDateFormat = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', year: 'numeric', month: 'short', day: 'numeric' });
const timeFormat = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

/** "2026-10-31" → "October 31, 2026". */
export const formatDay = (day: string) => dateFormat.format(new Date(`${day}T00:00:00Z`));

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GB`;
}

const years = (n: number) => `${n} year${n === 1 ? '' : 's'}`;

/** The loan's summary, as label and value, in the order a lender reads a file. */
function summaryRows({ loan, dscr }: CoverSheet): [string, string][] {
  const rows: [string, string][] = [['Borrower', loan.borrowerName]];
  if (loan.entityName) rows.push(['Borrowing entity', loan.entityName]);
  rows.push(['Property', formatPropertyAddress(loan)]);
  rows.push(['Property type', `${PROPERTY_TYPE_LABELS[loan.propertyType]}${loan.unitCount ? `, ${loan.unitCount} units` : ''}`]);
  rows.push(['Purpose', LOAN_PURPOSE_LABELS[loan.purpose]]);
  rows.push(['Loan amount', formatCents(loan.loanAmountCents)]);
  rows.push([loan.purpose === 'purchase' ? 'Purchase price' : 'Value', formatCents(loan.valueCents)]);
  if (dscr.loanToValuePercent !== null) rows.push(['LTV', `${dscr.loanToValuePercent.toFixed(2)} %`]);
  rows.push(['Note rate', formatPercent(loan.noteRatePercent)]);
  const schedule = loan.interestOnly
    ? `interest-only${loan.interestOnlyMonths ? ` for ${loan.interestOnlyMonths} months` : ''}, ${years(loan.amortizationYears)} amortization`
    : `${years(loan.amortizationYears)} amortization`;
  rows.push(['Term', `${years(loan.termYears)}, ${schedule}`]);
  if (loan.prepaymentKind !== 'none') {
    rows.push(['Prepayment', `${PREPAYMENT_LABELS[loan.prepaymentKind]}${loan.prepaymentYears ? `, ${years(loan.prepaymentYears)}` : ''}`]);
  }
  if (loan.lenderName) rows.push(['Lender', loan.lenderName]);
  if (loan.lenderLoanNumber) rows.push(['Lender loan number', loan.lenderLoanNumber]);
  rows.push(['Stage', STAGE_LABELS[loan.stage]]);
  rows.push(['Target closing', loan.targetClosingDate ? formatDay(loan.targetClosingDate) : 'Not set']);
  return rows;
}

/** The DSCR figures as the loan page shows them (DscrFigures): PITIA's lines, PITIA, the rent, the ratio and its band. */
function dscrRows({ dscr, thresholds }: CoverSheet): [string, string][] {
  const known = dscr.dscr !== null;
  const rows: [string, string][] = [
    ['Qualifying rent a month', known ? formatCents(dscr.qualifyingRentCents) : 'Not yet known'],
    ['Principal and interest', formatCents(dscr.pitiaLines.principalAndInterestCents)],
    ['Taxes a month', formatCents(dscr.pitiaLines.taxesCents)],
    ['Insurance a month', formatCents(dscr.pitiaLines.insuranceCents)],
  ];
  if (dscr.pitiaLines.hoaCents > 0) rows.push(['HOA a month', formatCents(dscr.pitiaLines.hoaCents)]);
  if (dscr.pitiaLines.floodInsuranceCents > 0) rows.push(['Flood insurance a month', formatCents(dscr.pitiaLines.floodInsuranceCents)]);
  rows.push(['PITIA', formatCents(dscr.pitiaCents)]);
  rows.push(['DSCR', dscr.dscr !== null ? `${formatRatio(dscr.dscr)}${dscr.band ? ` (${DSCR_BAND_LABELS[dscr.band]})` : ''}` : 'Not yet known']);
  rows.push(['Bands', `Strong at ${thresholds.strong.toFixed(2)} or more, Eligible at ${thresholds.eligible.toFixed(2)} or more`]);
  return rows;
}

/**
 * The package's cover sheet as a PDF, made in memory (it is a few pages):
 * the team, the loan's summary, its DSCR figures, a table of the documents
 * with each file's SHA-256, the waived and not-applicable items with their
 * reasons, and what is still outstanding. Text is set in DejaVu Sans, so
 * names in any Latin, Greek or Cyrillic script print as typed.
 */
export async function renderCoverSheet(sheet: CoverSheet): Promise<Buffer> {
  const {
    PDFDocument,
    fonts: { regular, bold, mono },
  } = await loadTypesetting();
  const title = `Lender package: ${sheet.loan.borrowerName}, ${sheet.loan.propertyStreet}`;
  const doc = new PDFDocument({
    size: 'LETTER',
    margin: MARGIN,
    bufferPages: true,
    info: { Title: title, Author: sheet.teamName, Creator: 'Coverly', Producer: 'Coverly', CreationDate: sheet.generatedAt },
    lang: 'en-US',
    displayTitle: true,
  } as PDFKit.PDFDocumentOptions);
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  // pdfkit takes a parsed fontkit font where its types say a file (PDFFontFactory.open).
  doc.registerFont('Sans', regular as unknown as Buffer);
  doc.registerFont('Sans-Bold', bold as unknown as Buffer);
  doc.registerFont('Mono', mono as unknown as Buffer);

  const left = MARGIN;
  const width = doc.page.width - 2 * MARGIN;
  const bottom = () => doc.page.height - MARGIN;
  const ensureRoom = (height: number) => {
    if (doc.y + height > bottom()) doc.addPage();
  };
  const rule = (color = RULE) => {
    doc
      .moveTo(left, doc.y)
      .lineTo(left + width, doc.y)
      .lineWidth(0.5)
      .strokeColor(color)
      .stroke();
  };
  const heading = (text: string) => {
    ensureRoom(60);
    doc.moveDown(0.8);
    doc.font('Sans-Bold').fontSize(12).fillColor(NAVY).text(text, left, doc.y, { width });
    doc.moveDown(0.2);
    rule(NAVY);
    doc.moveDown(0.4);
  };
  /** Label and value side by side, the value wrapping in its column. */
  const pairs = (rows: [string, string][]) => {
    const labelWidth = 150;
    for (const [label, value] of rows) {
      doc.font('Sans').fontSize(9.5);
      const height = Math.max(doc.heightOfString(value, { width: width - labelWidth }), doc.heightOfString(label, { width: labelWidth - 8 }));
      ensureRoom(height + 3);
      const y = doc.y;
      doc.fillColor(MUTED).text(label, left, y, { width: labelWidth - 8 });
      doc.fillColor(INK).text(value, left + labelWidth, y, { width: width - labelWidth });
      doc.y = y + height + 3;
    }
  };

  // Heading: the team, what this is, and for whom.
  doc.font('Sans-Bold').fontSize(10).fillColor(MUTED).text(sheet.teamName, left, MARGIN, { width });
  doc.moveDown(0.3);
  doc.font('Sans-Bold').fontSize(20).fillColor(INK).text('Lender package', { width });
  doc
    .font('Sans')
    .fontSize(11)
    .fillColor(INK)
    .text(`${sheet.loan.borrowerName} · ${formatPropertyAddress(sheet.loan)}`, { width });
  doc.moveDown(0.3);
  doc
    .fontSize(8.5)
    .fillColor(MUTED)
    .text(
      `Prepared by ${sheet.preparedBy} on ${dateFormat.format(sheet.generatedAt)} at ${timeFormat.format(sheet.generatedAt)} UTC. ` +
        `Each document below is the latest approved version of its checklist item, in the folder named beside it; ` +
        `its SHA-256 lets anyone check the file is the one approved.`,
      { width },
    );

  heading('Loan summary');
  pairs(summaryRows(sheet));
  heading('DSCR');
  pairs(dscrRows(sheet));

  heading(`Documents (${sheet.documents.length})`);
  if (sheet.documents.length === 0) {
    doc.font('Sans').fontSize(9.5).fillColor(INK).text('No checklist item has an approved document yet.', left, doc.y, { width });
  } else {
    documentTable(doc, sheet.documents, { left, width, bottom });
  }

  heading(`Waived and not applicable (${sheet.settled.length})`);
  if (sheet.settled.length === 0) {
    doc.font('Sans').fontSize(9.5).fillColor(INK).text('None.', left, doc.y, { width });
  } else {
    pairs(
      sheet.settled.map((item) => [
        item.label,
        `${item.status === 'waived' ? 'Waived' : item.confirmed ? 'Not applicable' : 'Not applicable (the borrower says so; not yet confirmed)'}: ${item.reason ?? 'no reason given'}`,
      ]),
    );
  }

  if (sheet.outstanding.length > 0) {
    heading(`Not included: no approved document yet (${sheet.outstanding.length})`);
    pairs(sheet.outstanding.map((item) => [item.label, ITEM_STATUS_LABELS[item.status]]));
  }

  // Page numbers, written into the bottom margin (which pdfkit would otherwise take as a reason for a new page).
  const pages = doc.bufferedPageRange();
  for (let index = 0; index < pages.count; index++) {
    doc.switchToPage(pages.start + index);
    const keep = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc
      .font('Sans')
      .fontSize(7.5)
      .fillColor(MUTED)
      .text(`${sheet.teamName} · ${title} · page ${index + 1} of ${pages.count}`, left, doc.page.height - MARGIN + 16, {
        width,
        align: 'center',
        lineBreak: false,
      });
    doc.page.margins.bottom = keep;
  }
  doc.end();
  return done;
}

/**
 * The documents as a table: folder number, item, version, the document's
 * date, then each file with its size and SHA-256 (in a monospaced font, on
 * one line). A row that does not fit starts a new page, under the header again.
 */
function documentTable(doc: PDFKit.PDFDocument, documents: CoverDocument[], { left, width, bottom }: { left: number; width: number; bottom: () => number }) {
  const columns = [
    { title: 'No.', width: 24 },
    { title: 'Item', width: 124 },
    { title: 'Version', width: 38 },
    { title: 'Dated', width: 66 },
    { title: 'Files and their SHA-256', width: width - 24 - 124 - 38 - 66 },
  ];
  const xs = columns.map((_, index) => left + columns.slice(0, index).reduce((sum, column) => sum + column.width, 0));
  const pad = 4;
  const header = () => {
    const y = doc.y;
    doc.font('Sans-Bold').fontSize(8).fillColor(MUTED);
    columns.forEach((column, index) => doc.text(column.title, xs[index]!, y, { width: column.width - pad, lineBreak: false }));
    doc.y = y + 12;
    doc
      .moveTo(left, doc.y)
      .lineTo(left + width, doc.y)
      .lineWidth(0.5)
      .strokeColor(RULE)
      .stroke();
    doc.y += 4;
  };
  const filesWidth = columns[4]!.width - pad;
  const fileBlock = (file: CoverDocument['files'][number]) => {
    doc.font('Sans').fontSize(8.5);
    return doc.heightOfString(`${file.name} (${formatSize(file.size)})`, { width: filesWidth }) + 10;
  };

  header();
  for (const entry of documents) {
    const number = entry.folder.split(' ')[0]!;
    doc.font('Sans').fontSize(9);
    const itemText = entry.status === 'approved' ? entry.label : `${entry.label}\n(now ${ITEM_STATUS_LABELS[entry.status].toLowerCase()})`;
    const dated = entry.documentDate ? shortDateFormat.format(new Date(`${entry.documentDate}T00:00:00Z`)) : '—';
    const itemHeight = doc.heightOfString(itemText, { width: columns[1]!.width - pad });
    const dateHeight = doc.heightOfString(dated, { width: columns[3]!.width - pad });
    const filesHeight = entry.files.reduce((sum, file) => sum + fileBlock(file), 0);
    const height = Math.max(itemHeight, dateHeight, filesHeight, 12) + 6;
    if (doc.y + height > bottom()) {
      doc.addPage();
      header();
    }
    const y = doc.y;
    doc.font('Sans').fontSize(9).fillColor(INK);
    doc.text(number, xs[0]!, y, { width: columns[0]!.width - pad });
    doc.text(itemText, xs[1]!, y, { width: columns[1]!.width - pad });
    doc.text(`v${entry.versionNumber}`, xs[2]!, y, { width: columns[2]!.width - pad });
    doc.text(dated, xs[3]!, y, { width: columns[3]!.width - pad });
    let fileY = y;
    for (const file of entry.files) {
      doc.font('Sans').fontSize(8.5).fillColor(INK);
      doc.text(`${file.name} (${formatSize(file.size)})`, xs[4]!, fileY, { width: filesWidth });
      doc.font('Mono').fontSize(6.5).fillColor(MUTED);
      doc.text(file.sha256, xs[4]!, doc.y + 0.5, { width: filesWidth, lineBreak: false });
      fileY += fileBlock(file);
    }
    doc.y = y + height;
    doc
      .moveTo(left, doc.y - 3)
      .lineTo(left + width, doc.y - 3)
      .lineWidth(0.25)
      .strokeColor(RULE)
      .stroke();
  }
}
