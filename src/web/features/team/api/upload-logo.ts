import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TeamView } from '../../../../shared/schemas/teams';
import { apiUpload } from '../../../lib/api-client';
import { meQueryOptions } from '../../../lib/api/get-me';

/** The logo image's bytes as the body; the server checks what they really are. */
export function uploadLogo(teamId: string, file: File) {
  return apiUpload<TeamView>(`/api/teams/${encodeURIComponent(teamId)}/logo`, file);
}

/** Resolves once the header shows the new logo. */
export function useUploadLogo(teamId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => uploadLogo(teamId, file),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: meQueryOptions().queryKey }),
  });
}
