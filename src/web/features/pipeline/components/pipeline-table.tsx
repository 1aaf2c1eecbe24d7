import type { KeyboardEvent, MouseEvent } from 'react';
import { Link, useNavigate } from 'react-router';
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

export type PipelineDensity = 'comfortable' | 'compact';

/** The row link a row's keys move from and to: the loan's name in its first cell. */
const ROW_LINK = 'th[scope="row"] a';

/** Moves focus to the loan `step` rows from the one holding focus (or to the first), as J/K and the arrow keys do. */
export function focusRow(table: HTMLElement | null, step: number) {
  const links = [...(table?.querySelectorAll<HTMLAnchorElement>(ROW_LINK) ?? [])];
  if (links.length === 0) return;
  const at = links.indexOf(document.activeElement as HTMLAnchorElement);
  const next = at === -1 ? (step > 0 ? 0 : links.length - 1) : Math.min(links.length - 1, Math.max(0, at + step));
  links[next]?.focus();
  links[next]?.closest('tr')?.scrollIntoView({ block: 'nearest' });
}

/**
 * The pipeline as a table: one row per loan of the page, every column
 * sortable from its header. The whole row opens the loan (the borrower's name
 * is its link, for the keyboard and for a new tab); J/K or the arrow keys move
 * between rows and Enter opens one. `compact` fits more rows on a screen.
 */
export function PipelineTable({
  rows,
  sort,
  dir,
  loading,
  today,
  density,
  onSort,
  empty,
}: {
  rows: PipelineRow[];
  sort: PipelineSort;
  dir: SortDirection;
  loading: boolean;
  today: string;
  density: PipelineDensity;
  onSort: (column: PipelineSort) => void;
  empty: string;
}) {
  const onKeyDown = (event: KeyboardEvent<HTMLTableSectionElement>) => {
    if (event.altKey || event.ctrlKey || event.metaKey || !(event.target as Element).matches(ROW_LINK)) return;
    const step = event.key === 'j' || event.key === 'ArrowDown' ? 1 : event.key === 'k' || event.key === 'ArrowUp' ? -1 : 0;
    if (step === 0) return;
    event.preventDefault();
    focusRow(event.currentTarget, step);
  };
  return (
    <ScrollTable
      caption={`Loans, sorted by ${SORT_LABELS[sort]}, ${dir === 'asc' ? 'ascending' : 'descending'}`}
      minWidth="min-w-[72rem]"
      loading={loading}
      stickyHead
    >
      <TableHead>
        {COLUMNS.map((column) => (
          <SortHeader key={column} label={SORT_LABELS[column]} column={column} sort={sort} dir={dir} onSort={onSort} wrap />
        ))}
      </TableHead>
      <tbody className="divide-y divide-slate-200" onKeyDown={onKeyDown}>
        {rows.map((row) => (
          <LoanRow key={row.id} row={row} today={today} compact={density === 'compact'} />
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

/** A click on the row, away from its links and buttons and not the end of selecting text, opens the loan (in a new tab with Ctrl or ⌘). */
function opensLoan(event: MouseEvent<HTMLTableRowElement>): boolean {
  if (event.button !== 0 || (event.target as Element).closest('a, button, input, select, textarea, label')) return false;
  return !window.getSelection()?.toString();
}

function LoanRow({ row, today, compact }: { row: PipelineRow; today: string; compact: boolean }) {
  const navigate = useNavigate();
  const href = paths.loanHref(row.id);
  const overdue = row.targetClosingDate !== null && row.targetClosingDate < today && !isExitStage(row.stage) && row.stage !== 'funded';
  const cell = compact ? 'px-2 py-1.5' : 'px-2 py-2.5';
  return (
    <tr
      className="cursor-pointer align-middle hover:bg-slate-50 has-[a:focus-visible]:bg-navy-50"
      onClick={(event) => {
        if (!opensLoan(event)) return;
        if (event.ctrlKey || event.metaKey) window.open(href, '_blank', 'noopener');
        else void navigate(href);
      }}
    >
      <th scope="row" className={`min-w-44 font-normal ${cell}`}>
        <span className="flex items-center gap-2 whitespace-nowrap">
          <Link to={href} className="font-semibold text-navy-800 underline-offset-4 hover:underline">
            {row.borrowerName}
          </Link>
          <UnreadBadge count={row.unreadComments} />
          {row.archived ? <Chip tone="slate">Archived</Chip> : null}
        </span>
        {row.entityName ? <span className={compact ? 'sr-only' : 'block max-w-44 truncate text-xs text-slate-600'}>{row.entityName}</span> : null}
      </th>
      <td className={`text-slate-700 ${cell}`}>
        <span className="block max-w-40 min-w-32 truncate" title={row.property}>
          {row.property}
        </span>
      </td>
      <td className={`${cell} text-right whitespace-nowrap text-slate-900 tabular-nums`}>{formatWholeDollars(row.loanAmountCents)}</td>
      <td className={`${cell} whitespace-nowrap`}>
        <StageChip stage={row.stage} />
      </td>
      <td className={cell}>
        <Progress value={row.progress} />
      </td>
      <td className={`${cell} text-center text-slate-700 tabular-nums`}>
        <OutstandingDocs count={row.outstandingDocuments} />
      </td>
      <td className={`${cell} whitespace-nowrap text-slate-700 tabular-nums`}>{plural(row.daysInStage, 'day', 'days')}</td>
      <td className={`${cell} whitespace-nowrap`}>
        {row.targetClosingDate ? (
          <span className={overdue ? 'font-semibold text-red-800' : 'text-slate-700'}>
            <time dateTime={row.targetClosingDate}>{formatCalendarDate(row.targetClosingDate)}</time>
            {overdue ? <span className="block text-xs font-normal">Overdue</span> : null}
          </span>
        ) : (
          <EmptyCell />
        )}
      </td>
      <td className={`${cell} whitespace-nowrap text-slate-700`}>
        <DateTime iso={row.lastActivityAt} />
      </td>
      <td className={`${cell} text-slate-700`}>{row.assignee?.name ?? <span className="text-slate-600">Unassigned</span>}</td>
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
    <span className="flex items-center gap-2">
      <span aria-hidden="true" className="h-2 w-12 overflow-hidden rounded-full bg-slate-200">
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
