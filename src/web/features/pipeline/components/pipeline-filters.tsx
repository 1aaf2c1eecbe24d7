import { useId, type RefObject } from 'react';
import {
  CLOSING_WINDOW_LABELS,
  CLOSING_WINDOWS,
  LOAN_STATUS_LABELS,
  LOAN_STATUSES,
  type ClosingWindow,
  type LoanStatus,
} from '../../../../shared/domain/loan-fields';
import { LOAN_STAGES, STAGE_LABELS, type LoanStage } from '../../../../shared/domain/loan-stages';
import type { TeamMemberView } from '../../../../shared/schemas/teams';
import type { PipelineLayout, PipelineView } from '../pipeline-view';
import type { PipelineDensity } from './pipeline-table';

const fieldClasses =
  'mt-1.5 block h-11 w-full rounded-lg border border-slate-300 bg-white px-3 text-base text-slate-900 shadow-sm placeholder:text-slate-500 focus:border-navy-600 focus:outline-2 focus:outline-offset-0 focus:outline-navy-600 sm:text-sm';

/** Search ("/" goes to it), the status, assignee and closing filters, the list/board switch, and the list's density. */
export function PipelineToolbar({
  view,
  search,
  searchRef,
  members,
  density,
  onSearch,
  onDensity,
  onChange,
}: {
  view: PipelineView;
  search: string;
  searchRef: RefObject<HTMLInputElement | null>;
  members: TeamMemberView[];
  density: PipelineDensity;
  onSearch: (text: string) => void;
  onDensity: (density: PipelineDensity) => void;
  onChange: (change: Partial<PipelineView>) => void;
}) {
  const id = useId();
  // A member who left keeps their filter in a shared link; show it rather than a blank choice.
  const unknownAssignee = view.assignee && view.assignee !== 'none' && !members.some((m) => m.userId === view.assignee);
  return (
    <div className="mt-4 grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-[minmax(0,1.6fr)_repeat(3,minmax(0,1fr))_auto] lg:items-end">
      <div className="sm:col-span-2 lg:col-span-1">
        <label htmlFor={`${id}-search`} className="block text-sm font-medium text-slate-800">
          Search
        </label>
        <input
          ref={searchRef}
          id={`${id}-search`}
          type="search"
          aria-keyshortcuts="/"
          value={search}
          onChange={(event) => onSearch(event.target.value)}
          maxLength={200}
          placeholder="Borrower, e-mail, address or lender loan number"
          autoComplete="off"
          className={fieldClasses}
        />
      </div>
      <div>
        <label htmlFor={`${id}-status`} className="block text-sm font-medium text-slate-800">
          Status
        </label>
        <select
          id={`${id}-status`}
          value={view.status}
          onChange={(event) => onChange({ status: event.target.value as LoanStatus, stages: [] })}
          className={fieldClasses}
        >
          {LOAN_STATUSES.map((status) => (
            <option key={status} value={status}>
              {LOAN_STATUS_LABELS[status]}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor={`${id}-assignee`} className="block text-sm font-medium text-slate-800">
          Assignee
        </label>
        <select id={`${id}-assignee`} value={view.assignee} onChange={(event) => onChange({ assignee: event.target.value })} className={fieldClasses}>
          <option value="">Everyone</option>
          <option value="none">Unassigned</option>
          {members.map((member) => (
            <option key={member.userId} value={member.userId}>
              {member.name}
            </option>
          ))}
          {unknownAssignee ? <option value={view.assignee}>A former member</option> : null}
        </select>
      </div>
      <div>
        <label htmlFor={`${id}-closing`} className="block text-sm font-medium text-slate-800">
          Target closing
        </label>
        <select
          id={`${id}-closing`}
          value={view.closing}
          onChange={(event) => onChange({ closing: event.target.value as ClosingWindow | '' })}
          className={fieldClasses}
        >
          <option value="">Any date</option>
          {CLOSING_WINDOWS.map((window) => (
            <option key={window} value={window}>
              {CLOSING_WINDOW_LABELS[window]}
            </option>
          ))}
        </select>
      </div>
      <div className="flex gap-2 sm:col-span-2 lg:col-span-1">
        <LayoutSwitch layout={view.layout} onChange={(layout) => onChange({ layout })} />
        {view.layout === 'list' ? (
          <button
            type="button"
            aria-pressed={density === 'compact'}
            onClick={() => onDensity(density === 'compact' ? 'comfortable' : 'compact')}
            className={`h-12 shrink-0 rounded-lg px-3 text-sm font-semibold ring-1 ring-inset focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-navy-600 ${
              density === 'compact' ? 'bg-navy-50 text-navy-900 ring-navy-300' : 'bg-white text-slate-700 ring-slate-300 hover:bg-slate-50'
            }`}
          >
            Compact
          </button>
        ) : null}
      </div>
    </div>
  );
}

function LayoutSwitch({ layout, onChange }: { layout: PipelineLayout; onChange: (layout: PipelineLayout) => void }) {
  const option = (value: PipelineLayout, label: string) => (
    <button
      type="button"
      aria-pressed={layout === value}
      onClick={() => onChange(value)}
      className={`h-11 flex-1 rounded-md px-4 text-sm font-semibold focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-navy-600 ${
        layout === value ? 'bg-white text-navy-900 shadow-sm ring-1 ring-slate-200' : 'text-slate-700 hover:text-slate-900'
      }`}
    >
      {label}
    </button>
  );
  return (
    <div role="group" aria-label="Layout" className="flex flex-1 gap-1 rounded-lg bg-slate-100 p-1">
      {option('list', 'List')}
      {option('board', 'Board')}
    </div>
  );
}

/**
 * The stage filter: a chip per stage with the loans it holds in this view
 * (the server's stageCounts, which ignore the stage filter itself), plus "All
 * stages". Chips toggle, so several stages can be shown together.
 */
export function StageChips({
  selected,
  counts,
  onChange,
}: {
  selected: LoanStage[];
  counts: Partial<Record<LoanStage, number>>;
  onChange: (stages: LoanStage[]) => void;
}) {
  const shown = LOAN_STAGES.filter((stage) => (counts[stage] ?? 0) > 0 || selected.includes(stage));
  const total = LOAN_STAGES.reduce((sum, stage) => sum + (counts[stage] ?? 0), 0);
  const chip = (key: string, label: string, count: number, pressed: boolean, onClick: () => void) => (
    <li key={key}>
      <button
        type="button"
        aria-pressed={pressed}
        onClick={onClick}
        className={`inline-flex h-9 items-center gap-2 rounded-full px-3 text-sm font-semibold ring-1 ring-inset focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-navy-600 ${
          pressed ? 'bg-navy-900 text-white ring-navy-900' : 'bg-white text-slate-800 ring-slate-300 hover:bg-slate-50'
        }`}
      >
        {label}
        <span className={`rounded-full px-1.5 text-xs tabular-nums ${pressed ? 'bg-white/20 text-white' : 'bg-slate-100 text-slate-700'}`}>
          {count.toLocaleString('en-US')}
        </span>
      </button>
    </li>
  );
  return (
    <ul aria-label="Filter by stage" className="mt-4 flex flex-wrap gap-2">
      {chip('all', 'All stages', total, selected.length === 0, () => onChange([]))}
      {shown.map((stage) =>
        chip(stage, STAGE_LABELS[stage], counts[stage] ?? 0, selected.includes(stage), () =>
          onChange(selected.includes(stage) ? selected.filter((s) => s !== stage) : [...selected, stage]),
        ),
      )}
    </ul>
  );
}
