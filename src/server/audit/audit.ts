import { and, desc, eq, lt, type SQL } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { AUDIT_PAGE_SIZE, type AuditAction, type AuditEvent, type AuditPage, type AuditQuery } from '../../shared/schemas/audit';
import type { Db } from '../db/client';
import { auditEvent, teamMember } from '../db/schema';

export interface AuditPerson {
  id: string;
  email: string;
}

export interface AuditEntry {
  action: AuditAction;
  actor: AuditPerson | null;
  subject?: AuditPerson | { id: null; email: string } | null;
  /** The team whose owners see the row. Left out: the actor's team (or the subject's), if any. */
  teamId?: string | null;
  /** Where the request came from. */
  origin?: { ip: string | null; userAgent: string | null };
  data?: Record<string, string | number | boolean | null>;
}

/** Where a request came from, as the audit log records it. */
export const auditOrigin = (request: FastifyRequest) => ({ ip: request.ip ?? null, userAgent: request.headers['user-agent']?.slice(0, 300) ?? null });

async function teamOf(db: Db, userId: string | null | undefined) {
  if (!userId) return null;
  const [row] = await db.select({ teamId: teamMember.teamId }).from(teamMember).where(eq(teamMember.userId, userId));
  return row?.teamId ?? null;
}

/**
 * Appends one row to the audit log, in the caller's transaction when given
 * one, so the action and its record commit together.
 */
export async function recordAudit(db: Db, entry: AuditEntry): Promise<void> {
  const teamId = entry.teamId !== undefined ? entry.teamId : ((await teamOf(db, entry.actor?.id)) ?? (await teamOf(db, entry.subject?.id)));
  await db.insert(auditEvent).values({
    action: entry.action,
    actorId: entry.actor?.id ?? null,
    actorEmail: entry.actor?.email ?? null,
    subjectId: entry.subject?.id ?? null,
    subjectEmail: entry.subject?.email ?? null,
    teamId,
    ip: entry.origin?.ip ?? null,
    userAgent: entry.origin?.userAgent ?? null,
    data: entry.data ?? {},
  });
}

/** What a team does with its loans and their borrowers; on a loan invitation, `data.loanId`. */
const LOAN_ACTIONS: ReadonlySet<string> = new Set<AuditAction>(['loan.created', 'loan.deleted', 'participant.invited', 'participant.removed']);
const PARTICIPANT_ROLES: ReadonlySet<unknown> = new Set(['borrower', 'co_borrower']);

/**
 * A row about a team's loan or its borrowers: a loan created or deleted, a
 * borrower invited, removed, an invitation to a loan withdrawn or accepted.
 */
export function isLoanEvent(row: { action: string; data: Record<string, unknown> }): boolean {
  return LOAN_ACTIONS.has(row.action) || Object.hasOwn(row.data, 'loanId') || (row.action.startsWith('invitation.') && PARTICIPANT_ROLES.has(row.data.role));
}

/**
 * An event as the platform log shows it (decision 007). Admins hold no role
 * on loans, so of a team's loan and participant events they see that one
 * happened (action, team, time) and nothing of the loan, its borrowers, who
 * did it or from where; every other event in full.
 */
export function platformAuditEvent(event: AuditEvent): AuditEvent {
  if (!isLoanEvent(event)) return event;
  return { id: event.id, at: event.at, action: event.action, teamId: event.teamId, actorEmail: null, subjectEmail: null, ip: null, userAgent: null, data: {} };
}

/** Newest first, one page at a time; `teamId` null lists the whole platform, loan events reduced to their fact (`platformAuditEvent`). */
export async function listAudit(db: Db, scope: { teamId: string | null }, query: AuditQuery): Promise<AuditPage> {
  const where: SQL[] = [];
  if (scope.teamId) where.push(eq(auditEvent.teamId, scope.teamId));
  if (query.before) where.push(lt(auditEvent.id, query.before));
  if (query.action) where.push(eq(auditEvent.action, query.action));
  const rows = await db
    .select()
    .from(auditEvent)
    .where(and(...where))
    .orderBy(desc(auditEvent.id))
    .limit(AUDIT_PAGE_SIZE + 1);
  const page = rows.slice(0, AUDIT_PAGE_SIZE);
  const events = page.map((row): AuditEvent => ({
    id: row.id,
    at: row.at.toISOString(),
    action: row.action,
    actorEmail: row.actorEmail,
    subjectEmail: row.subjectEmail,
    teamId: row.teamId,
    ip: row.ip,
    userAgent: row.userAgent,
    data: row.data,
  }));
  return {
    events: scope.teamId ? events : events.map(platformAuditEvent),
    nextBefore: rows.length > AUDIT_PAGE_SIZE ? (page.at(-1)?.id ?? null) : null,
  };
}
