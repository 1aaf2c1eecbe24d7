import {
  CLOSING_WINDOWS,
  LOAN_STATUSES,
  PIPELINE_PAGE_SIZE,
  PIPELINE_SORTS,
  type ClosingWindow,
  type LoanStatus,
  type PipelineSort,
} from '../../../shared/domain/loan-fields';
import { EXIT_STAGES, LOAN_STAGES, MAIN_STAGES, type LoanStage } from '../../../shared/domain/loan-stages';

export type SortDirection = 'asc' | 'desc';

export type PipelineLayout = 'list' | 'board';

/**
 * What the pipeline shows, all of it held by the address bar (`?q=…&stage=…`),
 * so Back, a reload and a shared link give the same view. The defaults are
 * left out of the address: `/app/loans` is open loans, last activity first.
 */
export interface PipelineView {
  q: string;
  stages: LoanStage[];
  /** '' for everyone, 'none' for unassigned loans, or a team member's id. */
  assignee: string;
  closing: ClosingWindow | '';
  status: LoanStatus;
  sort: PipelineSort;
  dir: SortDirection;
  page: number;
  layout: PipelineLayout;
}

/** The direction a column sorts in first, as the server does without `dir`: newest, largest and longest first; words A to Z. */
export const defaultDirection = (sort: PipelineSort): SortDirection =>
  sort === 'last_activity' || sort === 'amount' || sort === 'days_in_stage' ? 'desc' : 'asc';

export const DEFAULT_VIEW: PipelineView = {
  q: '',
  stages: [],
  assignee: '',
  closing: '',
  status: 'open',
  sort: 'last_activity',
  dir: defaultDirection('last_activity'),
  page: 1,
  layout: 'list',
};

const SEARCH_MAX = 200;
const ASSIGNEE_MAX = 64;
const PAGE_MAX = 100_000;

const oneOf = <T extends string>(values: readonly T[], value: string | null): T | undefined =>
  value !== null && (values as readonly string[]).includes(value) ? (value as T) : undefined;

/**
 * The view an address's query string describes (with or without its "?").
 * Anything missing, unknown or out of bounds takes its default, so an edited
 * or truncated link still opens a pipeline. Never throws.
 */
export function parsePipelineView(search: string): PipelineView {
  const params = new URLSearchParams(search);
  const sort = oneOf(PIPELINE_SORTS, params.get('sort')) ?? DEFAULT_VIEW.sort;
  const stageParam = params.getAll('stage').flatMap((value) => value.split(','));
  const stages = LOAN_STAGES.filter((stage) => stageParam.includes(stage));
  const page = Number(params.get('page'));
  const assignee = (params.get('assignee') ?? '').trim();
  return {
    q: (params.get('q') ?? '').slice(0, SEARCH_MAX),
    stages,
    assignee: assignee.length <= ASSIGNEE_MAX ? assignee : '',
    closing: oneOf(CLOSING_WINDOWS, params.get('closing')) ?? '',
    status: oneOf(LOAN_STATUSES, params.get('status')) ?? DEFAULT_VIEW.status,
    sort,
    dir: oneOf(['asc', 'desc'] as const, params.get('dir')) ?? defaultDirection(sort),
    page: Number.isInteger(page) && page >= 1 && page <= PAGE_MAX ? page : 1,
    layout: params.get('view') === 'board' ? 'board' : 'list',
  };
}

/**
 * The query string (without "?") of a view, defaults left out, in a stable
 * order: equal views give equal addresses.
 */
export function toPipelineSearch(view: PipelineView): string {
  const params = new URLSearchParams();
  const q = view.q.trim();
  if (q) params.set('q', q);
  if (view.stages.length > 0) params.set('stage', LOAN_STAGES.filter((stage) => view.stages.includes(stage)).join(','));
  if (view.assignee) params.set('assignee', view.assignee);
  if (view.closing) params.set('closing', view.closing);
  if (view.status !== DEFAULT_VIEW.status) params.set('status', view.status);
  if (view.sort !== DEFAULT_VIEW.sort) params.set('sort', view.sort);
  if (view.dir !== defaultDirection(view.sort)) params.set('dir', view.dir);
  if (view.page > 1) params.set('page', String(view.page));
  if (view.layout === 'board') params.set('view', 'board');
  return params.toString();
}

/**
 * A change to the view: any change but the page's own goes back to page 1,
 * and a new sort column starts in its own first direction.
 */
export function updateView(view: PipelineView, change: Partial<PipelineView>): PipelineView {
  const next = { ...view, ...change };
  if (change.sort !== undefined && change.sort !== view.sort && change.dir === undefined) next.dir = defaultDirection(change.sort);
  const filtersChanged = (['q', 'stages', 'assignee', 'closing', 'status', 'sort', 'dir'] as const).some((key) => key in change);
  if (filtersChanged && change.page === undefined) next.page = 1;
  return next;
}

/** Clicking a column header: the same column flips its direction, another starts in its own. */
export function sortBy(view: PipelineView, sort: PipelineSort): PipelineView {
  return sort === view.sort ? updateView(view, { dir: view.dir === 'asc' ? 'desc' : 'asc' }) : updateView(view, { sort });
}

/** The API's query (GET /api/teams/:teamId/loans and its .csv) for a view, as an object of strings; `today` is the browser's date. */
export function toApiQuery(
  view: PipelineView,
  today: string,
  { stages = view.stages, page = view.page, size = PIPELINE_PAGE_SIZE } = {},
): Record<string, string> {
  const query: Record<string, string> = { status: view.status, sort: view.sort, dir: view.dir };
  const q = view.q.trim();
  if (q) query.q = q;
  if (stages.length > 0) query.stage = stages.join(',');
  if (view.assignee) query.assignee = view.assignee;
  // The closing windows are counted from the broker's own today, not the server's.
  if (view.closing) {
    query.closing = view.closing;
    query.today = today;
  }
  if (page > 1) query.page = String(page);
  if (size !== PIPELINE_PAGE_SIZE) query.size = String(size);
  return query;
}

/** The browser's local date as YYYY-MM-DD. */
export function localToday(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/**
 * The board's columns for a status: the main line (Funded included, as a
 * place to move to), the exits for withdrawn and declined loans, every stage
 * for archived ones. A stage filter narrows them to the chosen stages.
 */
export function boardStages(view: Pick<PipelineView, 'status' | 'stages'>): LoanStage[] {
  const all: readonly LoanStage[] = view.status === 'closed' ? EXIT_STAGES : view.status === 'archived' ? LOAN_STAGES : MAIN_STAGES;
  return view.stages.length > 0 ? all.filter((stage) => view.stages.includes(stage)) : [...all];
}

/** Whether the view narrows the loans at all (beyond the status), to tell "no loans yet" from "none match". */
export const isFiltered = (view: PipelineView) => Boolean(view.q.trim() || view.stages.length > 0 || view.assignee || view.closing);
