import type { LoanRole, SignedInPrincipal } from '../../shared/domain/access';
import { toBorrowerLoanView } from '../../shared/domain/borrower-view';
import { AppError, invalidField } from '../../shared/errors';
import { analyseLoan } from '../../shared/domain/loan-dscr';
import { formatPropertyAddress } from '../../shared/domain/loan-fields';
import { canMoveStage, daysInStage, isExitStage, STAGE_LABELS, stageChangeNeedsReason, type MainStage } from '../../shared/domain/loan-stages';
import {
  WholeLoanSchema,
  type ChangeStage,
  type CreateLoan,
  type LoanDetail,
  type LoanInput,
  type LoanView,
  type UpdateLoan,
} from '../../shared/schemas/loans';
import { findTeam } from '../accounts/accounts.queries';
import type { AppContext } from '../app-context';
import { recordAudit, type AuditEntry } from '../audit/audit';
import { recordActivity } from '../activity/activity-log';
import { expireDocuments, lockExpiringItems, todayUtc } from '../checklist/expiry';
import { createLoanChecklist } from '../checklist/new-loan-checklist';
import type { Db } from '../db/client';
import type { LoanRow } from '../db/schema';
import { enqueueObjectDeletion, objectKeysOfLoans } from '../platform/files/file-objects';
import { parseInput } from '../platform/http/problem';
import { enqueueMail } from '../platform/mail/mail-jobs';
import { noticePaths } from '../../shared/domain/notifications';
import { notify } from '../notifications/notify';
import { logoPath } from '../teams/logo';
import { teamMailBrand } from '../teams/team-brand';
import { changedFields, loanColumnsOf, loanInputOf, teamProgress } from './loan-record';
import { assignmentMail, mailsBorrowers, stageChangeMail } from './loans.mail';
import { participantAddresses } from './participants.queries';
import * as q from './loans.queries';

export type LoanDeps = Pick<AppContext, 'db' | 'publicUrl' | 'config'>;
type Origin = AuditEntry['origin'];

const actorOf = (principal: SignedInPrincipal) => ({ id: principal.userId, email: principal.email });
const iso = (date: Date | null) => (date ? date.toISOString() : null);

/** The loan, or the same 404 as an unknown route (it was deleted between the access check and now). */
async function mustFind(db: Db, loanId: string, { lock = false } = {}): Promise<LoanRow> {
  const row = lock ? await q.lockLoan(db, loanId) : await q.findLoan(db, loanId);
  if (!row) throw new AppError('not_found', 'This loan does not exist');
  return row;
}

/** The assignee must be a member of the loan's team. */
async function checkAssignee(db: Db, teamId: string, assigneeId: string | null) {
  if (assigneeId === null) return null;
  const member = await q.findTeamMember(db, teamId, assigneeId);
  if (!member) throw invalidField('assigneeId', 'Choose a member of your team');
  return member;
}

/** Tells a newly assigned team member, in the team's branding (not when they assigned it to themselves). */
async function notifyAssignee(
  deps: Pick<LoanDeps, 'db' | 'publicUrl'>,
  tx: Db,
  row: LoanRow,
  assignee: { id: string; name: string; email: string } | null,
  by: SignedInPrincipal,
) {
  if (!assignee || assignee.id === by.userId) return;
  const team = await findTeam(tx, row.teamId);
  if (!team) return;
  // Sent only while they are on the loan's team when the job runs: a member removed meanwhile is not mailed the loan.
  await enqueueMail(tx, assignmentMail(assignee, row, by.name, { publicUrl: deps.publicUrl, brand: teamMailBrand(team, deps.publicUrl) }), {
    recipient: { userId: assignee.id, loanId: row.id, audience: 'team' },
  });
}

/** Tells the loan's borrowers and co-borrowers of its new stage (see `mailsBorrowers` for which moves), in the team's branding. */
async function notifyBorrowersOfStage(deps: LoanDeps, tx: Db, moved: LoanRow, from: LoanRow['stage']) {
  if (!mailsBorrowers(from, moved.stage)) return;
  const recipients = await participantAddresses(tx, moved.id);
  if (recipients.length === 0) return;
  const team = await findTeam(tx, moved.teamId);
  if (!team) return;
  const context = { publicUrl: deps.publicUrl, brand: teamMailBrand(team, deps.publicUrl) };
  for (const recipient of recipients) {
    await notify(
      tx,
      {
        userId: recipient.userId,
        email: recipient.email,
        kind: 'stage_change',
        loanId: moved.id,
        audience: 'shared',
        inbox: { title: `Your loan for ${moved.propertyStreet} is at ${STAGE_LABELS[moved.stage]}`, path: noticePaths.loan(moved.id) },
        mail: stageChangeMail(recipient, moved, moved.stage, context),
      },
      deps.config,
    );
  }
}

/** A loan as its team sees it: every field, the DSCR analysis against the team's thresholds, and its stage history. */
export async function loanDetail(db: Db, row: LoanRow, now = new Date()): Promise<LoanDetail> {
  // One after another: `db` is often a transaction, one connection that cannot run two queries at once.
  const thresholds = await q.findTeamThresholds(db, row.teamId);
  const assignee = await q.findUserRef(db, row.assigneeId);
  const history = await q.listStageChanges(db, row.id);
  const input = loanInputOf(row);
  return {
    ...input,
    id: row.id,
    teamId: row.teamId,
    version: row.version,
    stage: row.stage,
    leftFromStage: row.leftFromStage,
    stageEnteredAt: row.stageEnteredAt.toISOString(),
    daysInStage: daysInStage(row.stageEnteredAt, now),
    progress: teamProgress(row),
    archivedAt: iso(row.archivedAt),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    lastActivityAt: row.lastActivityAt.toISOString(),
    assignee: assignee ?? null,
    dscr: analyseLoan(input, thresholds),
    thresholds,
    stageHistory: history.map((h) => ({
      id: h.id,
      from: h.from,
      to: h.to,
      note: h.note,
      at: h.at.toISOString(),
      by: h.byId ? { id: h.byId, name: h.byName ?? '', email: h.byEmail ?? '' } : null,
    })),
  };
}

/** The loan as the caller may see it: the team's whole file, or a participant's projection of it (`toBorrowerLoanView`). */
export async function getLoan(deps: LoanDeps, loanId: string, role: Exclude<LoanRole, { kind: 'none' }>): Promise<LoanView> {
  const row = await mustFind(deps.db, loanId);
  const detail = await loanDetail(deps.db, row);
  if (role.kind === 'team') return { viewer: 'team', ...detail };
  const [team, contact] = await Promise.all([
    findTeam(deps.db, row.teamId),
    row.assigneeId ? q.findTeamMember(deps.db, row.teamId, row.assigneeId) : undefined,
  ]);
  if (!team) throw new AppError('not_found', 'This loan does not exist');
  return {
    viewer: 'borrower',
    ...toBorrowerLoanView({
      loan: detail,
      documents: { borrowerRequiredItems: row.borrowerRequiredItems, borrowerApprovedItems: row.borrowerApprovedItems },
      role: role.role,
      team: { name: team.name, accentColor: team.accentColor, logoUrl: logoPath(team.id, team.logoSha256) },
      contact: contact ? { name: contact.name, email: contact.email, phone: contact.phone } : null,
    }),
  };
}

/** Owners and assistants open a loan file: it starts at Lead, recorded in the history, the activity feed (one line, with its assignee) and the team's audit log. */
export async function createLoan(
  deps: Pick<LoanDeps, 'db' | 'publicUrl'>,
  principal: SignedInPrincipal,
  teamId: string,
  input: CreateLoan & LoanInput,
  origin: Origin,
): Promise<LoanDetail> {
  return deps.db.transaction(async (tx) => {
    const assignee = await checkAssignee(tx, teamId, input.assigneeId);
    const row = await q.insertLoan(tx, { ...loanColumnsOf(input), teamId, createdBy: principal.userId } as Parameters<typeof q.insertLoan>[1]);
    await q.insertStageChange(tx, { loanId: row.id, fromStage: null, toStage: 'lead', byId: principal.userId, note: null });
    // One line: the assignee at creation is part of it (a later change of assignee is a 'loan.assigned' of its own).
    await recordActivity(tx, row.id, {
      actorId: principal.userId,
      kind: 'loan.created',
      visibility: 'shared',
      data: { stage: 'lead', ...(assignee ? { assignee: { id: assignee.id, name: assignee.name } } : {}) },
    });
    const counters = await createLoanChecklist(tx, row, principal.userId);
    await recordAudit(tx, {
      action: 'loan.created',
      actor: actorOf(principal),
      teamId,
      origin,
      data: { loanId: row.id, borrower: row.borrowerName, property: formatPropertyAddress(row) },
    });
    await notifyAssignee(deps, tx, row, assignee ?? null, principal);
    return loanDetail(tx, { ...row, ...counters });
  });
}

/**
 * Edits any fields. The change is merged with the stored loan and the whole
 * is checked again (a 400 names each bad field); a stale `version` is a 409.
 * Every changed field is recorded (who, when, field, from → to).
 */
export async function updateLoan(deps: LoanDeps, principal: SignedInPrincipal, loanId: string, patch: UpdateLoan): Promise<LoanDetail> {
  return deps.db.transaction(async (tx) => {
    const { version: _version, ...fields } = patch;
    // A new closing date re-checks the approved documents against it (below); their rows are locked before the loan's, as everywhere.
    if ('targetClosingDate' in fields) await lockExpiringItems(tx, loanId);
    const row = await mustFind(tx, loanId, { lock: true });
    if (patch.version !== row.version) {
      throw new AppError('conflict', 'Someone else changed this loan while you were editing. Reload to see their changes, then edit again.');
    }
    const before = loanInputOf(row);
    const merged = parseInput(WholeLoanSchema, { ...before, ...fields }) as LoanInput;
    const changes = changedFields(before, pickKeys(merged, Object.keys(fields) as (keyof LoanInput)[]));
    if (changes.length === 0) return loanDetail(tx, row);
    const assigneeChanged = changes.some((c) => c.field === 'assigneeId');
    const assignee = assigneeChanged ? await checkAssignee(tx, row.teamId, merged.assigneeId) : null;
    const updated = await q.updateLoanRow(tx, loanId, loanColumnsOf(Object.fromEntries(changes.map((c) => [c.field, c.to]))));
    await recordActivity(tx, loanId, { actorId: principal.userId, kind: 'loan.updated', visibility: 'internal', data: { changes } });
    if (assigneeChanged) {
      await recordActivity(tx, loanId, { actorId: principal.userId, kind: 'loan.assigned', visibility: 'internal', data: { to: assignee?.name ?? null } });
      await notifyAssignee(deps, tx, updated, assignee ?? null, principal);
    }
    if (changes.some((c) => c.field === 'targetClosingDate')) await expireDocuments(tx, todayUtc(), { loanId });
    return loanDetail(tx, updated);
  });
}

function pickKeys<T extends object>(value: T, keys: (keyof T)[]): Partial<T> {
  return Object.fromEntries(keys.map((key) => [key, value[key]])) as Partial<T>;
}

/**
 * Moves the loan between stages. `from` is the stage the mover saw: when the
 * loan has moved since, the answer is a 409 naming where it is now, so two
 * moves at once never silently overwrite each other. Exits need a reason;
 * an exited loan only reopens to where it left.
 */
export async function changeStage(deps: LoanDeps, principal: SignedInPrincipal, loanId: string, input: ChangeStage): Promise<LoanDetail> {
  const note = input.note ?? null;
  return deps.db.transaction(async (tx) => {
    const row = await mustFind(tx, loanId, { lock: true });
    if (row.stage !== input.from) {
      throw new AppError('conflict', `This loan was moved to ${STAGE_LABELS[row.stage]} by someone else meanwhile. Reload to see it.`);
    }
    if (row.archivedAt) throw new AppError('conflict', 'This loan is archived: restore it before moving it');
    if (!canMoveStage(row.stage, input.to, { reopenTo: row.leftFromStage })) {
      const why = isExitStage(row.stage)
        ? `A ${STAGE_LABELS[row.stage].toLowerCase()} loan can only reopen to ${row.leftFromStage ? STAGE_LABELS[row.leftFromStage] : 'where it left'}`
        : `The loan is at ${STAGE_LABELS[input.to]} already`;
      throw invalidField('to', why);
    }
    if (stageChangeNeedsReason(input.to) && !note) throw invalidField('note', `Give the reason the loan is ${STAGE_LABELS[input.to].toLowerCase()}`);
    const leftFrom: MainStage | null = isExitStage(input.to) ? (row.stage as MainStage) : null;
    const moved = await q.moveLoanStage(tx, loanId, row.stage, input.to, leftFrom);
    if (!moved) throw new AppError('conflict', 'This loan was moved by someone else meanwhile. Reload to see it.');
    const reopened = isExitStage(row.stage);
    await q.insertStageChange(tx, { loanId, fromStage: row.stage, toStage: input.to, byId: principal.userId, note });
    await recordActivity(tx, loanId, {
      actorId: principal.userId,
      kind: reopened ? 'stage.reopened' : 'stage.changed',
      visibility: 'shared',
      data: { from: row.stage, to: input.to, ...(note ? { note } : {}) },
    });
    await notifyBorrowersOfStage(deps, tx, moved, row.stage);
    return loanDetail(tx, moved);
  });
}

/** Takes the loan off the pipeline (any team member); restorable. */
export async function setArchived(deps: LoanDeps, principal: SignedInPrincipal, loanId: string, archived: boolean): Promise<LoanDetail> {
  return deps.db.transaction(async (tx) => {
    const row = await mustFind(tx, loanId, { lock: true });
    if (Boolean(row.archivedAt) === archived) return loanDetail(tx, row);
    const updated = await q.updateLoanRow(tx, loanId, { archivedAt: archived ? new Date() : null });
    await recordActivity(tx, loanId, { actorId: principal.userId, kind: archived ? 'loan.archived' : 'loan.restored', visibility: 'internal' });
    return loanDetail(tx, updated);
  });
}

const normalise = (value: string) => value.trim().replace(/\s+/g, ' ').toLowerCase();

/** The property address as typed to confirm a deletion: the street line, or the whole address. */
export function confirmsAddress(row: LoanRow, typed: string): boolean {
  const candidates = [formatPropertyAddress(row), row.propertyUnit ? `${row.propertyStreet}, ${row.propertyUnit}` : row.propertyStreet, row.propertyStreet];
  return candidates.some((candidate) => normalise(candidate) === normalise(typed));
}

/** Owners only, after typing the property address. Gone for good; the team's audit log keeps the record. */
export async function deleteLoan(deps: LoanDeps, principal: SignedInPrincipal, loanId: string, confirmAddress: string, origin: Origin): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const row = await mustFind(tx, loanId, { lock: true });
    if (!confirmsAddress(row, confirmAddress)) throw invalidField('confirmAddress', `Type the property address (${row.propertyStreet}) to confirm`);
    // Its stored files' rows go with it; their objects are deleted once this commits.
    await enqueueObjectDeletion(tx, await objectKeysOfLoans(tx, [loanId]));
    await q.deleteLoanRow(tx, loanId);
    await recordAudit(tx, {
      action: 'loan.deleted',
      actor: actorOf(principal),
      teamId: row.teamId,
      origin,
      data: { loanId, borrower: row.borrowerName, property: formatPropertyAddress(row), stage: row.stage },
    });
  });
}
