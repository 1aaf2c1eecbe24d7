import type { AppErrorCode, FieldIssue, ProblemDetails } from '../../shared/errors';

/** Thrown for every answer that is not 2xx, and for network failures (status 0). */
export class ApiError extends Error {
  readonly status: number;
  readonly code: AppErrorCode | 'network';
  readonly fieldErrors: FieldIssue[];

  constructor(status: number, code: AppErrorCode | 'network', message: string, fieldErrors: FieldIssue[] = []) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.fieldErrors = fieldErrors;
  }
}

/** JSON in, JSON out; throws ApiError and leaves what to show to the screen. `headers`: a credential other than the session (an upload link's). */
export function apiFetch<T>(path: string, init: { method?: string; body?: unknown; signal?: AbortSignal; headers?: Record<string, string> } = {}): Promise<T> {
  const hasBody = init.body !== undefined;
  return send<T>(path, {
    method: init.method ?? (hasBody ? 'POST' : 'GET'),
    headers: { ...init.headers, ...(hasBody ? { 'content-type': 'application/json', accept: 'application/json' } : { accept: 'application/json' }) },
    body: hasBody ? JSON.stringify(init.body) : undefined,
    signal: init.signal,
  });
}

/**
 * A file's bytes as the whole request body, typed by the file (a team logo):
 * no multipart framing for the server to parse. Answers and errors as apiFetch.
 */
export function apiUpload<T>(path: string, file: Blob): Promise<T> {
  return send<T>(path, {
    method: 'PUT',
    headers: { 'content-type': file.type || 'application/octet-stream', accept: 'application/json' },
    body: file,
  });
}

async function send<T>(path: string, init: RequestInit): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, { ...init, credentials: 'same-origin' });
  } catch (cause) {
    throw new ApiError(0, 'network', cause instanceof Error ? cause.message : 'Network error');
  }
  return readResponse<T>(response);
}

/** The JSON payload of a 2xx answer (null when there is none); an ApiError from the problem+json of any other. */
export async function readResponse<T>(response: Response): Promise<T> {
  const isJson = (response.headers.get('content-type') ?? '').includes('json');
  const payload: unknown = isJson ? await response.json().catch(() => null) : null;
  if (!response.ok) {
    const problem = (payload ?? {}) as Partial<ProblemDetails>;
    throw new ApiError(
      response.status,
      problem.code ?? (response.status >= 500 ? 'internal' : 'bad_request'),
      problem.detail ?? problem.title ?? `Request failed with status ${response.status}`,
      problem.errors ?? [],
    );
  }
  return payload as T;
}
