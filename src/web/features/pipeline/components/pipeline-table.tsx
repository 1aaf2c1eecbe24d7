import { Link } from 'react-router';
import type { PipelineSort } from '../../../../shared/domain/loan-fields';
import { STAGE_LABELS } from '../../../../shared/domain/loan-stages';
import { isExitStage } from '../../../../shared/domain/loan-stages';
import { formatWholeDollars } from '../../../../shared/money';
import type { PipelineRow } from '../../../../shared/schemas/loans';
import { formatCalendarDate } from '../../../lib/dates';
import { paths } from '../../../lib/paths';
import { plural } from '../../../lib/plural';
import { Chip } from '../../../ui/chip';
import { DateTime } from '../../../ui/date-time';
import { EmptyCell } from '../../../ui/empty-cell';
import { CheckIcon } from '../../../ui/icons';
import { ScrollTable, TableHead } from '../../../ui/scroll-table';
import { SortHeader } from '../../../ui/sort-header';
import { UnreadBadge } from '../../../ui/unread-badge';
import type { SortDirection } from '../pipeline-view';

export const SORT_LABELS: Record<PipelineSort, string> = {
  borrower: 'Borrower',
  property: 'Property',
  amount: 'Loan amount',
  stage: 'Stage',
  progress: 'Progress',
  outstanding: 'Outstanding docs',
  days_in_stage: 'Days in stage',
  closing: 'Target closing',
  last_activity: 'Last activity',
  assignee: 'Assignee',
};
const COLUMNS = Object.keys(SORT_LABELS) as PipelineSort[];

/** The pipeline as a table: one row per loan of the page, every column sortable from its header. */
export function PipelineTable({
  rows,
  sort,
  dir,
  loading,
  today,
  onSort,
  empty,
}: {
  rows: PipelineRow[];
  sort: PipelineSort;
  dir: SortDirection;
  loading: boolean;
  today: string;
  onSort: (column: PipelineSort) => void;
  empty: string;
}) {
  return (
    <ScrollTable caption={`Loans, sorted by ${SORT_LABELS[sort]}, ${dir === 'asc' ? 'ascending' : 'descending'}`} minWidth="min-w-[72rem]" loading={loading}>
      <TableHead>
        {COLUMNS.map((column) => (
          <SortHeader key={column} label={SORT_LABELS[column]} column={column} sort={sort} dir={dir} onSort={onSort} />
        ))}
      </TableHead>
      <tbody className="divide-y divide-slate-200">
        {rows.map((row) => (
          <LoanRow key={row.id} row={row} today={today} />
        ))}
        {rows.length === 0 ? (
          <tr>
            <td colSpan={COLUMNS.length} className="px-4 py-12 text-center text-slate-600">
              {empty}
            </td>
          </tr>
        ) : null}
      </tbody>
    </ScrollTable>
  );
}

/** A stage as a pill: exits in red, Funded in green, the rest navy. */
export function StageChip({ stage }: { stage: PipelineRow['stage'] }) {
  return <Chip tone={isExitStage(stage) ? 'red' : stage === 'funded' ? 'green' : 'navy'}>{STAGE_LABELS[stage]}</Chip>;
}

function LoanRow({ row, today }: { row: PipelineRow; today: string }) {
  const overdue = row.targetClosingDate !== null && row.targetClosingDate < today && !isExitStage(row.stage) && row.stage !== 'funded';
  return (
    <tr className="align-middle hover:bg-slate-50">
      <th scope="row" className="min-w-44 px-3 py-3 font-normal">
        <Link to={paths.loanHref(row.id)} className="font-semibold text-navy-800 underline-offset-4 hover:underline">
          {row.borrowerName}
        </Link>
        <UnreadBadge count={row.unreadComments} className="ml-2" />
        {row.entityName ? <span className="block text-xs text-slate-600">{row.entityName}</span> : null}
        {row.archived ? (
          <span className="mt-1 block">
            <Chip tone="slate">Archived</Chip>
          </span>
        ) : null}
      </th>
      <td className="min-w-48 px-3 py-3 text-slate-700">{row.property}</td>
      <td className="px-3 py-3 text-right whitespace-nowrap text-slate-900 tabular-nums">{formatWholeDollars(row.loanAmountCents)}</td>
      <td className="px-3 py-3">
        <StageChip stage={row.stage} />
      </td>
      <td className="px-3 py-3">
        <Progress value={row.progress} />
      </td>
      <td className="px-3 py-3 text-center text-slate-700 tabular-nums">
        <OutstandingDocs count={row.outstandingDocuments} />
      </td>
      <td className="px-3 py-3 whitespace-nowrap text-slate-700 tabular-nums">{plural(row.daysInStage, 'day', 'days')}</td>
      <td className="px-3 py-3 whitespace-nowrap">
        {row.targetClosingDate ? (
          <span className={overdue ? 'font-semibold text-red-800' : 'text-slate-700'}>
            <time dateTime={row.targetClosingDate}>{formatCalendarDate(row.targetClosingDate)}</time>
            {overdue ? <span className="block text-xs font-normal">Overdue</span> : null}
          </span>
        ) : (
          <EmptyCell />
        )}
      </td>
      <td className="px-3 py-3 whitespace-nowrap text-slate-700">
        <DateTime iso={row.lastActivityAt} />
      </td>
      <td className="px-3 py-3 text-slate-700">{row.assignee?.name ?? <span className="text-slate-600">Unassigned</span>}</td>
    </tr>
  );
}

/** Required documents still open: the number, or a check and "None" when every one is settled. */
export function OutstandingDocs({ count }: { count: number }) {
  if (count > 0) return <>{count.toLocaleString('en-US')}</>;
  return (
    <span className="inline-flex items-center gap-1 text-green-800">
      <CheckIcon className="size-4" />
      None
    </span>
  );
}

/** Progress as a bar for the eye and a number for everyone. */
export function Progress({ value }: { value: number }) {
  return (
    <span className="flex min-w-28 items-center gap-2">
      <span aria-hidden="true" className="h-2 w-16 overflow-hidden rounded-full bg-slate-200">
        <span className={`block h-full rounded-full bg-accent-600 ${PROGRESS_WIDTHS[Math.round(value / 5)] ?? 'w-0'}`} />
      </span>
      <span className="text-slate-700 tabular-nums">{value}%</span>
    </span>
  );
}

// Widths as written-out classes (no style attributes under the CSP), in steps of 5 %.
const PROGRESS_WIDTHS = [
  'w-0',
  'w-[5%]',
  'w-[10%]',
  'w-[15%]',
  'w-[20%]',
  'w-[25%]',
  'w-[30%]',
  'w-[35%]',
  'w-[40%]',
  'w-[45%]',
  'w-[50%]',
  'w-[55%]',
  'w-[60%]',
  'w-[65%]',
  'w-[70%]',
  'w-[75%]',
  'w-[80%]',
  'w-[85%]',
  'w-[90%]',
  'w-[95%]',
  'w-full',
];
