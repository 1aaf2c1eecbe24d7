import { DEFAULT_DSCR_THRESHOLDS, DSCR_BAND_LABELS, type DscrBand } from '../../../../shared/domain/dscr';
import { formatCents, formatRatio, formatWholeDollars } from '../../../../shared/money';
import type { CalculatorResults as Results } from '../calculator-form';

const BAND_STYLES: Record<DscrBand, string> = {
  strong: 'bg-accent-100 text-accent-700 ring-accent-600/30',
  eligible: 'bg-amber-100 text-amber-900 ring-amber-600/30',
  'no-ratio': 'bg-red-100 text-red-800 ring-red-600/30',
};

const none = '—';
const money = (cents: number | null, whole = false) => (cents === null ? none : whole ? formatWholeDollars(cents) : formatCents(cents));
const threshold = (value: number) => value.toFixed(2);

/** PITIA's lines as shown, each to the cent, which add up to the PITIA beside them (decision 010). */
function pitiaDetail(lines: Results['pitiaLines']): string {
  if (!lines) return 'P&I, taxes, insurance and HOA a month';
  const { principalAndInterestCents, taxesCents, insuranceCents, hoaCents } = lines;
  return `${formatCents(principalAndInterestCents)} P&I + ${formatCents(taxesCents)} taxes + ${formatCents(insuranceCents)} insurance + ${formatCents(hoaCents)} HOA`;
}

function BandChip({ band, testId }: { band: DscrBand; testId?: string }) {
  return (
    <span data-testid={testId} className={`inline-flex rounded-full px-3 py-1 text-sm font-semibold ring-1 ring-inset ${BAND_STYLES[band]}`}>
      {DSCR_BAND_LABELS[band]}
    </span>
  );
}

/**
 * On a phone the results come after the form: a bar at the foot of the screen
 * keeps the ratio in sight while typing (as the landing page keeps its call
 * to action), and leads to the full figures.
 */
export function ResultsBar({ dscr, band }: { dscr: number | null; band: DscrBand | null }) {
  return (
    <aside
      aria-label="DSCR summary"
      className="fixed inset-x-0 bottom-0 z-30 border-t border-slate-200 bg-white/95 px-4 py-3 shadow-[0_-4px_12px_rgba(15,23,42,0.08)] backdrop-blur lg:hidden"
    >
      <div className="mx-auto flex max-w-6xl items-center justify-between gap-3">
        <p className="flex items-center gap-2.5 text-sm font-medium text-slate-800">
          DSCR <span className="text-xl font-bold text-navy-900 tabular-nums">{dscr === null ? none : formatRatio(dscr)}</span>{' '}
          {band ? <BandChip band={band} /> : null}
        </p>
        <a href="#results" className="rounded-md text-sm font-semibold text-navy-700 underline-offset-2 hover:underline">
          See all results
        </a>
      </div>
    </aside>
  );
}

function Figure({ label, value, detail, testId }: { label: string; value: string; detail: string; testId: string }) {
  return (
    <div className="flex items-baseline justify-between gap-4 py-3">
      <dt className="text-sm text-slate-700">
        <span className="font-medium text-slate-900">{label}</span>
        <span data-testid={`${testId}-detail`} className="block text-xs text-slate-600">
          {detail}
        </span>
      </dt>
      <dd data-testid={testId} className="text-right text-lg font-semibold text-navy-900 tabular-nums">
        {value}
      </dd>
    </div>
  );
}

/**
 * The figures, recomputed on every keystroke: a polite live region, so a
 * screen reader hears the figures that changed once typing pauses. A figure
 * whose inputs are wrong shows a dash, never NaN.
 */
export function CalculatorResults({ results, hasErrors, shortTermRental }: { results: Results; hasErrors: boolean; shortTermRental: boolean }) {
  const { dscr, band } = results;
  return (
    <section id="results" aria-labelledby="results-title" className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6">
      <h2 id="results-title" className="text-lg font-semibold text-navy-900">
        Results
      </h2>
      <div aria-live="polite">
        <dl className="mt-4 divide-y divide-slate-200">
          <div className="mb-2 rounded-xl bg-navy-50 p-4">
            <dt className="text-sm font-medium text-slate-900">DSCR</dt>
            <dd className="mt-1 flex flex-wrap items-center gap-3">
              <span data-testid="result-dscr" className="text-4xl font-bold tracking-tight text-navy-900 tabular-nums">
                {dscr === null ? none : formatRatio(dscr)}
              </span>{' '}
              {band ? <BandChip band={band} testId="result-band" /> : null}
            </dd>
          </div>
          <Figure label="Monthly P&I" detail="Principal and interest" value={money(results.monthlyPrincipalAndInterestCents)} testId="result-pi" />
          <Figure label="PITIA" detail={pitiaDetail(results.pitiaLines)} value={money(results.pitiaCents)} testId="result-pitia" />
          <Figure
            label="Qualifying rent"
            detail={shortTermRental ? 'Revenue ÷ 12, less the expense factor' : 'Rent a month, before expenses'}
            value={money(results.qualifyingRentCents)}
            testId="result-rent"
          />
          <Figure label="Max loan at target DSCR" detail="Largest whole-dollar amount" value={money(results.maxLoanCents, true)} testId="result-max-loan" />
          <Figure label="Rent needed for target DSCR" detail="At this loan amount" value={money(results.rentNeededCents)} testId="result-rent-needed" />
        </dl>
        {hasErrors ? (
          <p data-testid="results-incomplete" className="mt-3 text-sm text-red-700">
            Correct the fields marked in red to see every figure.
          </p>
        ) : null}
      </div>
      <p className="mt-4 border-t border-slate-200 pt-4 text-xs leading-relaxed text-slate-600">
        DSCR is qualifying rent ÷ PITIA, to 3 decimals. {DSCR_BAND_LABELS.strong} at {threshold(DEFAULT_DSCR_THRESHOLDS.strong)} or more,{' '}
        {DSCR_BAND_LABELS.eligible} at {threshold(DEFAULT_DSCR_THRESHOLDS.eligible)} or more, {DSCR_BAND_LABELS['no-ratio']} below. An estimate, not a loan
        offer: lenders set their own rules.
      </p>
    </section>
  );
}
