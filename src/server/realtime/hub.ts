import type { FastifyBaseLogger } from 'fastify';
import { REALTIME_HEARTBEAT_MS } from '../../shared/constants';
import { AppError } from '../../shared/errors';
import type { LoanRole, Principal } from '../../shared/domain/access';
import type { ActivityView } from '../../shared/schemas/loans';
import type { PresenceEventData, PresenceViewer } from '../../shared/schemas/realtime';
import type { AccessRegistry } from '../access/access';
import { principalOfSession } from '../accounts/accounts.queries';
import { activityAfter, activityRowsAfter, type ActivityAudience } from '../activity/activity-log';
import { toActivityView } from '../activity/activity-view';
import type { Database } from '../db/client';
import { DEFAULT_EVENT_STREAM_LIMITS, EventStream, formatEvent, formatIdOnly, formatRetry, type EventStreamLimits } from '../platform/realtime/event-stream';
import { openSignalListener, type ListenerOptions, type SignalListener } from '../platform/realtime/listener';
import { parseAccessSignal, parseActivitySignal, PRESENCE_CHANNEL, signal, type RealtimeChannel } from '../platform/realtime/signals';
import { packEventId, type ParsedEventId } from './event-id';
import { Presence } from './presence';
import { unreadNotificationCount } from '../notifications/unread-count';
import { loanHeads, viewersOfLoan } from './realtime.queries';

/**
 * The live loan page's fan-out, one per app instance (decision 020).
 *
 * The listener hears every instance's signals (NOTIFY: ids only). For a
 * loan's activity signal the hub reads the loan's new rows once, after the
 * newest `seq` it has read, and hands them to every stream on that loan, each
 * through its reader's projection (the team's view numbered by `seq`, the
 * borrowers' by `shared_seq`, internal rows never). A stream keeps one cursor
 * per loan and sends a row only past it, so rows reach it in order and once,
 * whether they came by replay or live. Access is checked again whenever it may
 * have changed (a session ended, someone left a loan or a team, a loan was
 * deleted: `coverly_access`) and when the session is due to expire; a stream
 * whose reader lost it ends at once.
 */
export interface HubOptions {
  heartbeatMs: number;
  /** The `retry:` the stream starts with (the browser's reconnection delay). */
  retryMs: number;
  /** A gap larger than this many rows is not replayed: the stream sends `reset` and the page refetches. */
  replayLimit: number;
  limits: EventStreamLimits;
  listener: ListenerOptions;
  /** Streams one person may hold open here at once (REALTIME_STREAMS_PER_PERSON): one more is refused, so nobody holds the server's memory by opening thousands. */
  streamsPerPerson: number;
}

export const DEFAULT_HUB_OPTIONS: HubOptions = {
  heartbeatMs: REALTIME_HEARTBEAT_MS,
  retryMs: 3000,
  replayLimit: 500,
  limits: DEFAULT_EVENT_STREAM_LIMITS,
  listener: {},
  streamsPerPerson: 20,
};

/** How long a person over their streams is asked to wait before trying again. */
export const STREAMS_RETRY_AFTER_SECONDS = 30;

/** Rows read per query when the hub catches a loan up: a burst well within a stream's queue (event-stream.ts). */
const READ_BATCH = 200;

interface LoanState {
  audience: ActivityAudience;
  /** The last cursor sent, in the reader's audience. */
  cursor: number;
}

interface Pending {
  loanId: string;
  /** The row's cursor in this reader's audience. */
  cursor: number;
  data: string;
}

/** One open stream: who reads, which loans, where each stands. */
export class Connection {
  readonly stream: EventStream;
  readonly loans = new Map<string, LoanState>();
  /** Events that arrived while the stream replayed what it missed, sent after it, by cursor. */
  private buffer: Pending[] | null = [];
  expiryTimer: NodeJS.Timeout | null = null;
  /** Counted in presence (after its replay, while open). */
  present = false;

  constructor(
    readonly userId: string,
    readonly sessionToken: string,
    loans: { loanId: string; audience: ActivityAudience }[],
    limits: EventStreamLimits,
  ) {
    this.stream = new EventStream(limits);
    for (const { loanId, audience } of loans) this.loans.set(loanId, { audience, cursor: 0 });
  }

  eventId(): string {
    return packEventId([...this.loans].map(([loanId, { audience, cursor }]) => ({ loanId, audience, cursor })));
  }

  /** An activity row for this reader, sent when it is past the stream's cursor (buffered during the replay). */
  deliver(event: Pending) {
    if (this.buffer) return void this.buffer.push(event);
    const state = this.loans.get(event.loanId);
    if (!state || event.cursor <= state.cursor) return;
    state.cursor = event.cursor;
    this.stream.write(`event: activity\nid: ${this.eventId()}\ndata: ${event.data}\n\n`);
  }

  /** The replay is done: what arrived meanwhile goes out now, past each cursor, in order. */
  goLive() {
    const buffered = this.buffer ?? [];
    this.buffer = null;
    for (const event of buffered) this.deliver(event);
  }
}

interface LoanChannel {
  loanId: string;
  connections: Set<Connection>;
  /** The newest team `seq` the hub has read and handed out. */
  head: number;
  teamName: string;
  ready: Promise<void>;
  reading: boolean;
  again: boolean;
}

export class RealtimeHub {
  private readonly options: HubOptions;
  private readonly channels = new Map<string, LoanChannel>();
  private readonly byUser = new Map<string, Set<Connection>>();
  private readonly presence: Presence;
  private readonly listener: SignalListener;
  private readonly heartbeatTimer: NodeJS.Timeout;
  private closing = false;

  constructor(
    private readonly deps: {
      database: Pick<Database, 'db' | 'kind' | 'url' | 'pglite'>;
      access: AccessRegistry;
      logger?: Pick<FastifyBaseLogger, 'warn' | 'error'>;
    },
    options: Partial<HubOptions> = {},
  ) {
    this.options = { ...DEFAULT_HUB_OPTIONS, ...options };
    this.presence = new Presence({
      ttlMs: this.options.heartbeatMs * 2.5,
      announce: (payload) => void signal(this.db, PRESENCE_CHANNEL, payload).catch((error: unknown) => this.warn(error, 'could not announce presence')),
      onChange: (loanId) => void this.sendPresence(loanId),
    });
    this.listener = openSignalListener(
      deps.database,
      {
        onSignal: (channel, payload) => this.onSignal(channel, payload),
        onReconnected: () => this.catchUp(),
        onDown: (error) => this.warn(error, 'the realtime listener lost its connection; reconnecting'),
      },
      this.options.listener,
    );
    void this.listener.ready.then(() => this.presence.hello());
    this.heartbeatTimer = setInterval(() => this.heartbeat(), this.options.heartbeatMs);
    this.heartbeatTimer.unref();
  }

  private get db() {
    return this.deps.database.db;
  }

  /** Resolves once the listener hears signals: a stream opened before would miss what happens meanwhile. */
  get ready(): Promise<void> {
    return this.listener.ready;
  }

  get isClosing() {
    return this.closing;
  }

  /** Open streams (tests, metrics). */
  get connectionCount(): number {
    let n = 0;
    for (const set of this.byUser.values()) n += set.size;
    return n;
  }

  /**
   * Opens a stream for `userId` on `loans` (each already allowed for them,
   * with their audience), resuming after `resume` (a parsed Last-Event-ID).
   * Returns at once; the stream replays, then goes live.
   */
  open(
    userId: string,
    sessionToken: string,
    sessionExpiresAt: Date | null,
    loans: { loanId: string; audience: ActivityAudience }[],
    resume: ParsedEventId | null,
  ) {
    // Counted and joined in one synchronous step: requests at the same moment cannot both take the last place.
    if ((this.byUser.get(userId)?.size ?? 0) >= this.options.streamsPerPerson) {
      throw new AppError(
        'rate_limited',
        `Too many live connections: at most ${this.options.streamsPerPerson} open pages at once. Close some, or this one tries again in ${STREAMS_RETRY_AFTER_SECONDS} seconds`,
        undefined,
        { retryAfterSeconds: STREAMS_RETRY_AFTER_SECONDS },
      );
    }
    const connection = new Connection(userId, sessionToken, loans, this.options.limits);
    const { stream } = connection;
    stream.write(formatRetry(this.options.retryMs));
    // Joined before anything is read: whatever commits from now on reaches its buffer.
    const users = this.byUser.get(userId) ?? new Set<Connection>();
    this.byUser.set(userId, users);
    users.add(connection);
    const channels = loans.map(({ loanId }) => this.channelOf(loanId));
    for (const channel of channels) channel.connections.add(connection);
    stream.onEnd(() => this.detach(connection));
    this.scheduleExpiry(connection, sessionExpiresAt);
    void this.start(connection, channels, resume).catch((error: unknown) => {
      this.warn(error, 'could not start an event stream');
      stream.end('error');
    });
    return stream;
  }

  private async start(connection: Connection, channels: LoanChannel[], resume: ParsedEventId | null) {
    await Promise.all(channels.map((channel) => channel.ready));
    const heads = await loanHeads(this.db, [...connection.loans.keys()]);
    for (const [loanId, state] of connection.loans) {
      const head = heads.get(loanId);
      // Deleted meanwhile: the access signal ends the stream.
      if (!head) continue;
      const current = state.audience === 'team' ? head.seq : head.sharedSeq;
      const from = resume?.cursors.get(loanId);
      if (from === undefined || from > current) {
        // A fresh stream starts at now; an id from a future it cannot know (another database) or one that could not be read resets.
        state.cursor = current;
        if (resume && (resume.unusable.has(loanId) || (from !== undefined && from > current))) this.writeReset(connection, loanId);
        continue;
      }
      const rows = await activityAfter(this.db, loanId, state.audience, from, this.options.replayLimit + 1);
      if (rows.length > this.options.replayLimit) {
        state.cursor = current;
        this.writeReset(connection, loanId);
        continue;
      }
      state.cursor = from;
      const teamName = head.teamName;
      for (const row of rows) {
        const item = toActivityView(row, state.audience, teamName);
        if (!item) continue;
        if (row.cursor <= state.cursor) continue;
        state.cursor = row.cursor;
        connection.stream.write(formatEvent('activity', { loanId, item }, connection.eventId()));
      }
      // The rows past what was read are the hub's to hand out: none may be skipped by the cursor.
      state.cursor = Math.max(state.cursor, from);
    }
    // The reader's place in every loan, even when nothing happened: what it resumes from next time.
    connection.stream.write(formatIdOnly(connection.eventId()));
    connection.goLive();
    connection.stream.write(formatEvent('inbox', { unread: await unreadNotificationCount(this.db, connection.userId) }));
    if (connection.stream.ended || this.closing) return;
    connection.present = true;
    for (const loanId of connection.loans.keys()) this.presence.join(loanId, connection.userId);
    // The others learn of the newcomer through onChange (when it is new to the loan); the newcomer is told who is there either way.
    for (const loanId of connection.loans.keys()) await this.sendPresence(loanId, connection);
  }

  private writeReset(connection: Connection, loanId: string) {
    connection.stream.write(formatEvent('reset', { loanId }));
  }

  private channelOf(loanId: string): LoanChannel {
    const existing = this.channels.get(loanId);
    if (existing) return existing;
    const channel: LoanChannel = { loanId, connections: new Set(), head: 0, teamName: '', ready: Promise.resolve(), reading: false, again: false };
    // Read after the channel is in the map: a row committed from now on is either at most the head read, or read by the hub.
    channel.ready = loanHeads(this.db, [loanId]).then((heads) => {
      const head = heads.get(loanId);
      channel.head = head?.seq ?? 0;
      channel.teamName = head?.teamName ?? '';
    });
    this.channels.set(loanId, channel);
    return channel;
  }

  private detach(connection: Connection) {
    if (connection.expiryTimer) clearTimeout(connection.expiryTimer);
    const users = this.byUser.get(connection.userId);
    users?.delete(connection);
    if (users?.size === 0) this.byUser.delete(connection.userId);
    for (const loanId of connection.loans.keys()) {
      const channel = this.channels.get(loanId);
      if (!channel) continue;
      channel.connections.delete(connection);
      if (channel.connections.size === 0) this.channels.delete(loanId);
      if (connection.present && !this.closing) this.presence.leave(loanId, connection.userId);
    }
  }

  private onSignal(channel: RealtimeChannel, payload: string) {
    if (this.closing) return;
    switch (channel) {
      case 'coverly_activity': {
        const parsed = parseActivitySignal(payload);
        const loan = parsed && this.channels.get(parsed.loanId);
        if (parsed && loan && parsed.seq > loan.head) void this.pull(loan);
        return;
      }
      case 'coverly_inbox':
        return void this.sendInbox(payload);
      case 'coverly_access': {
        const parsed = parseAccessSignal(payload);
        if (!parsed) return;
        const affected = 'userId' in parsed ? [...(this.byUser.get(parsed.userId) ?? [])] : [...(this.channels.get(parsed.loanId)?.connections ?? [])];
        for (const connection of affected) void this.recheck(connection);
        // Someone who left a team or a loan reads fewer inbox rows: their streams that stay (an inbox-only one) get the new count.
        if ('userId' in parsed) void this.sendInbox(parsed.userId);
        return;
      }
      case 'coverly_presence':
        return this.presence.heard(payload);
    }
  }

  /** Reads the loan's rows after the hub's head and hands them out; one read at a time per loan, again while signals came meanwhile. */
  private async pull(channel: LoanChannel) {
    if (channel.reading) return void (channel.again = true);
    channel.reading = true;
    try {
      await channel.ready;
      do {
        channel.again = false;
        for (;;) {
          const rows = await activityRowsAfter(this.db, channel.loanId, channel.head, READ_BATCH);
          for (const row of rows) this.handOut(channel, row);
          if (rows.length > 0) channel.head = rows.at(-1)!.seq;
          if (rows.length < READ_BATCH) break;
        }
      } while (channel.again && !this.closing);
    } catch (error) {
      // The head did not move: the same rows are read again in a moment (or at the next signal).
      this.warn(error, 'could not read a loan’s new activity for its streams');
      if (!this.closing) setTimeout(() => void this.pull(channel), 1000).unref();
    } finally {
      channel.reading = false;
    }
  }

  private handOut(channel: LoanChannel, row: Awaited<ReturnType<typeof activityRowsAfter>>[number]) {
    const views: Partial<Record<ActivityAudience, { cursor: number; data: string } | null>> = {};
    const viewFor = (audience: ActivityAudience) => {
      if (views[audience] !== undefined) return views[audience];
      const cursor = audience === 'team' ? row.seq : row.sharedSeq;
      const item: ActivityView | null = cursor === null ? null : toActivityView({ ...row, cursor }, audience, channel.teamName);
      views[audience] = item && cursor !== null ? { cursor, data: JSON.stringify({ loanId: channel.loanId, item }) } : null;
      return views[audience];
    };
    for (const connection of channel.connections) {
      const state = connection.loans.get(channel.loanId);
      const view = state && viewFor(state.audience);
      if (view) connection.deliver({ loanId: channel.loanId, ...view });
    }
  }

  private async sendInbox(userId: string) {
    const connections = this.byUser.get(userId);
    if (!connections?.size) return;
    try {
      const unread = await unreadNotificationCount(this.db, userId);
      for (const connection of connections) connection.stream.write(formatEvent('inbox', { unread }));
    } catch (error) {
      this.warn(error, 'could not read an unread count for its streams');
    }
  }

  /** Who else is viewing the loan, to each stream on it (or to `only`), as its reader may see them. */
  private async sendPresence(loanId: string, only?: Connection) {
    const channel = this.channels.get(loanId);
    if (!channel || channel.connections.size === 0) return;
    try {
      await channel.ready;
      const viewers = await viewersOfLoan(this.db, loanId, [...this.presence.viewers(loanId)]);
      for (const connection of only ? [only] : channel.connections) {
        const state = connection.loans.get(loanId);
        if (!state) continue;
        const others = viewers.filter((viewer) => viewer.id !== connection.userId);
        let list: PresenceViewer[];
        if (state.audience === 'team') list = others.map((viewer) => ({ id: viewer.id, name: viewer.name, team: viewer.teamRole !== null }));
        else {
          // Borrowers see each other by name, and the team as the team: never a team member's id or name (decision 010).
          list = others.filter((viewer) => viewer.teamRole === null).map((viewer) => ({ name: viewer.name, team: false }));
          if (others.some((viewer) => viewer.teamRole !== null)) list.unshift({ name: channel.teamName, team: true });
        }
        list.sort((a, b) => Number(b.team) - Number(a.team) || a.name.localeCompare(b.name));
        const data: PresenceEventData = { loanId, viewers: list };
        connection.stream.write(formatEvent('presence', data));
      }
    } catch (error) {
      this.warn(error, 'could not read who views a loan');
    }
  }

  /**
   * Asks again whether the stream's reader may read each of its loans: their
   * session still there and not expired, their role on each loan still one
   * that may view it, in the same audience. Anything else ends the stream.
   */
  async recheck(connection: Connection) {
    if (connection.stream.ended) return;
    try {
      const found = await principalOfSession(this.db, connection.sessionToken);
      if (!found || found.expiresAt.getTime() <= Date.now()) return connection.stream.end('access-ended');
      const principal: Principal = {
        kind: 'user',
        userId: found.user.id,
        email: found.user.email,
        name: found.user.name,
        mfaEnrolled: found.user.twoFactorEnabled,
        ...found.grants,
      };
      for (const [loanId, state] of connection.loans) {
        const { decision, role } = await this.deps.access.decideLoanAction(principal, loanId, 'view');
        if (decision !== 'allow' || audienceOf(role) !== state.audience) return connection.stream.end('access-ended');
      }
      this.scheduleExpiry(connection, found.expiresAt);
    } catch (error) {
      // Could not tell (the database is down): end it, the client reconnects and is checked afresh.
      this.warn(error, 'could not check a stream’s access again; ending it');
      connection.stream.end('access-ended');
    }
  }

  private scheduleExpiry(connection: Connection, expiresAt: Date | null) {
    if (connection.expiryTimer) clearTimeout(connection.expiryTimer);
    connection.expiryTimer = null;
    if (!expiresAt) return;
    // setTimeout holds at most ~24.8 days; a session slides within a week, so this is checked again long before.
    const delay = Math.min(Math.max(0, expiresAt.getTime() - Date.now()) + 1000, 2 ** 31 - 1);
    connection.expiryTimer = setTimeout(() => void this.recheck(connection), delay);
    connection.expiryTimer.unref();
  }

  /** Every stream hears the heartbeat; presence is announced again so other instances keep it. */
  heartbeat() {
    for (const connections of this.byUser.values()) for (const connection of connections) connection.stream.write(formatEvent('heartbeat', {}));
    this.presence.announceAll();
  }

  /** The listener was down: whatever was signalled meanwhile is read from the tables now. */
  catchUp() {
    for (const channel of this.channels.values()) void this.pull(channel);
    for (const userId of this.byUser.keys()) void this.sendInbox(userId);
    for (const connections of this.byUser.values()) for (const connection of connections) void this.recheck(connection);
    this.presence.hello();
    this.presence.announceAll();
  }

  /**
   * Ends every stream with a `retry:` hint (spread over a few seconds, so
   * the clients of a restarting instance do not all come back at once), then
   * stops listening. Runs before the server stops accepting: a stream never
   * holds a deploy for the drain timeout.
   */
  async close() {
    if (this.closing) return;
    this.closing = true;
    clearInterval(this.heartbeatTimer);
    this.presence.leaveAll();
    for (const connections of [...this.byUser.values()])
      for (const connection of [...connections]) connection.stream.end('shutdown', { retryMs: 500 + Math.floor(Math.random() * 2500) });
    await this.listener.close();
  }

  private warn(error: unknown, message: string) {
    this.deps.logger?.warn({ err: error }, message);
  }
}

export const audienceOf = (role: LoanRole): ActivityAudience => (role.kind === 'team' ? 'team' : 'borrowers');
