import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { appErrorTitle } from '../../../shared/errors';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route takes a file's bytes as its body, which may take many minutes
     * on a slow phone: instead of arriving whole within `bodySeconds`, the body
     * must keep coming, at least `UPLOAD_MIN_BYTES_PER_WINDOW` in every window
     * of `bodySeconds`.
     */
    streamsBody?: true;
  }
}

/** The least an upload must bring in each window: about half a kilobyte a second at the default 30 s, far below any phone. */
export const UPLOAD_MIN_BYTES_PER_WINDOW = 16 * 1024;

export interface TimeoutSettings {
  /** An ordinary request's body must arrive whole within this; an upload must bring `UPLOAD_MIN_BYTES_PER_WINDOW` in every such window. */
  bodySeconds: number;
}

const hasBody = (raw: IncomingMessage) =>
  raw.headers['transfer-encoding'] !== undefined || (raw.headers['content-length'] !== undefined && raw.headers['content-length'] !== '0');

/**
 * A body sent too slowly is ended with a 408: one trickled a byte at a time
 * would otherwise hold its connection (and for an upload, its stream into
 * storage) for as long as the client likes. Node's own `requestTimeout`
 * (REQUEST_TIMEOUT_SECONDS, set on the server) bounds a request's whole
 * arrival; this bounds how slowly it may arrive, per route: an ordinary body
 * within `bodySeconds`, an upload's at a minimum rate. What a request has
 * received is read from its socket's byte count, so nothing here reads the
 * body or changes how the route reads it. A request with no body costs one
 * header check.
 */
export function registerBodyTimeouts(app: FastifyInstance, { bodySeconds }: TimeoutSettings) {
  const windowMs = bodySeconds * 1000;
  app.addHook('onRequest', (request, reply, done) => {
    const raw = request.raw;
    if (!hasBody(raw) || raw.complete) return done();
    const socket = raw.socket;
    const streams = request.routeOptions.config.streamsBody === true;
    let seen = socket.bytesRead;
    const timer = setInterval(() => {
      if (raw.complete || socket.destroyed) return clearInterval(timer);
      const read = socket.bytesRead;
      if (streams && read - seen >= UPLOAD_MIN_BYTES_PER_WINDOW) {
        seen = read;
        return;
      }
      clearInterval(timer);
      const detail = streams
        ? `The upload stalled: less than ${UPLOAD_MIN_BYTES_PER_WINDOW / 1024} KB arrived in ${bodySeconds} seconds. Send it again.`
        : `The request's body did not arrive within ${bodySeconds} seconds.`;
      request.log.info({ timeout: streams ? 'upload stalled' : 'body too slow' }, 'request body timed out');
      endWith408(raw, reply.raw.headersSent, detail);
    }, windowMs);
    timer.unref();
    const stop = () => clearInterval(timer);
    raw.once('end', stop);
    raw.once('close', stop);
    // Answered without reading the rest (a refusal before the body): the answer closes the connection, not this.
    reply.raw.once('finish', stop);
    done();
  });
}

/**
 * Answers 408 on the socket itself and closes it, as Node does when its own
 * request timeout passes: the route may still be waiting on the body, and its
 * answer, if it ever comes, has nowhere to go.
 */
function endWith408(raw: IncomingMessage, headersSent: boolean, detail: string) {
  const socket = raw.socket;
  if (!headersSent && socket.writable) {
    const body = JSON.stringify({
      type: 'urn:coverly:problem:request_timeout',
      title: appErrorTitle.request_timeout,
      status: 408,
      detail,
      code: 'request_timeout',
    });
    socket.end(
      `HTTP/1.1 408 Request Timeout\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Cache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  raw.destroy();
}
