import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import type { LightMyRequestResponse } from 'fastify';

/** The Cookie header a browser would send back after this response. */
export const cookieFrom = (response: Pick<LightMyRequestResponse, 'headers'> | Pick<RawResponse, 'headers'>) =>
  ([] as string[])
    .concat(response.headers['set-cookie'] ?? [])
    .map((cookie) => cookie.split(';')[0])
    .join('; ');

export interface RawResponse {
  statusCode: number;
  headers: IncomingHttpHeaders;
  /** Every header as sent, in order: [name, value] pairs (names lower-cased). */
  headerList: [string, string][];
  body: string;
  /** The parsed JSON body, loosely typed as `inject`'s is, for assertions. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json(): any;
}

/**
 * One request over a real socket to a listening app, with `path` sent exactly
 * as written: no client normalises its dot segments or percent-encoding (as
 * `inject` and `fetch` would), so tests see what an attacker's raw request does.
 */
export function rawRequest(
  baseUrl: string,
  { method = 'GET', path, headers = {}, body }: { method?: string; path: string; headers?: Record<string, string>; body?: string },
): Promise<RawResponse> {
  const target = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method,
        path,
        headers: { ...(body === undefined ? {} : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) }), ...headers },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const headerList: [string, string][] = [];
          for (let i = 0; i < response.rawHeaders.length; i += 2) headerList.push([response.rawHeaders[i]!.toLowerCase(), response.rawHeaders[i + 1]!]);
          resolve({ statusCode: response.statusCode ?? 0, headers: response.headers, headerList, body: text, json: () => JSON.parse(text) });
        });
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

export interface Sent {
  status: number;
  /** The answer's head and body as received (empty when the server closed without one). */
  text: string;
}

/**
 * One request over a raw socket, written slowly or cut short as a test needs: `head` as written, then `pieces` sent one after another (`pause` ms apart), then the socket is left open (`end: 'keep'`),
 * half-closed (`'half'`: a body cut off) or destroyed (`'destroy'`: an aborted
 * upload) once the pieces are out. Resolves with whatever the server answered.
 */
export function rawExchange(
  port: number,
  head: string,
  pieces: Buffer[],
  end: 'keep' | 'half' | 'destroy',
  { pause = 20, waitMs = 10_000 }: { pause?: number; waitMs?: number } = {},
): Promise<Sent> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    let settled = false;
    const finish = () => {
      if (settled) return;
      settled = true;
      const text = Buffer.concat(received).toString('latin1');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), text });
    };
    socket.on('data', (chunk: Buffer) => {
      received.push(chunk);
      // One answer is all a test reads: once its body is complete (a content-length body here), stop.
      const text = Buffer.concat(received).toString('latin1');
      const split = text.indexOf('\r\n\r\n');
      const length = Number(/\r\ncontent-length: (\d+)/i.exec(text)?.[1] ?? NaN);
      if (split !== -1 && Number.isFinite(length) && Buffer.byteLength(text.slice(split + 4), 'latin1') >= length) {
        finish();
        socket.destroy();
      }
    });
    socket.on('error', finish);
    socket.on('close', finish);
    socket.write(head);
    const sendNext = (index: number) => {
      if (index === pieces.length) {
        if (end === 'half') socket.end();
        else if (end === 'destroy') setTimeout(() => socket.destroy(), 50);
        return;
      }
      socket.write(pieces[index]!, () => setTimeout(() => sendNext(index + 1), pause));
    };
    sendNext(0);
    // A request left waiting: the server's own limits would end it; the test reads what came.
    setTimeout(() => {
      finish();
      socket.destroy();
    }, waitMs).unref();
  });
}
