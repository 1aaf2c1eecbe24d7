import type { AuditEntry, AuditPerson } from '../audit/audit';
import { AppError } from '../../shared/errors';
import {
  JOB_LIST_LIMIT,
  WAITLIST_LIST_LIMIT,
  type AdminWaitlistEntry,
  type FailedJob,
  type InviteBrokerResult,
  type ListJobsQuery,
  type ListJobsResult,
  type ListWaitlistQuery,
  type ListWaitlistResult,
  type RetryJobResult,
} from '../../shared/schemas/admin';
import type { Db } from '../db/client';
import type { WaitlistEntry } from '../db/schema';
import { createInvitationIn } from '../accounts/invitations';
import { retryDeadJobs } from '../platform/jobs/outbox';
import { waitlistCsv, waitlistCsvFilename } from './admin.csv';
import { listJobs, listWaitlistEntries, markWaitlistEntryInvited } from './admin.queries';

export interface AdminDeps {
  db: Db;
  publicUrl: string;
  brandName: string;
}

const toAdminEntry = (entry: WaitlistEntry): AdminWaitlistEntry => ({
  id: entry.id,
  fullName: entry.fullName,
  email: entry.email,
  phone: entry.phone,
  company: entry.company,
  status: entry.status,
  submissions: entry.submissions,
  createdAt: entry.createdAt.toISOString(),
  invitedAt: entry.invitedAt?.toISOString() ?? null,
});

export async function listWaitlist(deps: Pick<AdminDeps, 'db'>, query: ListWaitlistQuery): Promise<ListWaitlistResult> {
  const { entries, total } = await listWaitlistEntries(deps.db, query, WAITLIST_LIST_LIMIT);
  return { entries: entries.map(toAdminEntry), total, truncated: total > entries.length };
}

/** Every entry matching the query (no row cap), as a CSV file. */
export async function exportWaitlistCsv(deps: Pick<AdminDeps, 'db'>, query: ListWaitlistQuery, now = new Date()): Promise<{ filename: string; body: string }> {
  const { entries } = await listWaitlistEntries(deps.db, query);
  return { filename: waitlistCsvFilename(now), body: waitlistCsv(entries) };
}

/**
 * Invites a waitlist entry as a broker: the invitation, its e-mail job and the
 * entry's new status commit together. Inviting an entry again sends a fresh
 * invitation (the first may have expired or been lost).
 */
export async function inviteBroker(
  deps: AdminDeps,
  input: { entryId: string; inviter: AuditPerson; origin: AuditEntry['origin'] },
): Promise<InviteBrokerResult> {
  return deps.db.transaction(async (tx) => {
    const entry = await markWaitlistEntryInvited(tx, input.entryId);
    if (!entry) throw new AppError('not_found', 'There is no waitlist entry with this id');
    const { invitation } = await createInvitationIn(tx, deps, { email: entry.email, role: 'broker', inviter: input.inviter, origin: input.origin });
    return { entry: toAdminEntry(entry), invitation: { email: invitation.email, expiresAt: invitation.expiresAt.toISOString() } };
  });
}

export async function listFailedJobs(deps: Pick<AdminDeps, 'db'>, query: ListJobsQuery): Promise<ListJobsResult> {
  const rows = await listJobs(deps.db, query, JOB_LIST_LIMIT);
  // The query selected only jobs in the asked-for status, which is dead or pending.
  const jobs = rows.map((row): FailedJob => ({ ...row, status: query.status, updatedAt: row.updatedAt.toISOString() }));
  return { jobs };
}

/** Puts one dead job back in the queue with fresh attempts; 404 when it is not a dead job. */
export async function retryJob(deps: Pick<AdminDeps, 'db'>, id: number): Promise<RetryJobResult> {
  const retried = await retryDeadJobs(deps.db, [id]);
  if (retried === 0) throw new AppError('not_found', 'There is no failed job with this id');
  return { id, status: 'pending' };
}
