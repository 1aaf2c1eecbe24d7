import type { StartUpload, UploadView } from '../../../../shared/schemas/documents';
import { apiFetch } from '../../../lib/api-client';
import { linkHeaders } from './link-headers';

/** Announces the files of the upload (names and sizes); each is then sent on its own. */
export function startLinkUpload(token: string, input: StartUpload) {
  return apiFetch<UploadView>('/api/upload-link/uploads', { body: input, headers: linkHeaders(token) });
}
