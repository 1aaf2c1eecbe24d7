import type { AuditPage } from '../../../../shared/schemas/audit';
import { apiFetch } from '../../../lib/api-client';
import { auditQueryString, type AuditPageQuery } from './audit-query';

/** The team's own audit log (owners). */
export function listTeamAudit(teamId: string, query: AuditPageQuery, signal?: AbortSignal) {
  return apiFetch<AuditPage>(`/api/teams/${encodeURIComponent(teamId)}/audit${auditQueryString(query)}`, { signal });
}
