import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { STAGE_LABELS, stageChangeNeedsReason, type LoanStage } from '../../../shared/domain/loan-stages';
import type { PipelinePage as PipelinePageData, PipelineRow } from '../../../shared/schemas/loans';
import { useMembers } from '../../lib/api/list-members';
import { failureDescription } from '../../lib/me-context';
import { useFailureNotice, useMe } from '../../lib/me-context';
import { paths } from '../../lib/paths';
import { plural } from '../../lib/plural';
import { useDocumentTitle } from '../../lib/use-page-title';
import { Button, ButtonLink, buttonClasses, ExportCsvLink } from '../../ui/button';
import { LoadFailed } from '../../ui/load-failed';
import { ReasonDialog } from '../../ui/reason-dialog';
import { Redirect } from '../../ui/redirect';
import { Spinner } from '../../ui/spinner';
import { useChangeStage, type StageMove } from './api/change-stage';
import { pipelineCsvUrl } from './api/export-pipeline-csv';
import { usePipeline, usePipelineColumns } from './api/list-pipeline';
import { PipelineBoard, type BoardColumn } from './components/pipeline-board';
import { PipelineToolbar, StageChips } from './components/pipeline-filters';
import { focusRow, PipelineTable, type PipelineDensity } from './components/pipeline-table';
import { boardStages, isFiltered, localToday, parsePipelineView, sortBy, toApiQuery, toPipelineSearch, updateView, type PipelineView } from './pipeline-view';

/** Typing pauses this long before the pipeline is searched again. */
const SEARCH_DEBOUNCE_MS = 300;
/** Cards per board column; the rest are a link to the column's stage in the list. */
const BOARD_COLUMN_SIZE = 20;
/** Where the list's density is remembered, per browser. */
const DENSITY_KEY = 'coverly.pipeline.density';

/** The list's density, remembered in this browser (comfortable when nothing is stored or storage is closed). */
function useDensity(): [PipelineDensity, (density: PipelineDensity) => void] {
  const [density, setDensity] = useState<PipelineDensity>(() => {
    try {
      return window.localStorage.getItem(DENSITY_KEY) === 'compact' ? 'compact' : 'comfortable';
    } catch {
      return 'comfortable';
    }
  });
  const choose = useCallback((next: PipelineDensity) => {
    setDensity(next);
    try {
      window.localStorage.setItem(DENSITY_KEY, next);
    } catch {
      // A browser that keeps nothing still switches, for this page.
    }
  }, []);
  return [density, choose];
}

/** Whether a key press belongs to what the person is typing in or operating, not to the page's shortcuts. */
const typingIn = (target: EventTarget | null) =>
  target instanceof HTMLElement && (target.isContentEditable || target.closest('input, textarea, select, [role="menu"], dialog') !== null);

/** /app/loans: the team's pipeline. Someone without a team (a borrower, a broker yet to found one) has their own /app. */
export default function PipelinePage() {
  useDocumentTitle('Pipeline');
  const { team } = useMe();
  if (!team) return <Redirect to={paths.app} />;
  return <Pipeline teamId={team.id} />;
}

const hrefOf = (view: PipelineView) => {
  const search = toPipelineSearch(view);
  return search ? `${paths.loans}?${search}` : paths.loans;
};

/**
 * The pipeline's list and board over one view that lives in the address
 * (pipeline-view.ts): typing replaces the address, every other change pushes
 * a new one, so Back steps through the filters and a reload keeps them.
 */
function Pipeline({ teamId }: { teamId: string }) {
  const { search: addressSearch } = useLocation();
  const navigate = useNavigate();
  const notifyFailure = useFailureNotice();
  const view = useMemo(() => parsePipelineView(addressSearch), [addressSearch]);
  // The broker's today, for the closing windows and "overdue".
  const [today] = useState(localToday);

  const setView = useCallback(
    (change: Partial<PipelineView>, { replace = false } = {}) => void navigate(hrefOf(updateView(view, change)), { replace }),
    [navigate, view],
  );

  // The search box follows the address (Back, a shared link) and writes it once typing pauses.
  const [search, setSearch] = useState(view.q);
  const [addressQ, setAddressQ] = useState(view.q);
  if (addressQ !== view.q) {
    setAddressQ(view.q);
    if (search.trim() !== view.q.trim()) setSearch(view.q);
  }
  useEffect(() => {
    if (search.trim() === view.q.trim()) return;
    const timer = setTimeout(() => setView({ q: search.trim() }, { replace: true }), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [search, view.q, setView]);

  // Keys of the list: "/" goes to the search box, J or K (when no row has focus yet) to the first or last loan.
  const [density, setDensity] = useDensity();
  const searchRef = useRef<HTMLInputElement>(null);
  const tableRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const onKeyDown = (event: globalThis.KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || typingIn(event.target)) return;
      if (event.key === '/') {
        event.preventDefault();
        searchRef.current?.focus();
        searchRef.current?.select();
      } else if ((event.key === 'j' || event.key === 'k') && !(event.target instanceof Element && event.target.closest('tbody'))) {
        event.preventDefault();
        focusRow(tableRef.current, event.key === 'j' ? 1 : -1);
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);

  const members = useMembers(teamId).data?.members ?? [];
  const board = view.layout === 'board';
  const stages = board ? boardStages(view) : [];
  const columnQueries = stages.map((stage) => ({ stage, query: toApiQuery(view, today, { stages: [stage], page: 1, size: BOARD_COLUMN_SIZE }) }));
  const columnResults = usePipelineColumns(teamId, columnQueries);
  const listQuery = useMemo(() => toApiQuery(view, today), [view, today]);
  // The board's counts come with its columns; the list's page is read only when there is no column to tell them.
  const list = usePipeline(teamId, listQuery, { enabled: !board || stages.length === 0 });

  const counts: Partial<Record<LoanStage, number>> = (board ? columnResults.find((r) => r.data)?.data?.stageCounts : list.data?.stageCounts) ?? {};
  const loading = board ? columnResults.some((r) => r.isFetching) : list.isFetching;
  const failed = board ? columnResults.find((r) => r.isError) : list.isError ? list : undefined;
  const known = board ? columnResults.some((r) => r.data) || stages.length === 0 : list.data !== undefined;
  const total = board ? stages.reduce((sum, stage) => sum + (counts[stage] ?? 0), 0) : (list.data?.total ?? 0);

  // Moving a card: exits ask for their reason first; every move is told to screen readers.
  const changeStage = useChangeStage(teamId);
  const [exit, setExit] = useState<StageMove | null>(null);
  const exitLabel = exit ? STAGE_LABELS[exit.to] : '';
  const [announcement, setAnnouncement] = useState('');
  const send = (move: StageMove) => {
    setExit(null);
    setAnnouncement(`Moving ${move.row.borrowerName} to ${STAGE_LABELS[move.to]}…`);
    changeStage.mutate(move, {
      onSuccess: () => setAnnouncement(`${move.row.borrowerName} moved to ${STAGE_LABELS[move.to]}.`),
      onError: (error) => {
        setAnnouncement(`${move.row.borrowerName} was not moved: ${failureDescription(error)}`);
        notifyFailure('Moving the loan failed', error);
      },
    });
  };
  const requestMove = (row: PipelineRow, to: LoanStage) => (stageChangeNeedsReason(to) ? setExit({ row, to }) : send({ row, to }));
  const movingId = changeStage.isPending ? changeStage.variables.row.id : null;

  const columns: BoardColumn[] = stages.map((stage, i) => ({
    stage,
    page: columnResults[i]?.data as PipelinePageData | undefined,
    loading: columnResults[i]?.isFetching ?? false,
    moreHref: hrefOf(updateView(view, { layout: 'list', stages: [stage] })),
  }));
  const filtered = isFiltered(view);
  const firstRun = known && !loading && total === 0 && !filtered && view.status === 'open';
  const csvHref = pipelineCsvUrl(teamId, toApiQuery(view, today, { page: 1 }));

  return (
    <>
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div className="flex items-baseline gap-3">
          <h1 className="text-2xl font-bold tracking-tight text-slate-900">Pipeline</h1>
          {/* How many loans the view holds, beside the title: the list starts higher on the screen. */}
          <p role="status" className="flex min-h-6 items-center gap-2 text-sm text-slate-700">
            {loading ? <Spinner /> : null}
            {known ? <span>{plural(total, filtered ? 'matching loan' : 'loan', filtered ? 'matching loans' : 'loans')}</span> : null}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <ExportCsvLink href={csvHref} />
          <ButtonLink to={paths.loanNew}>
            <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4" fill="currentColor">
              <path d="M10.75 4.75a.75.75 0 0 0-1.5 0v4.5h-4.5a.75.75 0 0 0 0 1.5h4.5v4.5a.75.75 0 0 0 1.5 0v-4.5h4.5a.75.75 0 0 0 0-1.5h-4.5v-4.5Z" />
            </svg>
            New loan
          </ButtonLink>
        </div>
      </div>

      <PipelineToolbar
        view={view}
        search={search}
        searchRef={searchRef}
        members={members}
        density={density}
        onSearch={setSearch}
        onDensity={setDensity}
        onChange={(change) => setView(change)}
      />
      <StageChips selected={view.stages} counts={counts} onChange={(selected) => setView({ stages: selected })} />

      <p role="status" className="sr-only">
        {announcement}
      </p>

      {failed && !loading ? <LoadFailed message="The pipeline could not be loaded." onRetry={() => void failed.refetch()} /> : null}

      {firstRun ? (
        <section aria-labelledby="first-run" className="mt-4 rounded-2xl border border-dashed border-slate-300 bg-white p-10 text-center">
          <h2 id="first-run" className="text-lg font-semibold text-slate-900">
            No open loan files yet
          </h2>
          <p className="mx-auto mt-2 max-w-md text-slate-600">
            Every open loan file of your team shows here, with its stage, progress and outstanding documents. Funded, withdrawn, declined and archived loans are
            under Status.
          </p>
          <ButtonLink to={paths.loanNew} className="mt-6">
            New loan
          </ButtonLink>
        </section>
      ) : board ? (
        known ? (
          <PipelineBoard columns={columns} counts={counts} movingId={movingId} onMove={requestMove} />
        ) : null
      ) : list.data ? (
        <div ref={tableRef}>
          <PipelineTable
            rows={list.data.rows}
            sort={view.sort}
            dir={view.dir}
            loading={loading}
            today={today}
            density={density}
            onSort={(column) => setView(sortBy(view, column))}
            empty={filtered ? 'No loans match this view.' : 'No loans here.'}
          />
          <Pager page={view.page} size={list.data.size} total={list.data.total} hrefFor={(page) => hrefOf(updateView(view, { page }))} />
        </div>
      ) : null}

      {filtered && known && total === 0 && !loading ? (
        <p className="mt-3 text-sm text-slate-700">
          <Button variant="ghost" size="sm" onClick={() => setView({ q: '', stages: [], assignee: '', closing: '' })}>
            Clear search and filters
          </Button>
        </p>
      ) : null}

      <ReasonDialog
        open={exit !== null}
        title={`Mark ${exit?.row.borrowerName ?? 'the loan'} as ${exitLabel.toLowerCase()}`}
        confirmLabel={`Mark ${exitLabel.toLowerCase()}`}
        maxLength={2000}
        onConfirm={(note) => exit && send({ ...exit, note })}
        onClose={() => setExit(null)}
      >
        The loan leaves the open pipeline. Its team sees the reason in the stage history; it can be reopened later.
      </ReasonDialog>
    </>
  );
}

/** Previous and next pages, as links: each page is an address of its own. */
function Pager({ page, size, total, hrefFor }: { page: number; size: number; total: number; hrefFor: (page: number) => string }) {
  const pages = Math.max(1, Math.ceil(total / size));
  if (pages <= 1 && page === 1) return null;
  const first = total === 0 ? 0 : (page - 1) * size + 1;
  const last = Math.min(total, page * size);
  const link = (to: number, label: string, rel: 'prev' | 'next') => (
    <Link to={hrefFor(to)} rel={rel} className={buttonClasses({ variant: 'secondary', size: 'sm' })}>
      {label}
    </Link>
  );
  return (
    <nav aria-label="Pages" className="mt-4 flex flex-wrap items-center justify-between gap-3 text-sm text-slate-700">
      <p>
        {first.toLocaleString('en-US')}–{last.toLocaleString('en-US')} of {total.toLocaleString('en-US')} · Page {page.toLocaleString('en-US')} of{' '}
        {pages.toLocaleString('en-US')}
      </p>
      <div className="flex gap-2">
        {page > 1 ? link(Math.min(page - 1, pages), 'Previous page', 'prev') : null}
        {page < pages ? link(page + 1, 'Next page', 'next') : null}
      </div>
    </nav>
  );
}
