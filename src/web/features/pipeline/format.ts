import { canMoveStage, LOAN_STAGES, type LoanStage } from '../../../shared/domain/loan-stages';
import type { PipelineRow } from '../../../shared/schemas/loans';

const WHOLE_DOLLARS = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });
const DAY = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });

/** Cents as whole dollars: 30000000 → "$300,000" (the pipeline rounds; the loan page shows cents). */
export const dollars = (cents: number) => WHOLE_DOLLARS.format(Math.round(cents / 100));

/** A calendar day (YYYY-MM-DD) as "Mar 14, 2025", read as that day wherever the browser is. */
export function calendarDay(day: string): string {
  const [year, month, date] = day.split('-').map(Number);
  return DAY.format(new Date(year ?? 2000, (month ?? 1) - 1, date ?? 1));
}

/** "1 day", "12 days". */
export const days = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'day' : 'days'}`;

/** The stages a loan may move to from the pipeline (none while archived): the rules the server enforces. */
export function movesFor(row: PipelineRow): LoanStage[] {
  if (row.archived) return [];
  return LOAN_STAGES.filter((to) => canMoveStage(row.stage, to, { reopenTo: row.leftFromStage }));
}
