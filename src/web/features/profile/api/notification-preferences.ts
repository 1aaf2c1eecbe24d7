import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { NotificationPreferences, UpdateNotificationPreferences } from '../../../../shared/schemas/notifications';
import { apiFetch } from '../../../lib/api-client';

export function getNotificationPreferences(signal?: AbortSignal) {
  return apiFetch<NotificationPreferences>('/api/me/notification-preferences', { signal });
}

export function updateNotificationPreferences(input: UpdateNotificationPreferences) {
  return apiFetch<NotificationPreferences>('/api/me/notification-preferences', { method: 'PUT', body: input });
}

/** Under the inbox's key: an unsubscribe heard on the stream reads them again too. */
export const notificationPreferencesQueryOptions = () =>
  queryOptions({
    queryKey: ['notifications', 'preferences'],
    queryFn: ({ signal }) => getNotificationPreferences(signal),
    meta: { failure: 'Loading your notification settings failed' },
  });

export const useNotificationPreferences = () => useQuery(notificationPreferencesQueryOptions());

export function useUpdateNotificationPreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateNotificationPreferences,
    onSuccess: (saved) => queryClient.setQueryData(notificationPreferencesQueryOptions().queryKey, saved),
  });
}
