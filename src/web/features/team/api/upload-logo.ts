import type { TeamView } from '../../../../shared/schemas/teams';
import { apiUpload } from '../../../lib/api-client';

/** The logo image's bytes as the body; the server checks what they really are. */
export function uploadLogo(teamId: string, file: File) {
  return apiUpload<TeamView>(`/api/teams/${encodeURIComponent(teamId)}/logo`, file);
}
