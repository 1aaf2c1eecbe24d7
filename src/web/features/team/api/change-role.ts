import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ChangeRole } from '../../../../shared/schemas/teams';
import { apiFetch } from '../../../lib/api-client';
import { refreshAfterFailedChange, showMembersChange } from '../../../lib/api/list-members';

export function changeRole(teamId: string, userId: string, input: ChangeRole) {
  return apiFetch<void>(`/api/teams/${encodeURIComponent(teamId)}/members/${encodeURIComponent(userId)}`, { method: 'PATCH', body: input });
}

export function useChangeRole(teamId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, role }: { userId: string } & ChangeRole) => changeRole(teamId, userId, { role }),
    onSuccess: (_, { userId, role }) =>
      showMembersChange(queryClient, teamId, (data) => ({ ...data, members: data.members.map((m) => (m.userId === userId ? { ...m, role } : m)) })),
    onError: (error) => refreshAfterFailedChange(queryClient, teamId, error),
  });
}
