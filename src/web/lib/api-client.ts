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

/** JSON in, JSON out; throws ApiError and leaves what to show to the screen. */
export async function apiFetch<T>(path: string, init: { method?: string; body?: unknown; signal?: AbortSignal } = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers: init.body === undefined ? { accept: 'application/json' } : { 'content-type': 'application/json', accept: 'application/json' },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      credentials: 'same-origin',
      signal: init.signal,
    });
  } catch (cause) {
    throw new ApiError(0, 'network', cause instanceof Error ? cause.message : 'Network error');
  }
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
