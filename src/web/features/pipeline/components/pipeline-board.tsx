import { useState, type DragEvent } from 'react';
import { Link } from 'react-router';
import { canMoveStage, STAGE_LABELS, type LoanStage } from '../../../../shared/domain/loan-stages';
import { formatWholeDollars } from '../../../../shared/money';
import type { PipelinePage, PipelineRow } from '../../../../shared/schemas/loans';
import { paths } from '../../../lib/paths';
import { plural } from '../../../lib/plural';
import { Spinner } from '../../../ui/spinner';
import { UnreadBadge } from '../../../ui/unread-badge';
import { MoveMenu } from './move-menu';

export interface BoardColumn {
  stage: LoanStage;
  page: PipelinePage | undefined;
  loading: boolean;
  /** The list view of this column's stage, for the cards the column leaves out. */
  moreHref: string;
}

/** The MIME type a dragged card carries: its loan id. */
const CARD_TYPE = 'application/x-coverly-loan';

/**
 * The board: a column per stage with its count and its first cards. A card
 * moves by dragging it to another column, or by its "Move to…" menu (the
 * keyboard's and the phone's way). The columns scroll sideways in their own
 * region; the page never does.
 */
export function PipelineBoard({
  columns,
  counts,
  movingId,
  onMove,
}: {
  columns: BoardColumn[];
  counts: Partial<Record<LoanStage, number>>;
  movingId: string | null;
  onMove: (row: PipelineRow, to: LoanStage) => void;
}) {
  const [dragged, setDragged] = useState<PipelineRow | null>(null);
  const [over, setOver] = useState<LoanStage | null>(null);
  const allows = (row: PipelineRow | null, stage: LoanStage) =>
    row !== null && !row.archived && canMoveStage(row.stage, stage, { reopenTo: row.leftFromStage });
  const accepts = (stage: LoanStage) => allows(dragged, stage);

  function onDragOver(event: DragEvent, stage: LoanStage) {
    if (!accepts(stage)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'move';
    if (over !== stage) setOver(stage);
  }

  function onDrop(event: DragEvent, stage: LoanStage) {
    event.preventDefault();
    const row = dragged;
    setDragged(null);
    setOver(null);
    if (row && allows(row, stage)) onMove(row, stage);
  }

  return (
    // `relative`: the cards' screen-reader-only text is positioned, and must scroll with the board, not widen the page.
    <div role="region" aria-label="Board by stage" tabIndex={0} className="relative -mx-4 mt-3 overflow-x-auto px-4 pb-4 sm:mx-0 sm:px-0">
      <ol className="flex gap-3">
        {columns.map(({ stage, page, loading, moreHref }) => {
          const count = counts[stage] ?? 0;
          const rows = page?.rows ?? [];
          const target = over === stage;
          return (
            <li
              key={stage}
              onDragOver={(event) => onDragOver(event, stage)}
              onDragLeave={() => setOver((current) => (current === stage ? null : current))}
              onDrop={(event) => onDrop(event, stage)}
              data-stage={stage}
              className={`flex w-56 shrink-0 flex-col rounded-xl border p-1.5 transition-colors ${
                target
                  ? 'border-navy-600 bg-navy-50'
                  : dragged && accepts(stage)
                    ? 'border-dashed border-navy-300 bg-slate-100'
                    : 'border-slate-200 bg-slate-100'
              }`}
            >
              <h2 id={`board-${stage}`} className="flex items-center justify-between gap-2 px-1 py-1 text-sm font-semibold text-slate-900">
                <span>{STAGE_LABELS[stage]}</span>
                <span className="sr-only">: </span>
                <span className="rounded-full bg-white px-2 py-0.5 text-xs text-slate-700 ring-1 ring-slate-200 ring-inset">
                  {count.toLocaleString('en-US')}
                  <span className="sr-only"> {count === 1 ? 'loan' : 'loans'}</span>
                </span>
              </h2>
              {loading && !page ? (
                <p className="flex items-center gap-2 px-1 py-4 text-sm text-slate-600">
                  <Spinner /> Loading
                </p>
              ) : (
                <ul className="mt-1 flex flex-col gap-2">
                  {rows.map((row) => (
                    <Card
                      key={row.id}
                      row={row}
                      busy={movingId === row.id}
                      onMove={onMove}
                      onDragStart={(event) => {
                        event.dataTransfer.setData(CARD_TYPE, row.id);
                        // Some browsers start a drag only with a plain-text payload.
                        event.dataTransfer.setData('text/plain', `${row.borrowerName}, ${row.property}`);
                        event.dataTransfer.effectAllowed = 'move';
                        setDragged(row);
                      }}
                      onDragEnd={() => {
                        setDragged(null);
                        setOver(null);
                      }}
                    />
                  ))}
                  {rows.length === 0 ? <li className="px-1 py-3 text-sm text-slate-600">No loans</li> : null}
                </ul>
              )}
              {count > rows.length && rows.length > 0 ? (
                <Link to={moreHref} className="mt-2 rounded px-1 py-1 text-sm font-semibold text-navy-700 underline-offset-4 hover:underline">
                  {plural(count - rows.length, 'more loan', 'more loans')} in the list
                  <span className="sr-only"> at {STAGE_LABELS[stage]}</span>
                </Link>
              ) : null}
            </li>
          );
        })}
      </ol>
    </div>
  );
}

function Card({
  row,
  busy,
  onMove,
  onDragStart,
  onDragEnd,
}: {
  row: PipelineRow;
  busy: boolean;
  onMove: (row: PipelineRow, to: LoanStage) => void;
  onDragStart: (event: DragEvent) => void;
  onDragEnd: () => void;
}) {
  const movable = !row.archived && !busy;
  return (
    <li
      draggable={movable}
      onDragStart={onDragStart}
      onDragEnd={onDragEnd}
      aria-busy={busy || undefined}
      data-loan-id={row.id}
      className={`rounded-lg border border-slate-200 bg-white px-2.5 py-2 text-sm shadow-sm ${movable ? 'cursor-grab active:cursor-grabbing' : ''} ${busy ? 'opacity-60' : ''}`}
    >
      <div className="flex items-start justify-between gap-2">
        <span className="min-w-0">
          <Link to={paths.loanHref(row.id)} draggable={false} className="font-semibold text-navy-800 underline-offset-4 hover:underline">
            {row.borrowerName}
          </Link>
          {row.entityName ? <span className="block truncate text-xs text-slate-600">{row.entityName}</span> : null}
        </span>
        <UnreadBadge count={row.unreadComments} className="shrink-0" />
      </div>
      <p className="mt-0.5 truncate text-slate-700" title={row.property}>
        {row.property}
      </p>
      <div className="mt-1.5 flex flex-wrap items-center justify-between gap-x-2">
        <span className="min-w-0 text-xs text-slate-600">
          <span className="font-semibold text-slate-900 tabular-nums">{formatWholeDollars(row.loanAmountCents)}</span>
          <span className="block">
            {plural(row.daysInStage, 'day', 'days')} in stage ·{' '}
            {row.outstandingDocuments > 0 ? `${row.outstandingDocuments.toLocaleString('en-US')} docs owed` : 'no docs owed'}
            <span className="sr-only">
              {row.outstandingDocuments > 0 ? ` (${plural(row.outstandingDocuments, 'document', 'documents')} outstanding)` : ' (no documents outstanding)'}
            </span>
          </span>
        </span>
        <MoveMenu row={row} busy={busy} onMove={onMove} />
      </div>
    </li>
  );
}
