import { REALTIME_HEARTBEAT_MS, REALTIME_TIMEOUT_MS } from '../../../shared/constants';
import { SseParser, type SseFrame } from './sse-parser';

/**
 * The tab's one stream (`GET /api/events`, decision 020) and everything that
 * keeps it open: it reopens with the last event id when the loans change,
 * when the server ends it, when it fails, and when nothing was heard for
 * heartbeat + timeout (25 + 10 s, the seed's constants) — with exponential
 * backoff and jitter, or at once when the browser comes back online. While
 * the browser is offline it does not try. No React here: `live-events.tsx`
 * wires it to the query cache.
 */
export interface LiveConnectionHandlers {
  /** A frame with an event (the id-only frames and `retry:` lines are the connection's own). */
  onFrame(frame: SseFrame & { event: string }): void;
  /** The stream answered 200. `fresh`: without a last event id, so what happened before it opened was not replayed. */
  onOpen(loans: string[], fresh: boolean): void;
  /** The stream was refused: 401 (the session ended), 404 (a loan went away or access to it did). */
  onRefused(status: number, loans: string[]): void;
  /** The stream is down (dropped, refused, offline) until the next `onOpen`. */
  onDown?(): void;
}

const BASE_BACKOFF_MS = 1000;
const MAX_BACKOFF_MS = 30_000;

export class LiveConnection {
  private loans: string[] = [];
  private lastEventId: string | undefined;
  private abort: AbortController | null = null;
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  private silenceTimer: ReturnType<typeof setTimeout> | null = null;
  private attempt = 0;
  /** The server's `retry:` hint (a shutdown spreads its clients' returns): the next reconnection's delay. */
  private serverRetryMs: number | null = null;
  private stopped = false;

  constructor(
    private readonly handlers: LiveConnectionHandlers,
    private readonly url = '/api/events',
  ) {
    window.addEventListener('online', this.onOnline);
    window.addEventListener('offline', this.onOffline);
  }

  /** Follows these loans from now on: reopens the stream (with the last id) when the set changed. */
  follow(loans: string[]) {
    const next = [...new Set(loans)].sort();
    if (next.join(',') === this.loans.join(',')) return;
    this.loans = next;
    this.attempt = 0;
    this.open();
  }

  /** Opens the stream if it is not open or about to reopen (with no loans: the inbox only). */
  start() {
    if (!this.abort && !this.reconnectTimer) this.open();
  }

  stop() {
    this.stopped = true;
    window.removeEventListener('online', this.onOnline);
    window.removeEventListener('offline', this.onOffline);
    this.close();
  }

  private readonly onOnline = () => {
    this.attempt = 0;
    this.open();
  };

  private readonly onOffline = () => {
    this.close();
    this.handlers.onDown?.();
  };

  private close() {
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    if (this.silenceTimer) clearTimeout(this.silenceTimer);
    this.reconnectTimer = null;
    this.silenceTimer = null;
    this.abort?.abort();
    this.abort = null;
  }

  private open() {
    this.close();
    // With no loans the stream still carries the inbox's count: the bell is live on every page.
    if (this.stopped || !navigator.onLine) return;
    const abort = new AbortController();
    this.abort = abort;
    void this.read(abort, [...this.loans]).catch(() => {
      if (this.abort === abort) this.scheduleReconnect();
    });
  }

  private async read(abort: AbortController, loans: string[]) {
    const lastEventId = this.lastEventId;
    this.heard(abort);
    const query = loans.length > 0 ? `?loans=${loans.map(encodeURIComponent).join(',')}` : '';
    const response = await fetch(`${this.url}${query}`, {
      headers: { accept: 'text/event-stream', ...(lastEventId ? { 'last-event-id': lastEventId } : {}) },
      credentials: 'same-origin',
      cache: 'no-store',
      signal: abort.signal,
    });
    if (response.status === 400 && lastEventId) {
      // An id this stream cannot read (the server's format moved on): start afresh, and refetch.
      this.lastEventId = undefined;
      throw new Error('event id refused');
    }
    if (!response.ok || !response.body) {
      if (response.status === 401 || response.status === 404) this.handlers.onRefused(response.status, loans);
      throw new Error(`stream refused: ${response.status}`);
    }
    this.handlers.onOpen(loans, !lastEventId);
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    const parser = new SseParser();
    for (;;) {
      const { done, value } = await reader.read();
      if (done || this.abort !== abort) break;
      this.heard(abort);
      this.attempt = 0;
      for (const frame of parser.push(value)) {
        if (frame.id !== undefined) this.lastEventId = frame.id;
        // Only a hint that ends the stream counts (a shutdown's); the one it starts with is EventSource's.
        this.serverRetryMs = frame.retry ?? null;
        if (frame.event !== undefined) this.handlers.onFrame(frame as SseFrame & { event: string });
      }
    }
    // The server ended it (a restart, access that changed, a client too slow): come back.
    if (this.abort === abort) this.scheduleReconnect();
  }

  /** Something arrived: the silence timer starts again. */
  private heard(abort: AbortController) {
    if (this.silenceTimer) clearTimeout(this.silenceTimer);
    this.silenceTimer = setTimeout(() => {
      if (this.abort !== abort) return;
      abort.abort();
      this.scheduleReconnect();
    }, REALTIME_HEARTBEAT_MS + REALTIME_TIMEOUT_MS);
  }

  private scheduleReconnect() {
    if (this.stopped || this.reconnectTimer) return;
    this.handlers.onDown?.();
    this.abort = null;
    if (this.silenceTimer) clearTimeout(this.silenceTimer);
    const base = this.serverRetryMs ?? Math.min(MAX_BACKOFF_MS, BASE_BACKOFF_MS * 2 ** this.attempt);
    this.serverRetryMs = null;
    this.attempt += 1;
    // Jitter: the tabs of a restarted server do not all come back in the same instant.
    const delay = base / 2 + Math.random() * (base / 2);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.open();
    }, delay);
  }
}
