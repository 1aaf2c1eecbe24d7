import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UnreadCount } from '../../../../shared/schemas/notifications';
import { apiFetch } from '../../../lib/api-client';
import { NOTIFICATIONS_SCOPE } from './unread-count';

export function markNotificationRead(id: number) {
  return apiFetch<UnreadCount>(`/api/me/notifications/${id}/read`, { method: 'POST' });
}

export function markAllNotificationsRead() {
  return apiFetch<UnreadCount>('/api/me/notifications/read-all', { method: 'POST' });
}

/** Marks one row read (opening it does); the bell and the list read again. */
export function useMarkRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markNotificationRead,
    onSettled: () => queryClient.invalidateQueries({ queryKey: [NOTIFICATIONS_SCOPE] }),
  });
}

export function useMarkAllRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markAllNotificationsRead,
    onSettled: () => queryClient.invalidateQueries({ queryKey: [NOTIFICATIONS_SCOPE] }),
  });
}
