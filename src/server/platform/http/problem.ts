import type { FastifyError, FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AppError, appErrorTitle, statusToCode, type ProblemDetails } from '../../../shared/errors';
import { toFieldIssues } from '../../../shared/schemas/validation';
import { isDataException, isUniqueViolation } from '../../db/errors';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json; charset=utf-8';

/** Parses `data` with `schema`, or throws a 400 naming every bad field. */
export function parseInput<S extends z.ZodType>(schema: S, data: unknown): z.output<S> {
  const result = schema.safeParse(data);
  if (!result.success) {
    const errors = toFieldIssues(result.error);
    const fields = errors.map((e) => e.field).join(', ');
    throw new AppError('validation_failed', `Invalid field${errors.length === 1 ? '' : 's'}: ${fields}`, errors);
  }
  return result.data;
}

function isFastifyError(error: unknown): error is FastifyError {
  return typeof error === 'object' && error !== null && 'statusCode' in error && typeof (error as FastifyError).statusCode === 'number';
}

/**
 * The 4xx a database refusal stands for, when a client's request caused it:
 * a unique constraint lost to a concurrent request, or a value the database
 * cannot store. A backstop: inputs are validated before they get there.
 */
function fromDatabaseError(error: unknown): AppError | null {
  if (isUniqueViolation(error)) return new AppError('conflict', 'This was done by another request at the same moment; reload and try again');
  if (isDataException(error)) return new AppError('bad_request', 'A value in this request cannot be stored');
  return null;
}

/** Turns anything thrown into the problem+json body. 5xx details never reach the client. */
export function toProblem(thrown: unknown, instance: string): ProblemDetails {
  const error = fromDatabaseError(thrown) ?? thrown;
  if (error instanceof AppError) {
    return {
      type: `urn:coverly:problem:${error.code}`,
      title: appErrorTitle[error.code],
      status: error.status,
      detail: error.message,
      instance,
      code: error.code,
      ...(error.errors ? { errors: error.errors } : {}),
    };
  }
  const status = isFastifyError(error) ? (error.statusCode ?? 500) : 500;
  const code = statusToCode(status);
  return {
    type: `urn:coverly:problem:${code}`,
    title: appErrorTitle[code],
    status,
    // Fastify's own 4xx messages (bad JSON, body too large, wrong content type) are safe and useful.
    detail: status < 500 && error instanceof Error ? error.message : appErrorTitle[code],
    instance,
    code,
  };
}

/** One error handler and one JSON 404 for the whole API. */
/** The path of a request URL, without its query (what `instance` names). */
const pathOf = (url: string) => url.split('?')[0] ?? url;

export function registerProblemHandlers(app: FastifyInstance) {
  app.setErrorHandler((error, request, reply) => {
    const problem = toProblem(error, pathOf(request.url));
    if (problem.status >= 500) request.log.error({ err: error }, 'request failed');
    else request.log.info({ status: problem.status, code: problem.code, detail: problem.detail }, 'request refused');
    if (error instanceof AppError && error.retryAfterSeconds) void reply.header('retry-after', String(error.retryAfterSeconds));
    return reply.status(problem.status).type(PROBLEM_CONTENT_TYPE).send(problem);
  });
}

export function apiNotFoundProblem(url: string) {
  return toProblem(new AppError('not_found', `No API route ${pathOf(url)}`), pathOf(url));
}
