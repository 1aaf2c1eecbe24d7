import { and, asc, count, eq, gte, inArray, isNotNull, isNull, lt, lte, notInArray, sql, type SQL } from 'drizzle-orm';
import type { LoanRole } from '../../shared/domain/access';
import { MAIN_STAGE_STEPS, MAIN_STAGES, STAGE_WEIGHT_PERCENT, type LoanStage, type MainStage } from '../../shared/domain/loan-stages';
import type { PipelineQuery } from '../../shared/schemas/loans';
import type { Db } from '../db/client';
import { loan, loanParticipant, stageChange, team, teamMember, user, type LoanRow } from '../db/schema';

/** The caller's role on a loan: through its team, as a participant, or none (also for a loan that does not exist). */
export async function loanRoleOf(db: Db, loanId: string, who: { userId: string; team: { id: string; role: 'owner' | 'assistant' } | null }): Promise<LoanRole> {
  const [row] = await db
    .select({ teamId: loan.teamId, participantRole: loanParticipant.role })
    .from(loan)
    .leftJoin(loanParticipant, and(eq(loanParticipant.loanId, loan.id), eq(loanParticipant.userId, who.userId)))
    .where(eq(loan.id, loanId));
  if (!row) return { kind: 'none' };
  if (who.team && who.team.id === row.teamId) return { kind: 'team', role: who.team.role };
  if (row.participantRole) return { kind: 'participant', role: row.participantRole };
  return { kind: 'none' };
}

export async function findLoan(db: Db, loanId: string): Promise<LoanRow | undefined> {
  const [row] = await db.select().from(loan).where(eq(loan.id, loanId));
  return row;
}

/** The loan, locked until the transaction ends (edits and stage moves serialise on it). */
export async function lockLoan(db: Db, loanId: string): Promise<LoanRow | undefined> {
  const [row] = await db.select().from(loan).where(eq(loan.id, loanId)).for('update');
  return row;
}

export async function insertLoan(db: Db, values: typeof loan.$inferInsert): Promise<LoanRow> {
  const [row] = await db.insert(loan).values(values).returning();
  if (!row) throw new Error('insertLoan returned no row');
  return row;
}

/** Writes `values`, bumps the version and the last activity time. */
export async function updateLoanRow(db: Db, loanId: string, values: Partial<typeof loan.$inferInsert>): Promise<LoanRow> {
  const [row] = await db
    .update(loan)
    .set({ ...values, version: sql`${loan.version} + 1`, updatedAt: sql`now()`, lastActivityAt: sql`now()` })
    .where(eq(loan.id, loanId))
    .returning();
  if (!row) throw new Error('updateLoanRow found no loan');
  return row;
}

/**
 * Moves the loan from `from` to `to` only if it is still at `from`: under
 * concurrent moves the second finds the row changed and gets nothing back.
 */
export async function moveLoanStage(db: Db, loanId: string, from: LoanStage, to: LoanStage, leftFromStage: MainStage | null): Promise<LoanRow | undefined> {
  const [row] = await db
    .update(loan)
    .set({
      stage: to,
      leftFromStage,
      stageEnteredAt: sql`now()`,
      version: sql`${loan.version} + 1`,
      updatedAt: sql`now()`,
      lastActivityAt: sql`now()`,
    })
    .where(and(eq(loan.id, loanId), eq(loan.stage, from)))
    .returning();
  return row;
}

export async function deleteLoanRow(db: Db, loanId: string) {
  await db.delete(loan).where(eq(loan.id, loanId));
}

export async function insertStageChange(
  db: Db,
  values: { loanId: string; fromStage: LoanStage | null; toStage: LoanStage; byId: string | null; note: string | null },
) {
  await db.insert(stageChange).values(values);
}

export async function listStageChanges(db: Db, loanId: string) {
  return db
    .select({
      id: stageChange.id,
      from: stageChange.fromStage,
      to: stageChange.toStage,
      note: stageChange.note,
      at: stageChange.at,
      byId: user.id,
      byName: user.name,
      byEmail: user.email,
    })
    .from(stageChange)
    .leftJoin(user, eq(user.id, stageChange.byId))
    .where(eq(stageChange.loanId, loanId))
    .orderBy(asc(stageChange.id));
}

/** A member of the team (for the assignee), with their work phone. */
export async function findTeamMember(db: Db, teamId: string, userId: string) {
  const [row] = await db
    .select({ id: user.id, name: user.name, email: user.email, phone: teamMember.phone, role: teamMember.role })
    .from(teamMember)
    .innerJoin(user, eq(user.id, teamMember.userId))
    .where(and(eq(teamMember.teamId, teamId), eq(teamMember.userId, userId)));
  return row;
}

/** A member of the team with this e-mail address, if any. */
export async function findTeamMemberByEmail(db: Db, teamId: string, email: string) {
  const [row] = await db
    .select({ id: user.id })
    .from(teamMember)
    .innerJoin(user, eq(user.id, teamMember.userId))
    .where(and(eq(teamMember.teamId, teamId), eq(sql`lower(${user.email})`, email.toLowerCase())));
  return row;
}

export async function findUserRef(db: Db, userId: string | null) {
  if (!userId) return undefined;
  const [row] = await db.select({ id: user.id, name: user.name, email: user.email }).from(user).where(eq(user.id, userId));
  return row;
}

export async function findTeamThresholds(db: Db, teamId: string) {
  const [row] = await db.select({ strong: team.dscrStrongCenti, eligible: team.dscrEligibleCenti }).from(team).where(eq(team.id, teamId));
  return { strong: (row?.strong ?? 125) / 100, eligible: (row?.eligible ?? 100) / 100 };
}

// ---- The pipeline ----

const STAGE_ORDER = sql.raw(`array[${[...MAIN_STAGES, 'withdrawn', 'declined'].map((s) => `'${s}'`).join(', ')}]::text[]`);
const stagePosition = sql`array_position(${STAGE_ORDER}, ${loan.stage})`;

/**
 * `loanProgress` (shared/domain/loan-stages.ts) of the row, in SQL, for the
 * progress sort: the same fraction of whole numbers, rounded half up in
 * integer arithmetic (⌊(2n + d) ÷ 2d⌋), so it equals the figure each row shows.
 */
const MAIN_LINE = sql.raw(`array[${MAIN_STAGES.map((s) => `'${s}'`).join(', ')}]::text[]`);
const step = sql`(array_position(${MAIN_LINE}, case when ${loan.stage} in ('withdrawn', 'declined') then coalesce(${loan.leftFromStage}, 'lead') else ${loan.stage} end) - 1)`;
const S = sql.raw(String(MAIN_STAGE_STEPS));
const W = sql.raw(String(STAGE_WEIGHT_PERCENT));
const W2 = sql.raw(String(100 - STAGE_WEIGHT_PERCENT));
export const progressSortKey = sql`(case
  when ${step} = ${S} then 100
  when ${loan.requiredItems} = 0 then (200 * ${step} + ${S}) / (2 * ${S})
  else (2 * (${W} * ${step} * ${loan.requiredItems} + ${W2} * ${S} * ${loan.approvedItems}) + ${S} * ${loan.requiredItems}) / (2 * ${S} * ${loan.requiredItems})
end)`;

/** "YYYY-MM-DD" plus `days`. */
function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** The last day of the window, from `today` (the week ends on Sunday; the month on its last day). */
export function closingWindowEnd(window: 'this_week' | 'this_month', today: string): string {
  const date = new Date(`${today}T00:00:00Z`);
  if (window === 'this_week') return addDays(today, (7 - date.getUTCDay()) % 7);
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).toISOString().slice(0, 10);
}

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The pipeline's WHERE, apart from the stage filter (the stage counts ignore it). */
function pipelineFilters(teamId: string, query: PipelineQuery, today: string): SQL[] {
  const where: SQL[] = [eq(loan.teamId, teamId)];
  switch (query.status) {
    case 'open':
      where.push(isNull(loan.archivedAt), notInArray(loan.stage, ['funded', 'withdrawn', 'declined']));
      break;
    case 'funded':
      where.push(isNull(loan.archivedAt), eq(loan.stage, 'funded'));
      break;
    case 'closed':
      where.push(isNull(loan.archivedAt), inArray(loan.stage, ['withdrawn', 'declined']));
      break;
    case 'archived':
      where.push(isNotNull(loan.archivedAt));
      break;
  }
  if (query.assignee === 'none') where.push(isNull(loan.assigneeId));
  else if (query.assignee) where.push(eq(loan.assigneeId, query.assignee));
  if (query.closing === 'overdue') where.push(lt(loan.targetClosingDate, today));
  else if (query.closing) where.push(gte(loan.targetClosingDate, today), lte(loan.targetClosingDate, closingWindowEnd(query.closing, today)));
  const words = (query.q ?? '').toLowerCase().split(/\s+/).filter(Boolean).slice(0, 8);
  for (const word of words) where.push(sql`${loan.searchText} like ${`%${escapeLike(word)}%`}`);
  return where;
}

function pipelineOrder(query: PipelineQuery): SQL[] {
  const defaultDir = query.sort === 'last_activity' || query.sort === 'amount' || query.sort === 'days_in_stage' ? 'desc' : 'asc';
  const dir = query.dir ?? defaultDir;
  const by = (column: SQL | typeof loan.id) => (dir === 'asc' ? sql`${column} asc nulls last` : sql`${column} desc nulls last`);
  // A column that is never null sorts without `nulls last`, so its index serves both directions.
  const byNotNull = (column: SQL) => (dir === 'asc' ? sql`${column} asc` : sql`${column} desc`);
  const column: Record<PipelineQuery['sort'], SQL> = {
    borrower: sql`lower(${loan.borrowerName})`,
    property: sql`lower(${loan.propertyStreet})`,
    amount: sql`${loan.loanAmountCents}`,
    stage: stagePosition,
    progress: progressSortKey,
    outstanding: sql`${loan.outstandingItems}`,
    // More days in stage = entered earlier.
    days_in_stage: sql`(now() - ${loan.stageEnteredAt})`,
    closing: sql`${loan.targetClosingDate}`,
    last_activity: sql`${loan.lastActivityAt}`,
    assignee: sql`lower(${user.name})`,
  };
  const first = query.sort === 'outstanding' || query.sort === 'progress' ? byNotNull(column[query.sort]) : by(column[query.sort]);
  return [first, dir === 'asc' ? sql`${loan.id} asc` : sql`${loan.id} desc`];
}

/**
 * What a pipeline row shows, and nothing else: a third of the loan's columns
 * (no rents, taxes, notes or search text), so the database sends, pg parses
 * and drizzle maps only what the page uses (bench/results/pipeline.md).
 */
const PIPELINE_COLUMNS = {
  id: loan.id,
  borrowerName: loan.borrowerName,
  borrowerEmail: loan.borrowerEmail,
  entityName: loan.entityName,
  propertyStreet: loan.propertyStreet,
  propertyUnit: loan.propertyUnit,
  propertyCity: loan.propertyCity,
  propertyState: loan.propertyState,
  propertyZip: loan.propertyZip,
  loanAmountCents: loan.loanAmountCents,
  purpose: loan.purpose,
  stage: loan.stage,
  leftFromStage: loan.leftFromStage,
  stageEnteredAt: loan.stageEnteredAt,
  targetClosingDate: loan.targetClosingDate,
  lastActivityAt: loan.lastActivityAt,
  assigneeId: loan.assigneeId,
  lenderLoanNumber: loan.lenderLoanNumber,
  archivedAt: loan.archivedAt,
  requiredItems: loan.requiredItems,
  approvedItems: loan.approvedItems,
  outstandingItems: loan.outstandingItems,
};
export type PipelineLoan = { [K in keyof typeof PIPELINE_COLUMNS]: LoanRow[K] };

/** The rows of one page of the view. */
export async function pipelinePage(db: Db, teamId: string, query: PipelineQuery, today: string) {
  const stageFilter = query.stage && query.stage.length > 0 ? [inArray(loan.stage, query.stage)] : [];
  return db
    .select({ loan: PIPELINE_COLUMNS, assigneeName: user.name, assigneeEmail: user.email })
    .from(loan)
    .leftJoin(user, eq(user.id, loan.assigneeId))
    .where(and(...pipelineFilters(teamId, query, today), ...stageFilter))
    .orderBy(...pipelineOrder(query))
    .limit(query.size)
    .offset((query.page - 1) * query.size);
}

/** The view's loans per stage, ignoring its stage filter. */
export async function pipelineStageCounts(db: Db, teamId: string, query: PipelineQuery, today: string) {
  return db
    .select({ stage: loan.stage, n: count() })
    .from(loan)
    .where(and(...pipelineFilters(teamId, query, today)))
    .groupBy(loan.stage);
}

/** Every loan of the view, for the CSV export (bounded). */
export async function pipelineAll(db: Db, teamId: string, query: PipelineQuery, today: string, limit: number) {
  const stageFilter = query.stage && query.stage.length > 0 ? [inArray(loan.stage, query.stage)] : [];
  return db
    .select({ loan: PIPELINE_COLUMNS, assigneeName: user.name, assigneeEmail: user.email })
    .from(loan)
    .leftJoin(user, eq(user.id, loan.assigneeId))
    .where(and(...pipelineFilters(teamId, query, today), ...stageFilter))
    .orderBy(...pipelineOrder(query))
    .limit(limit);
}
