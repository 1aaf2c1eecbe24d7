import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { InviteBrokerResult, ListWaitlistResult } from '../../../../shared/schemas/admin';
import { apiFetch } from '../../../lib/api-client';
import { WAITLIST_KEY } from './list-waitlist';

export function inviteBroker(entryId: string) {
  return apiFetch<InviteBrokerResult>(`/api/admin/waitlist/${encodeURIComponent(entryId)}/invite`, { method: 'POST' });
}

/** The invited entry shows its new status in every view of the waitlist at once. */
export function useInviteBroker() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: inviteBroker,
    onSuccess: ({ entry }) =>
      queryClient.setQueriesData<ListWaitlistResult>({ queryKey: WAITLIST_KEY }, (result) =>
        result ? { ...result, entries: result.entries.map((e) => (e.id === entry.id ? entry : e)) } : result,
      ),
  });
}
