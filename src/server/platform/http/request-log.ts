import { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { pino, type Bindings, type ChildLoggerOptions } from 'pino';

/** Query parameters whose values never reach a log line (a token sent where it does not belong, say). */
const SECRET_QUERY = /token|code|secret|password|key/i;

/**
 * A path segment whose name says the next one is a secret, and that next
 * segment: `/api/auth/reset-password/<token>` (better-auth's reset link),
 * `/verify-token/<token>`. Ids in other paths stay, invitation ids and
 * `/api/invitations/accept` included (our invitation tokens travel in
 * fragments and bodies): they are what a log is read for.
 */
const SECRET_PATH = /(\/[^/?#]*(?:token|code|secret|password|key)[^/?#]*\/)[^/?#]+/gi;
/** The same, without the global flag's state: a test that keeps no position between calls. */
const HAS_SECRET_PATH = new RegExp(SECRET_PATH.source, 'i');

/** A request URL for the log: its path with a secret segment replaced, and its query with secret-looking values replaced. */
export function loggableUrl(url: string): string {
  const mark = url.indexOf('?');
  const path = redactPath(mark === -1 ? url : url.slice(0, mark));
  if (mark === -1) return path;
  const query = url.slice(mark + 1);
  if (!query) return path;
  const params = new URLSearchParams(query);
  for (const name of new Set(params.keys())) if (SECRET_QUERY.test(name)) params.set(name, '[redacted]');
  return `${path}?${params.toString()}`;
}

const redactPath = (path: string) => (HAS_SECRET_PATH.test(path) ? path.replace(SECRET_PATH, '$1[redacted]') : path);

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
    if (this.isLogDisabled(request)) return;
    if (error) reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else if (!this.sink) reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
    else if (writes(request.log.level, 'info')) this.writeLine(request, reply);
  }

  /** The "request completed" line, as `reply.log.info({ req, res, responseTime }, 'request completed')` would write it. */
  private writeLine(request: FastifyRequest, reply: FastifyReply) {
    const { stream, bindings } = this.sink!;
    stream.write(
      `{"level":${INFO},"time":${Date.now()}${bindings},"reqId":${JSON.stringify(request.id)},` +
        `"req":{"method":${JSON.stringify(request.method)},"url":${JSON.stringify(loggableUrl(request.url))},"remoteAddress":${JSON.stringify(request.ip)}},` +
        `"res":{"statusCode":${reply.statusCode}},"responseTime":${reply.elapsedTime},"msg":"request completed"}\n`,
    );
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
