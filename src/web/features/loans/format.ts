import { LOAN_PURPOSE_LABELS, PREPAYMENT_LABELS, PROPERTY_TYPE_LABELS } from '../../../shared/domain/loan-fields';
import type { PrepaymentKind } from '../../../shared/domain/loan-fields';

// Money, percents and ratios are written by shared/money.ts, dates by lib/dates.ts: this file words a loan's terms.

export const formatYears = (years: number) => `${years} ${years === 1 ? 'year' : 'years'}`;
export const formatMonths = (months: number) => `${months} ${months === 1 ? 'month' : 'months'}`;

/** "Step-down, 5 years" / "None". */
export function formatPrepayment(kind: PrepaymentKind, years: number | null): string {
  return kind === 'none' || years === null ? PREPAYMENT_LABELS[kind] : `${PREPAYMENT_LABELS[kind]}, ${formatYears(years)}`;
}

export { LOAN_PURPOSE_LABELS, PROPERTY_TYPE_LABELS };
