import type { LinkUploadReceipt } from '../../../../shared/schemas/upload-links';
import { apiFetch } from '../../../lib/api-client';
import { linkHeaders } from './link-headers';

/** Hands the files to the team as one version; the link is used up by it. */
export function completeLinkUpload(token: string, uploadId: string) {
  return apiFetch<LinkUploadReceipt>(`/api/upload-link/uploads/${encodeURIComponent(uploadId)}/complete`, { method: 'POST', headers: linkHeaders(token) });
}
