import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import type { AuditAction } from '../../../../shared/domain/audit-actions';
import type { AuditPage } from '../../../../shared/schemas/audit';
import { apiFetch } from '../../../lib/api-client';
import { auditPages, auditQueryString, type AuditPageQuery } from '../../../lib/api/audit-query';
import { TEAM_SCOPE } from '../../../lib/query-client';

/** The team's own audit log (owners). */
export function listTeamAudit(teamId: string, query: AuditPageQuery, signal?: AbortSignal) {
  return apiFetch<AuditPage>(`/api/teams/${encodeURIComponent(teamId)}/audit${auditQueryString(query)}`, { signal });
}

/** Newest first, a page at a time ("Load older"), of one action or all. */
export const teamAuditQueryOptions = (teamId: string, action: AuditAction | undefined) =>
  infiniteQueryOptions({
    queryKey: [TEAM_SCOPE, teamId, 'audit', action ?? 'all'],
    queryFn: ({ pageParam, signal }) => listTeamAudit(teamId, { before: pageParam, action }, signal),
    ...auditPages,
  });

/** While another action's events load, the last ones stay in view. */
export function useTeamAudit(teamId: string, action: AuditAction | undefined) {
  return useInfiniteQuery({ ...teamAuditQueryOptions(teamId, action), placeholderData: keepPreviousData });
}
