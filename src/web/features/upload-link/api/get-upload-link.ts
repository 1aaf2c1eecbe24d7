import type { UploadLinkInfo } from '../../../../shared/schemas/upload-links';
import { apiFetch } from '../../../lib/api-client';
import { linkHeaders } from './link-headers';

/** Who asks for what through this link; 410 when it was used, expired or withdrawn, 404 for no link at all. */
export function getUploadLink(token: string, signal?: AbortSignal) {
  return apiFetch<UploadLinkInfo>('/api/upload-link', { headers: linkHeaders(token), signal });
}
