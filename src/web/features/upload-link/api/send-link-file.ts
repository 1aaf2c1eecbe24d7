import { ApiError, readResponse } from '../../../lib/api-client';
import { linkHeaders } from './link-headers';

/** What the server kept of one file. */
export interface SentFile {
  position: number;
  name: string;
  size: number;
  type: string;
}

/**
 * Sends one file of an upload as the request's whole body, reporting its
 * progress (fetch cannot tell how much of a body has gone; XMLHttpRequest
 * can). `signal` aborts it. Fails with the ApiError the server's answer
 * holds, or a network one (status 0).
 */
export function sendLinkFile(
  token: string,
  { uploadId, position, file }: { uploadId: string; position: number; file: File },
  { onProgress, signal }: { onProgress: (sent: number, total: number) => void; signal?: AbortSignal },
): Promise<SentFile> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('PUT', `/api/upload-link/uploads/${encodeURIComponent(uploadId)}/files/${position}`);
    for (const [name, value] of Object.entries(linkHeaders(token))) request.setRequestHeader(name, value);
    request.setRequestHeader('content-type', file.type || 'application/octet-stream');
    request.setRequestHeader('accept', 'application/json');
    request.upload.onprogress = (event) => onProgress(event.loaded, event.lengthComputable ? event.total : file.size);
    request.onload = () => {
      const headers = { 'content-type': request.getResponseHeader('content-type') ?? '' };
      readResponse<SentFile>(new Response(request.responseText || null, { status: request.status, headers })).then(resolve, reject);
    };
    request.onerror = () => reject(new ApiError(0, 'network', 'The connection was lost while sending the file'));
    request.onabort = () => reject(new DOMException('The upload was cancelled', 'AbortError'));
    signal?.addEventListener('abort', () => request.abort(), { once: true });
    request.send(file);
  });
}
