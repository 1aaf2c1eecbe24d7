import { describe, expect, it } from 'vitest';
import { DEFAULT_DSCR_THRESHOLDS } from '../../shared/domain/dscr';
import { analyseLoan } from '../../shared/domain/loan-dscr';
import { CreateLoanSchema, type LoanInput } from '../../shared/schemas/loans';
import { pdfText } from '../../test/pdf-text';
import { sampleLoan } from '../../test/sample-loan';
import { renderCoverSheet, type CoverSheet } from './cover-sheet';

function sheet(borrowerName: string, documents: number): CoverSheet {
  const loan = { ...(CreateLoanSchema.parse(sampleLoan({ borrowerName })) as LoanInput), stage: 'underwriting' as const };
  return {
    teamName: 'Harbor Lending',
    preparedBy: 'Asha Assistant',
    generatedAt: new Date('2026-11-24T17:21:00Z'),
    loan,
    dscr: analyseLoan(loan, DEFAULT_DSCR_THRESHOLDS),
    thresholds: DEFAULT_DSCR_THRESHOLDS,
    documents: Array.from({ length: documents }, (_, index) => ({
      folder: `${String(index + 1).padStart(2, '0')} Item ${index + 1}`,
      label: `Item ${index + 1} of ${borrowerName}`,
      status: 'approved' as const,
      versionNumber: 1 + (index % 3),
      documentDate: '2026-10-31',
      files: [{ name: `file ${index + 1}.pdf`, size: 1_234_567, sha256: index.toString(16).padStart(64, 'c') }],
    })),
    settled: [],
    outstanding: [],
  };
}

describe('the cover sheet', () => {
  it('sets every name in DejaVu, whoever renders at the same time (the parsed fonts are shared)', async () => {
    const names = ['José Núñez', 'Zoë Ångström', 'Łukasz Żółć', 'Αλέξης Παπαδόπουλος', 'Дмитрий Иванов'];
    const pdfs = await Promise.all(names.map((name, index) => renderCoverSheet(sheet(name, 3 + index * 7))));
    const texts = await Promise.all(pdfs.map(pdfText));
    texts.forEach(({ text }, index) => {
      expect(text).toContain(`Lender package ${names[index]}`);
      expect(text).toContain(`Item 3 of ${names[index]}`);
      for (const other of names.filter((_, at) => at !== index)) expect(text).not.toContain(other);
    });
  });

  it('runs a long table onto further pages, numbered, with every SHA-256 on one line', async () => {
    const pdf = await renderCoverSheet(sheet('Dana Borrower', 60));
    const { pages, text } = await pdfText(pdf);
    expect(pages).toBeGreaterThanOrEqual(3);
    expect(text).toContain(`page ${pages} of ${pages}`);
    for (let index = 0; index < 60; index++) expect(text).toContain(index.toString(16).padStart(64, 'c'));
  });
});
