import type { AuditPage } from '../../../../shared/schemas/audit';
import { apiFetch } from '../../../lib/api-client';
import { auditQueryString, type AuditPageQuery } from './audit-query';

/** The whole platform's audit log (platform admins). */
export function listPlatformAudit(query: AuditPageQuery, signal?: AbortSignal) {
  return apiFetch<AuditPage>(`/api/admin/audit${auditQueryString(query)}`, { signal });
}
