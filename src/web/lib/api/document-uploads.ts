import type { StartUpload, StoredFileView, UploadView, VersionView } from '../../../shared/schemas/documents';
import { ApiError, apiFetch, readResponse } from '../api-client';

/**
 * The upload of one version, as the server takes it (src/server/documents):
 * announce the files, send each one as the whole body of its own PUT, then
 * complete them into a version at once, or cancel and leave nothing behind.
 * `base` is where the item's uploads live: a checklist item's URL for people
 * on the loan (`/api/loans/:loanId/checklist/items/:itemId`).
 *
 * One module for the four requests: they are one protocol, and only the
 * upload component (ui/file-upload.tsx) drives it.
 */
export function startUpload(base: string, files: StartUpload['files']) {
  return apiFetch<UploadView>(`${base}/uploads`, { body: { files } });
}

export function completeUpload(base: string, uploadId: string) {
  return apiFetch<VersionView>(`${base}/uploads/${encodeURIComponent(uploadId)}/complete`, { method: 'POST' });
}

export function cancelUpload(base: string, uploadId: string) {
  return apiFetch<null>(`${base}/uploads/${encodeURIComponent(uploadId)}`, { method: 'DELETE' });
}

export interface FileSending {
  /** The stored file, or an ApiError (status 0 when the connection failed); an AbortError once aborted. */
  done: Promise<StoredFileView>;
  abort: () => void;
}

/**
 * Sends file `position` of an upload. XMLHttpRequest rather than fetch: only
 * it reports how much of a request body has gone (`upload.onprogress`).
 * The body is the file's bytes as they are; the server decides the type
 * from the content, so the declared one says nothing.
 */
export function sendUploadFile(base: string, uploadId: string, position: number, file: Blob, onProgress: (sentBytes: number) => void): FileSending {
  const xhr = new XMLHttpRequest();
  const done = new Promise<StoredFileView>((resolve, reject) => {
    xhr.open('PUT', `${base}/uploads/${encodeURIComponent(uploadId)}/files/${position}`);
    xhr.setRequestHeader('content-type', 'application/octet-stream');
    xhr.setRequestHeader('accept', 'application/json');
    xhr.upload.onprogress = (event) => onProgress(event.loaded);
    xhr.onload = () => {
      const headers = { 'content-type': xhr.getResponseHeader('content-type') ?? '' };
      const body = xhr.status === 204 ? null : xhr.responseText;
      readResponse<StoredFileView>(new Response(body, { status: xhr.status, headers })).then(resolve, reject);
    };
    xhr.onerror = () => reject(new ApiError(0, 'network', 'The connection failed while sending this file'));
    xhr.onabort = () => reject(new DOMException('The upload was cancelled', 'AbortError'));
    xhr.send(file);
  });
  return { done, abort: () => xhr.abort() };
}

export const isAbort = (error: unknown) => error instanceof DOMException && error.name === 'AbortError';
