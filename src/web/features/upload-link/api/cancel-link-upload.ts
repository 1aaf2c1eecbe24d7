import { apiFetch } from '../../../lib/api-client';
import { linkHeaders } from './link-headers';

/** Gives up an upload under way: what was sent of it is deleted, and the link stays unused. */
export function cancelLinkUpload(token: string, uploadId: string) {
  return apiFetch<null>(`/api/upload-link/uploads/${encodeURIComponent(uploadId)}`, { method: 'DELETE', headers: linkHeaders(token) });
}
