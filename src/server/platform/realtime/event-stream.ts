import { PassThrough } from 'node:stream';

/**
 * One Server-Sent Events response, as bytes on their way: the transport under
 * the live loan page (src/server/realtime/). It knows the wire format and its
 * own backpressure, nothing about loans.
 *
 * Writes go to a PassThrough that Fastify pipes into the response, so a
 * client that reads slowly makes `write` return false once the socket and the
 * stream's own buffer are full. From then on events wait in a bounded queue
 * until the stream drains; a client that lets it fill is dropped (it
 * reconnects and replays from its last event id, decision 020), so one slow
 * reader never holds an unbounded amount of the server's memory.
 */
export interface EventStreamLimits {
  /** Events waiting for a slow client, at most. */
  maxQueuedEvents: number;
  /** Bytes waiting for a slow client, at most. */
  maxQueuedBytes: number;
}

/** A thousand events, or 4 MB of them: a loan page's events are a few hundred bytes each. */
export const DEFAULT_EVENT_STREAM_LIMITS: EventStreamLimits = { maxQueuedEvents: 1000, maxQueuedBytes: 4 * 1024 * 1024 };

/** Why a stream ended: the client left, it was too slow, access ended, the server is stopping. */
export type EndReason = 'client-closed' | 'too-slow' | 'access-ended' | 'shutdown' | 'error';

/** One event's lines: `event:`, `id:` (when it has one) and `data:` (JSON on one line, so no newline inside). */
export function formatEvent(event: string, data: unknown, id?: string): string {
  return `event: ${event}\n${id === undefined ? '' : `id: ${id}\n`}data: ${JSON.stringify(data)}\n\n`;
}

/** Only an id: the browser's EventSource (and our client) takes it as the last event id without dispatching anything. */
export const formatIdOnly = (id: string) => `id: ${id}\n\n`;

export const formatRetry = (ms: number) => `retry: ${Math.max(0, Math.round(ms))}\n\n`;

export class EventStream {
  readonly body = new PassThrough();
  private queue: string[] = [];
  private queuedBytes = 0;
  private blocked = false;
  private endedWith: EndReason | null = null;
  private readonly endListeners: ((reason: EndReason) => void)[] = [];

  constructor(private readonly limits: EventStreamLimits = DEFAULT_EVENT_STREAM_LIMITS) {
    this.body.on('drain', () => this.flush());
    // The response closed under us (the client left, the socket broke): Fastify destroys what it pipes.
    this.body.on('close', () => this.finish('client-closed'));
    this.body.on('error', () => this.finish('error'));
  }

  get ended(): boolean {
    return this.endedWith !== null;
  }

  /** Events waiting for the client (tests, metrics). */
  get queued(): number {
    return this.queue.length;
  }

  onEnd(listener: (reason: EndReason) => void) {
    if (this.endedWith) listener(this.endedWith);
    else this.endListeners.push(listener);
  }

  /** Sends `text` (whole events), or queues it behind a slow client; drops the client when the queue is full. */
  write(text: string) {
    if (this.endedWith) return;
    if (this.blocked) {
      this.queue.push(text);
      this.queuedBytes += Buffer.byteLength(text);
      if (this.queue.length > this.limits.maxQueuedEvents || this.queuedBytes > this.limits.maxQueuedBytes) this.end('too-slow');
      return;
    }
    if (!this.body.write(text)) this.blocked = true;
  }

  /** Ends the stream: `retryMs` tells the browser when to come back (a shutdown's hint); `destroy` cuts it without flushing what waits. */
  end(reason: EndReason, { retryMs }: { retryMs?: number } = {}) {
    if (this.endedWith) return;
    this.queue = [];
    this.queuedBytes = 0;
    if (reason === 'too-slow' || reason === 'error') {
      // What waits would take as long to send as the client takes to read: cut it; it replays on reconnect.
      this.finish(reason);
      this.body.destroy();
      return;
    }
    if (retryMs !== undefined) this.body.write(formatRetry(retryMs));
    this.finish(reason);
    this.body.end();
  }

  private flush() {
    this.blocked = false;
    while (this.queue.length > 0 && !this.blocked && !this.endedWith) {
      const next = this.queue.shift()!;
      this.queuedBytes -= Buffer.byteLength(next);
      if (!this.body.write(next)) this.blocked = true;
    }
  }

  private finish(reason: EndReason) {
    if (this.endedWith) return;
    this.endedWith = reason;
    for (const listener of this.endListeners.splice(0)) listener(reason);
  }
}
