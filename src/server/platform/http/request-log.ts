import { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { pino, type Bindings, type ChildLoggerOptions } from 'pino';

/** Query parameters whose values never reach a log line (a token sent where it does not belong, say). */
const SECRET_QUERY = /token|code|secret|password|key/i;

/**
 * A path segment whose name says the next one is a secret, and that next
 * segment: `/api/auth/reset-password/<token>` (better-auth's reset link),
 * `/verify-token/<token>`. Used for URLs logged without their request (a
 * plain `{ method, url }`); a request's own URL is logged by its route
 * (`loggedUrl`).
 */
const SECRET_PATH = /(\/[^/?#]*(?:token|code|secret|password|key)[^/?#]*\/)[^/?#]+/gi;
/** The same, without the global flag's state: a test that keeps no position between calls. */
const HAS_SECRET_PATH = new RegExp(SECRET_PATH.source, 'i');

const REDACTED = '[redacted]';

/** A URL for the log: its path with a secret segment replaced, and its query with secret-looking values replaced. */
export function loggableUrl(url: string): string {
  const mark = url.indexOf('?');
  const path = redactPath(mark === -1 ? url : url.slice(0, mark));
  return mark === -1 ? path : path + loggableQuery(url.slice(mark + 1));
}

/** `?query` with secret-looking values replaced, or '' when there is none. */
function loggableQuery(query: string): string {
  if (!query) return '';
  const params = new URLSearchParams(query);
  for (const name of new Set(params.keys())) if (SECRET_QUERY.test(name)) params.set(name, REDACTED);
  return `?${params.toString()}`;
}

const redactPath = (path: string) => (HAS_SECRET_PATH.test(path) ? path.replace(SECRET_PATH, `$1${REDACTED}`) : path);

/**
 * A route parameter's value as the log keeps it: ours are ids (UUIDs, the
 * auth library's 32-character ids, positions and versions); a value of any
 * other shape (a 43-character link token pasted where an id goes) is not
 * logged, nor any value of a parameter whose name says it is a secret.
 */
const ID_VALUE = /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[A-Za-z0-9]{1,32})$/i;
/**
 * A segment no route vouches for (a path no route matched, a wildcard's
 * tail such as better-auth's `/api/auth/*`): logged only when it is a plain
 * lower-case word (`get-session`, `favicon.ico`), a number or a UUID.
 */
const PLAIN_SEGMENT = /^(?:[a-z]+(?:[-._][a-z]+)*|\d{1,10}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

const plainSegments = (path: string) =>
  path
    .split('/')
    .map((segment) => (segment === '' || PLAIN_SEGMENT.test(segment) ? segment : REDACTED))
    .join('/');

type RoutePart = { text: string } | { param: string; secret: boolean } | { wildcard: true };
const routeParts = new Map<string, RoutePart[]>();

/** A route's pattern (`/api/loans/:loanId`) split once into its text and its parameters. */
function partsOf(pattern: string): RoutePart[] {
  let parts = routeParts.get(pattern);
  if (!parts) {
    parts = pattern.split(/(:[A-Za-z0-9_]+|\*)/).flatMap((piece): RoutePart[] => {
      if (piece === '') return [];
      if (piece === '*') return [{ wildcard: true }];
      if (piece.startsWith(':')) return [{ param: piece.slice(1), secret: SECRET_QUERY.test(piece) }];
      return [{ text: piece }];
    });
    routeParts.set(pattern, parts);
  }
  return parts;
}

/**
 * A request's URL for the log, decided by the route it matched rather than
 * by how the URL is spelled: the route's own text, each parameter's value
 * when it is an id (`ID_VALUE`), and where no route vouches for a segment
 * (no route matched, or a wildcard's tail) only plain words and ids
 * (`PLAIN_SEGMENT`). So a token sent in a path (`GET /api/upload-link/<token>`,
 * an unknown route) never reaches a log, however it is spelled. The query
 * keeps its names and harmless values (`loggableQuery`).
 */
export function loggedUrl(request: Pick<FastifyRequest, 'url' | 'params' | 'routeOptions'>): string {
  const url = request.url;
  const mark = url.indexOf('?');
  const query = mark === -1 ? '' : loggableQuery(url.slice(mark + 1));
  const pattern = request.routeOptions.url;
  if (!pattern) return plainSegments(mark === -1 ? url : url.slice(0, mark)) + query;
  const params = (request.params ?? {}) as Record<string, unknown>;
  let path = '';
  for (const part of partsOf(pattern)) {
    if ('text' in part) path += part.text;
    else if ('wildcard' in part) path += plainSegments(String(params['*'] ?? ''));
    else {
      const value = String(params[part.param] ?? '');
      path += !part.secret && ID_VALUE.test(value) ? value : REDACTED;
    }
  }
  return path + query;
}

/**
 * The client's address, or null when it cannot be read: behind a trusted
 * proxy Fastify reads it from the socket, which a request destroyed
 * mid-body (an upload refused as too large) no longer has.
 */
function clientAddress(request: FastifyRequest): string | null {
  try {
    return request.ip ?? null;
  } catch {
    return null;
  }
}

/** What a log line says of a request (the process logger's `req` serialiser keeps it as it is). */
const requestSummary = (request: FastifyRequest) => ({ method: request.method, url: loggedUrl(request), ip: clientAddress(request), summarised: true });

/** The parts of a pino logger the request line writes through: where its lines go, and the bindings every line starts with. */
interface LineSink {
  stream: { write(line: string): unknown };
  /** `,"service":"coverly"`: the root logger's bindings as pino writes them. */
  bindings: string;
}

function lineSinkOf(logger: FastifyBaseLogger | undefined): LineSink | null {
  const candidate = logger as (FastifyBaseLogger & Partial<Record<symbol, unknown>>) | undefined;
  const stream = candidate?.[pino.symbols.streamSym] as LineSink['stream'] | undefined;
  const bindings = candidate?.[pino.symbols.chindingsSym];
  if (!stream || typeof stream.write !== 'function' || typeof bindings !== 'string') return null;
  return { stream, bindings };
}

const LEVELS: Record<string, number> = pino.levels.values;
const INFO = LEVELS.info ?? 30;

/** Whether a logger set to `threshold` writes a line at `level` ('silent' writes nothing). */
const writes = (threshold: string, level: string) => level !== 'silent' && (LEVELS[level] ?? Infinity) >= (LEVELS[threshold] ?? Infinity);

/**
 * One log line per request instead of Fastify's two ("incoming request" and
 * "request completed"): the completion line carries what the first one did
 * (method, URL with secret-looking query values redacted, remote address)
 * beside the status and the time taken, and the request's `reqId` like every
 * other line the request logs. Pass it as Fastify's `logController`, with the
 * process logger.
 *
 * A request that succeeded is logged with the line written here, in exactly
 * the shape pino writes (same keys, same order, same stream), rather than
 * through `logger.child(...).info({ req, res })`: that path costs more than
 * the rest of a small request (measured in bench/http-overhead.mjs). A failed
 * request goes through pino, which serialises its error.
 */
export class OneLinePerRequest extends LogController {
  private readonly sink: LineSink | null;

  constructor(logger?: FastifyBaseLogger) {
    super();
    this.sink = lineSinkOf(logger);
  }

  override incomingRequest() {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    // This runs in the response's 'finish' handler, where nothing would catch a throw: the process would end.
    try {
      if (this.isLogDisabled(request)) return;
      if (error) reply.log.error({ req: requestSummary(request), res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
      else if (!this.sink) reply.log.info({ req: requestSummary(request), res: reply, responseTime: reply.elapsedTime }, 'request completed');
      else if (writes(request.log.level, 'info')) this.writeLine(request, reply);
    } catch (failure) {
      this.writeFailed(request, failure);
    }
  }

  /** The "request completed" line, as `reply.log.info({ req, res, responseTime }, 'request completed')` would write it. */
  private writeLine(request: FastifyRequest, reply: FastifyReply) {
    const { stream, bindings } = this.sink!;
    stream.write(
      `{"level":${INFO},"time":${Date.now()}${bindings},"reqId":${JSON.stringify(request.id)},` +
        `"req":{"method":${JSON.stringify(request.method)},"url":${JSON.stringify(loggedUrl(request))},"remoteAddress":${JSON.stringify(clientAddress(request))}},` +
        `"res":{"statusCode":${reply.statusCode}},"responseTime":${reply.elapsedTime},"msg":"request completed"}\n`,
    );
  }

  /** A request whose line could not be written: said once, without the request's details, and never thrown. */
  private writeFailed(request: FastifyRequest, failure: unknown) {
    try {
      const reason = failure instanceof Error ? failure.message : String(failure);
      if (this.sink) {
        this.sink.stream.write(
          `{"level":${LEVELS.warn ?? 40},"time":${Date.now()}${this.sink.bindings},"reqId":${JSON.stringify(request.id)},"reason":${JSON.stringify(reason)},"msg":"request log line failed"}\n`,
        );
      }
    } catch {
      // The log itself is gone (a closed stream): nothing more to say, and still nothing to throw.
    }
  }
}

type LogArguments = [unknown, ...unknown[]];
type LogMethod = Exclude<keyof FastifyBaseLogger, 'level' | 'child'>;

/**
 * A request's logger, made only when the request logs something. Fastify
 * gives every request a child logger bound to its `reqId`; a pino child costs
 * several microseconds to make, and most requests never use theirs (their one
 * line is written by `OneLinePerRequest`). Pass `deferredChildLogger` as
 * Fastify's `childLoggerFactory`.
 */
class DeferredChildLogger implements FastifyBaseLogger {
  private made: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  private get logger() {
    return (this.made ??= this.parent.child(this.bindings, this.options));
  }

  get level() {
    return this.made?.level ?? this.options.level ?? this.parent.level;
  }

  set level(level: string) {
    this.logger.level = level;
  }

  private log(method: LogMethod, args: LogArguments) {
    // Nothing to write at this level: no child is made for it.
    if (!this.made && !writes(this.level, method)) return;
    (this.logger[method] as (...values: unknown[]) => void).apply(this.logger, args);
  }

  fatal(...args: LogArguments) {
    this.log('fatal', args);
  }
  error(...args: LogArguments) {
    this.log('error', args);
  }
  warn(...args: LogArguments) {
    this.log('warn', args);
  }
  info(...args: LogArguments) {
    this.log('info', args);
  }
  debug(...args: LogArguments) {
    this.log('debug', args);
  }
  trace(...args: LogArguments) {
    this.log('trace', args);
  }
  silent(...args: LogArguments) {
    this.log('silent', args);
  }
  child(bindings: Bindings, options?: ChildLoggerOptions) {
    return this.logger.child(bindings, options);
  }
}

export function deferredChildLogger(logger: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  return new DeferredChildLogger(logger, bindings, options);
}

/**
 * `x-request-id` on every answer, errors and 404s included: set as the
 * request arrives (a plain callback hook; no promise per request).
 */
export function registerRequestId(app: FastifyInstance) {
  app.addHook('onRequest', (request, reply, done) => {
    void reply.header('x-request-id', request.id);
    done();
  });
}
