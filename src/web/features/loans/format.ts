import { LOAN_PURPOSE_LABELS, PREPAYMENT_LABELS, PROPERTY_TYPE_LABELS } from '../../../shared/domain/loan-fields';
import type { PrepaymentKind } from '../../../shared/domain/loan-fields';

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const usdWhole = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });

/** $300,000.00 */
export const formatCents = (cents: number) => usd.format(cents / 100);
/** $300,000 (whole dollars, for headers and cards). */
export const formatWholeDollars = (cents: number) => usdWhole.format(Math.round(cents / 100));
/** 7.25 % */
export const formatPercent = (percent: number) => `${percent.toLocaleString('en-US', { maximumFractionDigits: 3 })} %`;
/** 1.234 (DSCR is always shown to 3 decimals). */
export const formatRatio = (ratio: number) => ratio.toFixed(3);

export const formatYears = (years: number) => `${years} ${years === 1 ? 'year' : 'years'}`;
export const formatMonths = (months: number) => `${months} ${months === 1 ? 'month' : 'months'}`;

/** "Step-down, 5 years" / "None". */
export function formatPrepayment(kind: PrepaymentKind, years: number | null): string {
  return kind === 'none' || years === null ? PREPAYMENT_LABELS[kind] : `${PREPAYMENT_LABELS[kind]}, ${formatYears(years)}`;
}

/** "June 30, 2025" for a calendar date (YYYY-MM-DD), read as that day wherever the viewer is. */
export function formatCalendarDate(day: string): string {
  const [year, month, date] = day.split('-').map(Number);
  return new Date(Date.UTC(year ?? 2000, (month ?? 1) - 1, date ?? 1)).toLocaleDateString('en-US', { dateStyle: 'long', timeZone: 'UTC' });
}

export { LOAN_PURPOSE_LABELS, PROPERTY_TYPE_LABELS };
