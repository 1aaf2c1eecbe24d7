import type { ListWaitlistQueryInput, ListWaitlistResult } from '../../../../shared/schemas/admin';
import { apiFetch } from '../../../lib/api-client';

/** The query string of a waitlist view; empty values are left out. */
export function waitlistQueryString(query: ListWaitlistQueryInput): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value) params.set(key, value);
  const text = params.toString();
  return text ? `?${text}` : '';
}

export function listWaitlist(query: ListWaitlistQueryInput, signal?: AbortSignal) {
  return apiFetch<ListWaitlistResult>(`/api/admin/waitlist${waitlistQueryString(query)}`, { signal });
}
