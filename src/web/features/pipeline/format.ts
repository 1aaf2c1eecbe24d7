// Money is written by shared/money.ts, dates by lib/dates.ts, counts by lib/plural.ts.
import { canMoveStage, LOAN_STAGES, type LoanStage } from '../../../shared/domain/loan-stages';
import type { PipelineRow } from '../../../shared/schemas/loans';

/** The stages a loan may move to from the pipeline (none while archived): the rules the server enforces. */
export function movesFor(row: PipelineRow): LoanStage[] {
  if (row.archived) return [];
  return LOAN_STAGES.filter((to) => canMoveStage(row.stage, to, { reopenTo: row.leftFromStage }));
}
