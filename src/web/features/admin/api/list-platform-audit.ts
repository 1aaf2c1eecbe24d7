import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import type { AuditAction } from '../../../../shared/domain/audit-actions';
import type { AuditPage } from '../../../../shared/schemas/audit';
import { apiFetch } from '../../../lib/api-client';
import { auditPages, auditQueryString, type AuditPageQuery } from '../../../lib/api/audit-query';

/** The whole platform's audit log (platform admins). */
export function listPlatformAudit(query: AuditPageQuery, signal?: AbortSignal) {
  return apiFetch<AuditPage>(`/api/admin/audit${auditQueryString(query)}`, { signal });
}

/** Newest first, a page at a time ("Load older"), of one action or all. */
export const platformAuditQueryOptions = (action: AuditAction | undefined) =>
  infiniteQueryOptions({
    queryKey: ['admin', 'audit', action ?? 'all'],
    queryFn: ({ pageParam, signal }) => listPlatformAudit({ before: pageParam, action }, signal),
    ...auditPages,
  });

/** While another action's events load, the last ones stay in view. */
export function usePlatformAudit(action: AuditAction | undefined) {
  return useInfiniteQuery({ ...platformAuditQueryOptions(action), placeholderData: keepPreviousData });
}
