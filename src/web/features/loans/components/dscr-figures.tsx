import type { ReactNode } from 'react';
import type { DscrThresholds } from '../../../../shared/domain/dscr';
import type { LoanDscrAnalysis } from '../../../../shared/domain/loan-dscr';
import { formatCents, formatRatio } from '../../../../shared/money';
import { Chip } from '../../../ui/chip';

const BAND = {
  strong: { label: 'Strong', tone: 'green' },
  eligible: { label: 'Eligible', tone: 'navy' },
  'no-ratio': { label: 'No-ratio', tone: 'red' },
} as const;

const dash = (
  <>
    <span aria-hidden="true">—</span>
    <span className="sr-only">Not yet known</span>
  </>
);

/** The band of a DSCR, as a chip. */
export function DscrBand({ band }: { band: NonNullable<LoanDscrAnalysis['band']> }) {
  return <Chip tone={BAND[band].tone}>{BAND[band].label}</Chip>;
}

/**
 * A loan's DSCR analysis: the figures analyseLoan computes, the same on the
 * server and in the browser. `analysis` is null while the form cannot be read.
 */
export function DscrFigures({ analysis, thresholds }: { analysis: LoanDscrAnalysis | null; thresholds: DscrThresholds }) {
  const rows: [string, ReactNode][] = [
    // PITIA's lines, each to the cent, then PITIA: their sum (decision 010), so the lines shown add up.
    ['Monthly P&I', analysis ? formatCents(analysis.monthlyPrincipalAndInterestCents) : dash],
    ['Taxes a month', analysis ? formatCents(analysis.pitiaLines.taxesCents) : dash],
    ['Insurance a month', analysis ? formatCents(analysis.pitiaLines.insuranceCents) : dash],
    ...(analysis && analysis.pitiaLines.hoaCents > 0 ? ([['HOA a month', formatCents(analysis.pitiaLines.hoaCents)]] as [string, ReactNode][]) : []),
    ...(analysis && analysis.pitiaLines.floodInsuranceCents > 0
      ? ([['Flood insurance a month', formatCents(analysis.pitiaLines.floodInsuranceCents)]] as [string, ReactNode][])
      : []),
    ['PITIA', analysis ? formatCents(analysis.pitiaCents) : dash],
    ['Qualifying rent', analysis && analysis.dscr !== null ? formatCents(analysis.qualifyingRentCents) : dash],
    ['LTV', analysis?.loanToValuePercent != null ? `${analysis.loanToValuePercent.toFixed(2)} %` : dash],
    [`Max loan at ${thresholds.eligible.toFixed(2)}`, analysis?.maxLoanAtTargetCents != null ? formatCents(analysis.maxLoanAtTargetCents) : dash],
    [`Rent needed for ${thresholds.eligible.toFixed(2)}`, analysis ? formatCents(analysis.rentNeededCents) : dash],
  ];
  return (
    <div>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <p className="text-sm font-medium text-slate-700">DSCR</p>
        <p className="flex items-center gap-2">
          <span className="text-3xl font-bold text-navy-900 tabular-nums" data-testid="dscr-value">
            {analysis?.dscr != null ? formatRatio(analysis.dscr) : '—'}
          </span>
          {analysis?.band ? <DscrBand band={analysis.band} /> : null}
        </p>
      </div>
      {analysis && analysis.dscr === null ? <p className="mt-1 text-xs text-slate-600">Enter the rent to see the ratio.</p> : null}
      <dl className="mt-4 divide-y divide-slate-100 text-sm">
        {rows.map(([label, value]) => (
          <div key={label} className="flex items-baseline justify-between gap-4 py-2">
            <dt className="text-slate-600">{label}</dt>
            <dd className="font-semibold text-slate-900 tabular-nums">{value}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-3 text-xs text-slate-600">
        Bands: Strong at {thresholds.strong.toFixed(2)} or more, Eligible at {thresholds.eligible.toFixed(2)} or more, No-ratio below.
      </p>
    </div>
  );
}
