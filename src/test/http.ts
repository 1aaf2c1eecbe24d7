import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
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
