import type { AuditAction } from '../../../shared/domain/audit-actions';
import type { AuditPage } from '../../../shared/schemas/audit';

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

/** How either log pages: the first page has no `before`; each page names the next (older) one, until the last. */
export const auditPages = {
  initialPageParam: undefined as number | undefined,
  getNextPageParam: (page: AuditPage) => page.nextBefore ?? undefined,
  meta: { failure: 'Loading the audit log failed' },
};
