import { daysInStage, STAGE_LABELS, type LoanStage } from '../../shared/domain/loan-stages';
import { formatPropertyAddress, LOAN_PURPOSE_LABELS } from '../../shared/domain/loan-fields';
import { CSV_ROWS_MAX, type PipelinePage, type PipelineQuery, type PipelineRow } from '../../shared/schemas/loans';
import { formatDollarsDecimal } from '../../shared/money';
import type { Db } from '../db/client';
import { unreadCommentCounts } from '../comments/unread-counts';
import { csvFile, csvRow } from '../platform/http/csv';
import { teamProgress } from './loan-record';
import * as q from './loans.queries';

/** Today in UTC, unless the browser said what its today is. */
const todayOf = (query: PipelineQuery, now: Date) => query.today ?? now.toISOString().slice(0, 10);

function pipelineRow(
  { loan, assigneeName, assigneeEmail }: { loan: q.PipelineLoan; assigneeName: string | null; assigneeEmail: string | null },
  now: Date,
  unreadComments = 0,
): PipelineRow {
  return {
    id: loan.id,
    borrowerName: loan.borrowerName,
    borrowerEmail: loan.borrowerEmail,
    entityName: loan.entityName,
    property: formatPropertyAddress(loan),
    propertyCity: loan.propertyCity,
    propertyState: loan.propertyState,
    loanAmountCents: loan.loanAmountCents,
    purpose: loan.purpose,
    stage: loan.stage,
    leftFromStage: loan.leftFromStage,
    progress: teamProgress(loan),
    requiredDocuments: loan.requiredItems,
    approvedDocuments: loan.approvedItems,
    outstandingDocuments: loan.outstandingItems,
    daysInStage: daysInStage(loan.stageEnteredAt, now),
    targetClosingDate: loan.targetClosingDate,
    lastActivityAt: loan.lastActivityAt.toISOString(),
    assignee: loan.assigneeId && assigneeName ? { id: loan.assigneeId, name: assigneeName, email: assigneeEmail ?? '' } : null,
    lenderLoanNumber: loan.lenderLoanNumber,
    archived: loan.archivedAt !== null,
    unreadComments,
  };
}

/**
 * One page of the team's pipeline in the asked view, with the loans per stage
 * of that view, and on each row the comments `userId` has not read: counted
 * for the page's rows once the page is chosen, while the stage counts run.
 */
export async function pipeline(db: Db, teamId: string, userId: string, query: PipelineQuery, now = new Date()): Promise<PipelinePage> {
  const today = todayOf(query, now);
  const [[rows, unread], counts] = await Promise.all([
    q
      .pipelinePage(db, teamId, query, today)
      .then(async (page) => [page, await unreadCommentCounts(db, { userId, audience: 'team', loanIds: page.map((row) => row.loan.id) })] as const),
    q.pipelineStageCounts(db, teamId, query, today),
  ]);
  const stageCounts: Partial<Record<LoanStage, number>> = {};
  for (const { stage, n } of counts) stageCounts[stage] = Number(n);
  const stages = query.stage && query.stage.length > 0 ? query.stage : (Object.keys(stageCounts) as LoanStage[]);
  const total = stages.reduce((sum, stage) => sum + (stageCounts[stage] ?? 0), 0);
  return { rows: rows.map((row) => pipelineRow(row, now, unread.get(row.loan.id))), total, page: query.page, size: query.size, stageCounts };
}

const CSV_HEADER = [
  'Borrower',
  'Borrower e-mail',
  'Entity',
  'Property',
  'Purpose',
  'Loan amount',
  'Stage',
  'Progress %',
  'Outstanding docs',
  'Days in stage',
  'Target closing',
  'Last activity (UTC)',
  'Assignee',
  'Lender loan number',
];

/** The whole current view (every page, up to CSV_ROWS_MAX rows) as a formula-safe CSV. */
export async function pipelineCsv(db: Db, teamId: string, query: PipelineQuery, now = new Date()): Promise<string> {
  const rows = (await q.pipelineAll(db, teamId, query, todayOf(query, now), CSV_ROWS_MAX)).map((row) => pipelineRow(row, now));
  return csvFile(
    CSV_HEADER,
    rows.map((r) =>
      csvRow([
        r.borrowerName,
        r.borrowerEmail,
        r.entityName,
        r.property,
        LOAN_PURPOSE_LABELS[r.purpose],
        formatDollarsDecimal(r.loanAmountCents),
        STAGE_LABELS[r.stage],
        r.progress,
        r.outstandingDocuments,
        r.daysInStage,
        r.targetClosingDate,
        r.lastActivityAt,
        r.assignee?.name,
        r.lenderLoanNumber,
      ]),
    ),
  );
}

export const pipelineCsvFilename = (now: Date) => `pipeline-${now.toISOString().slice(0, 10)}.csv`;
