import type { Agent } from 'node:http';

/** One dispatched event, as EventSource would hand it over. */
export interface StreamEvent {
  /** `event:`, or 'message'. */
  type: string;
  /** The `data:` lines joined with newlines. */
  data: string;
  /** The `id:` of this event, or null when it had none (a heartbeat, presence, reset). */
  id: string | null;
  /** The newest id seen so far: what a reconnect sends as Last-Event-ID. */
  lastEventId: string;
}

export const SILENCE_MS: number;

export interface EventParser {
  push(chunk: Uint8Array | string): void;
  readonly lastEventId: string;
  readonly retry: number | null;
  reset(): void;
}

export function createEventParser(onEvent: (event: StreamEvent) => void): EventParser;

export interface EventStreamOptions {
  /** Sent on every connection (the session cookie). */
  headers?: Record<string, string>;
  /** The id to resume after on the first connection. */
  lastEventId?: string;
  agent?: Agent;
  /** The local address to connect from (a distinct loopback address stands for a distinct client). */
  localAddress?: string;
  /** Silence after which the connection is taken for dead; default SILENCE_MS. */
  silenceMs?: number;
  /** The first wait before connecting again when the server gave no `retry:`; default 500 ms. */
  retryMs?: number;
  /** The longest wait between failed connections in a row; default 5 s. */
  maxRetryMs?: number;
  onEvent?: (event: StreamEvent) => void;
  onOpen?: (info: { status: number; connects: number; lastEventId: string }) => void;
  /** A stop for good: an answer that is not a stream and not worth retrying (401, 404…). */
  onError?: (error: Error & { status?: number }) => void;
}

export interface EventStream {
  readonly lastEventId: string;
  readonly connects: number;
  drop(): void;
  close(): void;
  readonly done: Promise<void>;
}

export function openEventStream(url: string, options?: EventStreamOptions): EventStream;
