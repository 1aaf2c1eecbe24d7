import { and, desc, eq, lt, type SQL } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { AUDIT_PAGE_SIZE, type AuditAction, type AuditPage, type AuditQuery } from '../../shared/schemas/audit';
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

/** Newest first, one page at a time; `teamId` null lists the whole platform. */
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
  return {
    events: page.map((row) => ({
      id: row.id,
      at: row.at.toISOString(),
      action: row.action,
      actorEmail: row.actorEmail,
      subjectEmail: row.subjectEmail,
      teamId: row.teamId,
      ip: row.ip,
      userAgent: row.userAgent,
      data: row.data,
    })),
    nextBefore: rows.length > AUDIT_PAGE_SIZE ? (page.at(-1)?.id ?? null) : null,
  };
}
