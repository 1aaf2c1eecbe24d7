import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { RemindersView, SentReminders } from '../../../../shared/schemas/reminders';
import { apiFetch } from '../../../lib/api-client';
import { LOAN_SCOPE } from './get-loan';

const remindersUrl = (loanId: string) => `/api/loans/${encodeURIComponent(loanId)}/reminders`;

/** The loan's reminders as the team sees them: on or off, the last one, what is owed. */
export const remindersQueryOptions = (loanId: string) =>
  queryOptions({
    queryKey: [LOAN_SCOPE, loanId, 'reminders'],
    queryFn: ({ signal }) => apiFetch<RemindersView>(remindersUrl(loanId), { signal }),
    meta: { failure: 'Loading the reminders failed' },
  });

export function useReminders(loanId: string) {
  return useQuery(remindersQueryOptions(loanId));
}

/** Turns the loan's scheduled reminders on or off. */
export function useSetReminders(loanId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (enabled: boolean) => apiFetch<RemindersView>(remindersUrl(loanId), { method: 'PUT', body: { enabled } }),
    onSuccess: (view) => {
      queryClient.setQueryData(remindersQueryOptions(loanId).queryKey, view);
      void queryClient.invalidateQueries({ queryKey: [LOAN_SCOPE, loanId, 'activity'] });
    },
  });
}

/** Reminds every borrower who owes documents now, whatever the hour. */
export function useSendReminderNow(loanId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch<SentReminders>(`${remindersUrl(loanId)}/send`, { method: 'POST' }),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: remindersQueryOptions(loanId).queryKey });
      void queryClient.invalidateQueries({ queryKey: [LOAN_SCOPE, loanId, 'activity'] });
    },
  });
}
