import { request as httpRequest, type ClientRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';

/** One frame of a Server-Sent Events stream as a browser parses it (an id-only frame has no event and no data). */
export interface SseFrame {
  event?: string;
  id?: string;
  data?: string;
  retry?: number;
}

/**
 * A live `GET /api/events` read over a real socket with node:http, the way a
 * browser's EventSource reads it: frames as they arrive, the last event id,
 * and whether (and how) the stream ended. `pause()` stops reading, so the
 * server's writes back up as a slow client's would.
 */
export interface TestStream {
  statusCode: number;
  headers: IncomingHttpHeaders;
  /** Every frame so far, in order. */
  frames: SseFrame[];
  /** The raw text so far. */
  text(): string;
  /** The id of the last frame that carried one (what a browser would send as Last-Event-ID). */
  lastEventId(): string | undefined;
  /** Resolves with the first frame (from `from` on) that matches; rejects if the stream ends first. */
  next(match: (frame: SseFrame) => boolean, from?: number): Promise<SseFrame>;
  /** How many frames of this event arrived (cheap: nothing parsed). */
  count(event: string): number;
  /** Resolves once `n` frames of `event` arrived; rejects if the stream ends first. */
  counted(event: string, n: number): Promise<void>;
  /** The `activity` frames' data, parsed. */
  activity(): { loanId: string; item: { id: number; kind: string; visibility: string; data: Record<string, unknown>; actor: unknown } }[];
  /** Resolves when the server ends the stream (or the socket breaks). */
  ended: Promise<void>;
  /** Read up to the replay's end: the id-only frame every stream sends once it goes live. */
  live(): Promise<void>;
  pause(): void;
  resume(): void;
  close(): void;
}

export function parseFrames(text: string): { frames: SseFrame[]; rest: string } {
  const frames: SseFrame[] = [];
  const blocks = text.split('\n\n');
  const rest = blocks.pop() ?? '';
  for (const block of blocks) {
    const frame: SseFrame = {};
    for (const line of block.split('\n')) {
      if (line.startsWith(':') || line === '') continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') frame.event = value;
      else if (field === 'id') frame.id = value;
      else if (field === 'data') frame.data = frame.data === undefined ? value : `${frame.data}\n${value}`;
      else if (field === 'retry') frame.retry = Number(value);
    }
    frames.push(frame);
  }
  return { frames, rest };
}

export function openStream(baseUrl: string, { path, cookie, lastEventId }: { path: string; cookie?: string; lastEventId?: string }): Promise<TestStream> {
  const target = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const onResponse = (response: IncomingMessage) => {
      let buffer = '';
      let all = '';
      const frames: SseFrame[] = [];
      const waiters: { match: (frame: SseFrame) => boolean; from: number; resolve: (frame: SseFrame) => void; reject: (error: Error) => void }[] = [];
      let done = false;
      let resolveEnded!: () => void;
      const ended = new Promise<void>((r) => (resolveEnded = r));
      const settle = () => {
        for (const waiter of [...waiters]) {
          const found = frames.slice(waiter.from).find(waiter.match);
          if (found) {
            waiters.splice(waiters.indexOf(waiter), 1);
            waiter.resolve(found);
          } else if (done) {
            waiters.splice(waiters.indexOf(waiter), 1);
            waiter.reject(new Error(`the stream ended first; it sent:\n${all}`));
          }
        }
      };
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        all += chunk;
        const parsed = parseFrames(buffer + chunk);
        buffer = parsed.rest;
        frames.push(...parsed.frames);
        settle();
      });
      const finish = () => {
        if (done) return;
        done = true;
        settle();
        resolveEnded();
      };
      response.on('end', finish);
      response.on('close', finish);
      response.on('error', finish);
      const stream: TestStream = {
        statusCode: response.statusCode ?? 0,
        headers: response.headers,
        frames,
        text: () => all,
        lastEventId: () => frames.findLast((frame) => frame.id !== undefined)?.id,
        next: (match, from = 0) =>
          new Promise((resolveFrame, rejectFrame) => {
            waiters.push({ match, from, resolve: resolveFrame, reject: rejectFrame });
            settle();
          }),
        count: (event) => frames.reduce((n, frame) => n + Number(frame.event === event), 0),
        counted: async (event, n) => {
          let seen = 0;
          let checked = 0;
          // Counted as frames arrive, once each: a burst of thousands stays linear.
          await stream.next(() => {
            for (; checked < frames.length; checked++) if (frames[checked]!.event === event) seen++;
            return seen >= n;
          });
        },
        activity: () => frames.filter((frame) => frame.event === 'activity').map((frame) => JSON.parse(frame.data!)),
        ended,
        live: async () => {
          await stream.next((frame) => frame.id !== undefined && frame.event === undefined);
        },
        pause: () => response.pause(),
        resume: () => response.resume(),
        close: () => req.destroy(),
      };
      resolve(stream);
    };
    const req: ClientRequest = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path,
        headers: { accept: 'text/event-stream', ...(cookie ? { cookie } : {}), ...(lastEventId ? { 'last-event-id': lastEventId } : {}) },
      },
      onResponse,
    );
    req.on('error', reject);
    req.end();
  });
}
