import { randomUUID } from 'node:crypto';

/**
 * Who has a stream open on which loan, across app instances (decision 020).
 *
 * Each instance counts its own streams per loan and person, and announces a
 * loan's set of people on `coverly_presence` whenever it changes, and again
 * at every heartbeat: `<instance> <loanId> <userId>,<userId>…`. Every instance
 * keeps what the others announced, forgets an announcement that was not
 * repeated for `ttlMs` (an instance that died), and asks the others to
 * announce everything (`<instance> hello`) when it starts and after its
 * listener reconnects. NOTIFY carries ids only; names are read from the
 * tables when the set changes. No table, nothing to clean up.
 */
export interface PresenceOptions {
  /** Sends a payload on the presence channel (NOTIFY; it comes back to this instance too, and is ignored). */
  announce(payload: string): void;
  /** A loan's set of viewers (all instances) changed. */
  onChange(loanId: string): void;
  ttlMs: number;
  now?: () => number;
}

/** Announced ids must fit NOTIFY's 8000 bytes: beyond this many people on one loan, one instance announces the first ones. */
const MAX_ANNOUNCED = 200;

export class Presence {
  readonly instance = randomUUID();
  private readonly local = new Map<string, Map<string, number>>();
  private readonly remote = new Map<string, Map<string, { userIds: Set<string>; at: number }>>();
  private readonly now: () => number;

  constructor(private readonly options: PresenceOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Everyone viewing the loan on any instance. */
  viewers(loanId: string): Set<string> {
    const all = new Set(this.local.get(loanId)?.keys() ?? []);
    for (const loans of this.remote.values()) for (const userId of loans.get(loanId)?.userIds ?? []) all.add(userId);
    return all;
  }

  join(loanId: string, userId: string) {
    const counts = this.local.get(loanId) ?? new Map<string, number>();
    this.local.set(loanId, counts);
    const before = counts.get(userId) ?? 0;
    counts.set(userId, before + 1);
    if (before === 0) this.localChanged(loanId);
  }

  leave(loanId: string, userId: string) {
    const counts = this.local.get(loanId);
    const before = counts?.get(userId) ?? 0;
    if (!counts || before === 0) return;
    if (before > 1) return void counts.set(userId, before - 1);
    counts.delete(userId);
    if (counts.size === 0) this.local.delete(loanId);
    this.localChanged(loanId);
  }

  /** Asks every other instance to announce what it has (start, reconnect). */
  hello() {
    this.options.announce(`${this.instance} hello`);
  }

  /** Announces every loan this instance has viewers on (each heartbeat, and when asked), and forgets silent instances. */
  announceAll() {
    for (const loanId of this.local.keys()) this.announceLoan(loanId);
    const oldest = this.now() - this.options.ttlMs;
    for (const [instance, loans] of this.remote) {
      for (const [loanId, entry] of loans) {
        if (entry.at >= oldest) continue;
        loans.delete(loanId);
        this.options.onChange(loanId);
      }
      if (loans.size === 0) this.remote.delete(instance);
    }
  }

  /** Says goodbye: every loan of this instance announced empty (shutdown). */
  leaveAll() {
    for (const loanId of [...this.local.keys()]) this.options.announce(`${this.instance} ${loanId} `);
    this.local.clear();
  }

  /** A presence payload from the channel. */
  heard(payload: string) {
    const [instance, loanId, ids] = payload.split(' ');
    if (!instance || instance === this.instance || !loanId) return;
    if (loanId === 'hello') return this.announceAll();
    if (!/^[0-9a-f-]{36}$/.test(loanId)) return;
    const userIds = new Set((ids ?? '').split(',').filter((id) => id.length > 0));
    const loans = this.remote.get(instance) ?? new Map<string, { userIds: Set<string>; at: number }>();
    this.remote.set(instance, loans);
    const before = loans.get(loanId)?.userIds ?? new Set<string>();
    if (userIds.size === 0) loans.delete(loanId);
    else loans.set(loanId, { userIds, at: this.now() });
    if (loans.size === 0) this.remote.delete(instance);
    if (before.size !== userIds.size || [...userIds].some((id) => !before.has(id))) this.options.onChange(loanId);
  }

  private localChanged(loanId: string) {
    this.announceLoan(loanId);
    this.options.onChange(loanId);
  }

  private announceLoan(loanId: string) {
    const ids = [...(this.local.get(loanId)?.keys() ?? [])].slice(0, MAX_ANNOUNCED);
    this.options.announce(`${this.instance} ${loanId} ${ids.join(',')}`);
  }
}
