/**
 * Every error the API can answer with, and the HTTP status it maps to.
 * The server turns an AppError into an RFC 9457 problem+json body; the web
 * client reads `code` back to decide what to show.
 */
export const APP_ERROR_CODES = [
  'validation_failed',
  'bad_request',
  'unauthenticated',
  'mfa_required',
  'conflict',
  'gone',
  'not_found',
  'forbidden',
  'payload_too_large',
  'unsupported_media_type',
  'rate_limited',
  // A request's body arrived too slowly (src/server/platform/http/timeouts.ts).
  'request_timeout',
  'unavailable',
  'internal',
  // An uploaded file refused for what its content is (src/server/documents/inspect.ts).
  'empty_file',
  'unsupported_file_type',
  'password_protected_pdf',
  'damaged_file',
  'unsafe_file',
] as const;
export type AppErrorCode = (typeof APP_ERROR_CODES)[number];

export const appErrorStatus: Record<AppErrorCode, number> = {
  validation_failed: 400,
  bad_request: 400,
  unauthenticated: 401,
  mfa_required: 401,
  conflict: 409,
  forbidden: 403,
  not_found: 404,
  gone: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  request_timeout: 408,
  unavailable: 503,
  internal: 500,
  empty_file: 422,
  unsupported_file_type: 415,
  password_protected_pdf: 422,
  damaged_file: 422,
  unsafe_file: 422,
};

export const appErrorTitle: Record<AppErrorCode, string> = {
  validation_failed: 'Your request has invalid fields',
  bad_request: 'Bad request',
  unauthenticated: 'Not signed in',
  mfa_required: 'Two-step verification required',
  conflict: 'Conflict',
  forbidden: 'Forbidden',
  not_found: 'Not found',
  gone: 'No longer available',
  payload_too_large: 'Request body too large',
  unsupported_media_type: 'Unsupported content type',
  rate_limited: 'Too many requests',
  request_timeout: 'The request arrived too slowly',
  unavailable: 'Service unavailable',
  internal: 'Internal server error',
  empty_file: 'The file is empty',
  unsupported_file_type: 'This type of file is not accepted',
  password_protected_pdf: 'The PDF is password-protected',
  damaged_file: 'The file is damaged or incomplete',
  unsafe_file: 'The file holds more than one file',
};

/** One invalid input field, named by its dotted path ("email", "items.0.label"). */
export interface FieldIssue {
  field: string;
  message: string;
}

/** The problem+json body every API error uses (RFC 9457 plus `code` and `errors`). */
export interface ProblemDetails {
  type: string;
  title: string;
  status: number;
  detail?: string;
  instance?: string;
  code: AppErrorCode;
  errors?: FieldIssue[];
}

export class AppError extends Error {
  readonly code: AppErrorCode;
  readonly status: number;
  readonly errors: FieldIssue[] | undefined;
  /** For 429 and 503: when to try again (sent as Retry-After). */
  readonly retryAfterSeconds: number | undefined;

  constructor(code: AppErrorCode, detail?: string, errors?: FieldIssue[], options: { retryAfterSeconds?: number } = {}) {
    super(detail ?? appErrorTitle[code]);
    this.name = 'AppError';
    this.code = code;
    this.status = appErrorStatus[code];
    this.errors = errors;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

/** A 400 that names one bad field, shaped like the schema's own (`Invalid field: name`). */
export function invalidField(field: string, message: string): AppError {
  return new AppError('validation_failed', `Invalid field: ${field}`, [{ field, message }]);
}

/** Codes that say more than their status does, so a bare status never stands for them. */
const SPECIFIC_CODES: ReadonlySet<AppErrorCode> = new Set([
  'validation_failed',
  'mfa_required',
  'empty_file',
  'unsupported_file_type',
  'password_protected_pdf',
  'damaged_file',
  'unsafe_file',
]);

export function statusToCode(status: number): AppErrorCode {
  const found = (Object.entries(appErrorStatus) as [AppErrorCode, number][]).find(([code, s]) => s === status && !SPECIFIC_CODES.has(code));
  if (found) return found[0];
  return status >= 500 ? 'internal' : 'bad_request';
}
