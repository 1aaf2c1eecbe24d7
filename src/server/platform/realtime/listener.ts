import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { Database } from '../../db/client';
import { REALTIME_CHANNELS, type RealtimeChannel } from './signals';

/**
 * Hears the realtime signals (signals.ts) of every app instance on the
 * database. On PostgreSQL that is one dedicated connection per instance that
 * LISTENs, and reconnects with backoff when it drops: NOTIFY has no memory, so
 * whatever was sent while it was down is gone, and the listener says so
 * (`onReconnected`) for its owner to catch up from the tables. On PGlite the
 * database lives in this process and its NOTIFY reaches `listen` callbacks
 * after commit; it never drops.
 */
export interface SignalHandlers {
  onSignal(channel: RealtimeChannel, payload: string): void;
  /** Listening again after the connection dropped: signals sent meanwhile are lost, read what changed. */
  onReconnected(): void;
  /** The connection dropped (or could not be made); it is being retried. */
  onDown?(error: unknown): void;
}

export interface SignalListener {
  /** Resolves once every channel is listened to (the first connection on PostgreSQL). */
  ready: Promise<void>;
  close(): Promise<void>;
}

export interface ListenerOptions {
  /** The first retry's delay; each next one doubles, up to `maxBackoffMs`, with jitter. */
  minBackoffMs?: number;
  maxBackoffMs?: number;
}

/** The PostgreSQL listener's `application_name`, so an operator (or a test) can find its connection in pg_stat_activity. */
export const LISTENER_APPLICATION_NAME = 'coverly-realtime';

export function openSignalListener(
  database: Pick<Database, 'kind' | 'url' | 'pglite'>,
  handlers: SignalHandlers,
  options: ListenerOptions = {},
): SignalListener {
  if (database.kind === 'pglite') {
    if (!database.pglite) throw new Error('openSignalListener: the PGlite database has no client');
    return pgliteListener(database.pglite, handlers);
  }
  if (!database.url) throw new Error('openSignalListener: the PostgreSQL database has no connection string');
  return postgresListener(database.url, handlers, options);
}

function pgliteListener(client: PGlite, handlers: SignalHandlers): SignalListener {
  const stops: (() => Promise<void>)[] = [];
  const ready = (async () => {
    for (const channel of REALTIME_CHANNELS) stops.push(await client.listen(channel, (payload) => handlers.onSignal(channel, payload)));
  })();
  return {
    ready,
    close: async () => {
      await ready.catch(() => {});
      // A closed database has nothing left to unlisten.
      if (!client.closed) for (const stop of stops) await stop().catch(() => {});
    },
  };
}

function postgresListener(url: string, handlers: SignalHandlers, { minBackoffMs = 100, maxBackoffMs = 10_000 }: ListenerOptions): SignalListener {
  let closed = false;
  let client: pg.Client | null = null;
  let attempt = 0;
  let retryTimer: NodeJS.Timeout | null = null;
  let connectedOnce = false;
  let resolveReady!: () => void;
  const ready = new Promise<void>((resolve) => (resolveReady = resolve));

  const scheduleRetry = (error: unknown) => {
    if (closed || retryTimer) return;
    handlers.onDown?.(error);
    const base = Math.min(maxBackoffMs, minBackoffMs * 2 ** attempt);
    attempt += 1;
    // Full jitter: instances that lost the database together do not come back in step.
    retryTimer = setTimeout(
      () => {
        retryTimer = null;
        void connect();
      },
      base / 2 + Math.random() * (base / 2),
    );
  };

  const connect = async () => {
    if (closed) return;
    const next = new pg.Client({ connectionString: url, application_name: LISTENER_APPLICATION_NAME, keepAlive: true });
    client = next;
    let failed = false;
    const fail = (error: unknown) => {
      if (failed) return;
      failed = true;
      if (client === next) client = null;
      next.removeAllListeners('notification');
      void next.end().catch(() => {});
      scheduleRetry(error);
    };
    next.on('error', fail);
    next.on('end', () => fail(new Error('the listener connection ended')));
    next.on('notification', (message) => {
      if ((REALTIME_CHANNELS as readonly string[]).includes(message.channel)) handlers.onSignal(message.channel as RealtimeChannel, message.payload ?? '');
    });
    try {
      await next.connect();
      await next.query(REALTIME_CHANNELS.map((channel) => `LISTEN ${channel}`).join('; '));
    } catch (error) {
      fail(error);
      return;
    }
    if (closed) {
      await next.end().catch(() => {});
      return;
    }
    attempt = 0;
    if (connectedOnce) handlers.onReconnected();
    connectedOnce = true;
    resolveReady();
  };
  void connect();

  return {
    ready,
    close: async () => {
      closed = true;
      if (retryTimer) clearTimeout(retryTimer);
      resolveReady();
      const last = client;
      client = null;
      if (last) {
        last.removeAllListeners();
        last.on('error', () => {});
        await last.end().catch(() => {});
      }
    },
  };
}
