import { STAGE_LABELS } from '../../../../shared/domain/loan-stages';
import type { LoanStageChangeView } from '../../../../shared/schemas/loans';
import { DateTime } from '../../../ui/date-time';

/** Every stage the loan reached: who moved it, when, and their note; newest first. */
export function StageHistory({ history }: { history: LoanStageChangeView[] }) {
  const newestFirst = [...history].sort((a, b) => b.id - a.id);
  return (
    <ol className="space-y-4" aria-label="Stage history">
      {newestFirst.map((change) => (
        <li key={change.id} className="border-l-2 border-slate-200 pl-3 text-sm">
          <p className="font-medium text-slate-900">
            {change.from ? `${STAGE_LABELS[change.from]} → ${STAGE_LABELS[change.to]}` : `Opened at ${STAGE_LABELS[change.to]}`}
          </p>
          <p className="text-slate-600">
            {change.by?.name ?? 'A former team member'} · <DateTime iso={change.at} format="dateTime" />
          </p>
          {change.note ? <p className="mt-1 whitespace-pre-line text-slate-700">{change.note}</p> : null}
        </li>
      ))}
    </ol>
  );
}
