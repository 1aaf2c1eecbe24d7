// A Server-Sent Events reader over node:http, as a browser's EventSource
// reads a stream (the WHATWG parsing rules), plus what a test or a benchmark
// needs to look at a stream from outside: it reconnects on its own with the
// last id it saw as `Last-Event-ID`, says when it (re)connects, and can drop
// its connection on purpose. Plain JavaScript, so the benchmarks (plain
// node) and the Vitest suites share one reader; `sse-client.d.mts` types it.
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

/** How long a stream may stay silent before the reader calls it dead: the 25 s heartbeat plus 10 s (the seed's realtime constants). */
export const SILENCE_MS = 35_000;

/**
 * Parses the bytes of an event stream into events, chunk by chunk. Exported
 * for tests; `openEventStream` uses it.
 */
export function createEventParser(onEvent) {
  const decoder = new TextDecoder('utf-8');
  let pending = '';
  let first = true;
  let type = '';
  let data = '';
  let dataSeen = false;
  let id = null;
  let lastEventId = '';
  let retry = null;

  const field = (line) => {
    if (line === '') {
      // Blank line: dispatch. The id buffer outlives the event (an event without `id:` keeps the last one).
      if (id !== null) lastEventId = id;
      if (dataSeen) onEvent({ type: type || 'message', data: data.endsWith('\n') ? data.slice(0, -1) : data, id, lastEventId });
      type = '';
      data = '';
      dataSeen = false;
      id = null;
      return;
    }
    if (line.startsWith(':')) return; // a comment (some servers keep the line busy with them)
    const colon = line.indexOf(':');
    const name = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (name === 'event') type = value;
    else if (name === 'data') {
      data += `${value}\n`;
      dataSeen = true;
    } else if (name === 'id' && !value.includes('\0')) id = value;
    else if (name === 'retry' && /^\d+$/.test(value)) retry = Number(value);
  };

  return {
    /** Feeds bytes (a Buffer or Uint8Array) or text. */
    push(chunk) {
      let text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
      if (first && text.length > 0) {
        if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
        first = false;
      }
      pending += text;
      // Lines end in CRLF, LF or CR; a CR at the very end may be half of a CRLF still on its way.
      const lines = pending.split(/\r\n|\n|\r(?!$)/);
      pending = lines.pop() ?? '';
      for (const line of lines) field(line);
    },
    /** The newest `id:` seen in a dispatched event ('' before any). */
    get lastEventId() {
      return lastEventId;
    },
    /** The server's newest `retry:` hint in ms, or null. */
    get retry() {
      return retry;
    },
    /** Starts a new connection's bytes: an event cut off by the old one is dropped, as EventSource does. */
    reset() {
      pending = '';
      type = '';
      data = '';
      dataSeen = false;
      id = null;
      first = true;
    },
  };
}

/**
 * Opens an event stream and keeps it open: after an end, an error, a 5xx or
 * 429 answer (a proxy whose upstream is down), or `silenceMs` without a byte,
 * it connects again after the server's `retry:` hint (or `retryMs`),
 * doubling on each failure in a row up to `maxRetryMs`, sending the last id
 * it saw. Any other answer than 200 `text/event-stream` stops it for good
 * (`onError`, as EventSource fails on a 401 or 404).
 */
export function openEventStream(url, options = {}) {
  const {
    headers = {},
    agent,
    localAddress,
    silenceMs = SILENCE_MS,
    retryMs = 500,
    maxRetryMs = 5_000,
    onEvent = () => {},
    onOpen = () => {},
    onError = () => {},
  } = options;
  const target = new URL(url);
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  const parser = createEventParser((event) => onEvent(event));
  let lastEventId = options.lastEventId ?? '';
  let closed = false;
  let connects = 0;
  let failures = 0;
  let current = null;
  let timer = null;
  let silence = null;
  let settle;
  const done = new Promise((resolve) => (settle = resolve));

  const stopSilence = () => {
    if (silence) clearTimeout(silence);
    silence = null;
  };
  const heard = () => {
    stopSilence();
    silence = setTimeout(() => current?.destroy(new Error(`no byte for ${silenceMs} ms`)), silenceMs);
    silence.unref?.();
  };

  const again = () => {
    if (closed || timer) return;
    current = null;
    stopSilence();
    const delay = Math.min(maxRetryMs, (parser.retry ?? retryMs) * 2 ** Math.max(0, failures - 1));
    timer = setTimeout(() => {
      timer = null;
      connect();
    }, delay);
  };

  const stop = (error) => {
    if (closed) return;
    closed = true;
    stopSilence();
    if (timer) clearTimeout(timer);
    current?.destroy();
    if (error) onError(error);
    settle();
  };

  function connect() {
    if (closed) return;
    const requestHeaders = { accept: 'text/event-stream', 'cache-control': 'no-cache', ...headers };
    if (parser.lastEventId) lastEventId = parser.lastEventId;
    if (lastEventId) requestHeaders['last-event-id'] = lastEventId;
    const req = send(target, { method: 'GET', headers: requestHeaders, ...(agent ? { agent } : {}), ...(localAddress ? { localAddress } : {}) });
    current = req;
    heard();
    req.on('response', (res) => {
      const type = String(res.headers['content-type'] ?? '');
      if (res.statusCode !== 200 || !type.startsWith('text/event-stream')) {
        res.resume();
        if (res.statusCode >= 500 || res.statusCode === 429) {
          failures += 1;
          req.destroy();
          return;
        }
        stop(Object.assign(new Error(`the event stream answered ${res.statusCode} ${type}`), { status: res.statusCode }));
        return;
      }
      failures = 0;
      connects += 1;
      parser.reset();
      onOpen({ status: res.statusCode, connects, lastEventId });
      res.on('data', (chunk) => {
        heard();
        parser.push(chunk);
      });
      res.on('error', () => {});
    });
    req.on('error', () => {
      if (current === req) failures += 1;
    });
    req.on('close', () => {
      if (current === req) again();
    });
    req.end();
  }

  connect();
  return {
    /** The id the next connection sends as Last-Event-ID. */
    get lastEventId() {
      return parser.lastEventId || lastEventId;
    },
    /** Connections that were answered with a stream, the first included. */
    get connects() {
      return connects;
    },
    /** Cuts the current connection as a network would; the reader connects again by itself. */
    drop() {
      current?.destroy(new Error('dropped on purpose'));
    },
    /** Stops for good. */
    close() {
      stop();
    },
    /** Resolves once the reader has stopped (`close`, or an answer it does not retry). */
    done,
  };
}
