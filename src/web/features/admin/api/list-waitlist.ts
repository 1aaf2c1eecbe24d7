import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
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

/** Every view of the waitlist (search, filter, sort) starts with this key. */
export const WAITLIST_KEY = ['admin', 'waitlist'] as const;

export const waitlistQueryOptions = (query: ListWaitlistQueryInput) =>
  queryOptions({
    queryKey: [...WAITLIST_KEY, query],
    queryFn: ({ signal }) => listWaitlist(query, signal),
    meta: { failure: 'Loading the waitlist failed' },
  });

/** While another view loads, the last one stays in view. */
export function useWaitlist(query: ListWaitlistQueryInput) {
  return useQuery({ ...waitlistQueryOptions(query), placeholderData: keepPreviousData });
}
