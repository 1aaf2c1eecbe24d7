import type { AuditAction } from '../../../../shared/schemas/audit';

/** One page of the log: older than `before` (an event id), of one action or all. */
export interface AuditPageQuery {
  before?: number | undefined;
  action?: AuditAction | undefined;
}

/** The query string of an audit page; empty values are left out. */
export function auditQueryString({ before, action }: AuditPageQuery): string {
  const params = new URLSearchParams();
  if (before !== undefined) params.set('before', String(before));
  if (action) params.set('action', action);
  const text = params.toString();
  return text ? `?${text}` : '';
}
