import { useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { createContext, useContext, useEffect, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import type { ActivityEventData, PresenceEventData, PresenceViewer, ResetEventData } from '../../../shared/schemas/realtime';
import { LiveConnection } from './live-connection';
import type { SseFrame } from './sse-parser';

/**
 * The live loan page, in the browser: one stream per tab (`LiveEventsProvider`,
 * in the app shell, opened on every app page so the bell is live) for the
 * loans the page shows and the person's inbox. A component that shows a
 * loan calls `useLiveLoan(loanId)`; the stream reopens (with its last event
 * id, so nothing is missed) whenever that set changes. Each event marks the
 * queries it changes stale, by kind, and TanStack Query reads them again:
 * nothing is written into a form, so what someone is typing stays.
 *
 * Query keys (the features' own, see each `api/` folder): everything of a
 * loan starts with ['loans', loanId] (the loan, ['loans', id, 'activity'],
 * 'checklist' with its items' versions, 'participants', 'comments'); the
 * inbox is ['notifications'].
 */
const LOAN_SCOPE = 'loans';
export const NOTIFICATIONS_SCOPE = 'notifications';

/** What an activity row of this kind changes, besides the activity feed: stale from now on. */
export function staleKeysFor(loanId: string, kind: string): { queryKey: QueryKey; exact?: boolean }[] {
  const loan = [LOAN_SCOPE, loanId];
  const activity = { queryKey: [...loan, 'activity'] };
  const [family] = kind.split('.');
  switch (family) {
    case 'comment':
      return [{ queryKey: [...loan, 'comments'] }, activity];
    case 'checklist':
    case 'document':
      // Items and their versions, and the loan's progress and document counts.
      return [{ queryKey: [...loan, 'checklist'] }, { queryKey: loan, exact: true }, activity];
    case 'participant':
    case 'invitation':
      return [{ queryKey: [...loan, 'participants'] }, activity];
    case 'upload_link':
    case 'upload-link':
      return [{ queryKey: [...loan, 'upload-links'] }, activity];
    default:
      // Stage moves, edits, archiving, and kinds this page does not know yet: everything of the loan.
      return [{ queryKey: loan }];
  }
}

/** What one frame of the stream does to the page's server state. */
export function applyFrame(queryClient: QueryClient, presence: PresenceStore, frame: SseFrame & { event: string }) {
  const data = frame.data === undefined ? undefined : (JSON.parse(frame.data) as unknown);
  switch (frame.event) {
    case 'activity': {
      const { loanId, item } = data as ActivityEventData;
      for (const filter of staleKeysFor(loanId, item.kind)) void queryClient.invalidateQueries(filter);
      return;
    }
    case 'reset':
      // Too much happened to replay: read the whole loan again.
      return void queryClient.invalidateQueries({ queryKey: [LOAN_SCOPE, (data as ResetEventData).loanId] });
    case 'inbox':
      return void queryClient.invalidateQueries({ queryKey: [NOTIFICATIONS_SCOPE] });
    case 'presence': {
      const { loanId, viewers } = data as PresenceEventData;
      return presence.set(loanId, viewers);
    }
    // heartbeat: its arrival is what counts (live-connection.ts).
  }
}

/** Who else views each loan, as the stream last said. */
export class PresenceStore {
  private readonly viewers = new Map<string, PresenceViewer[]>();
  private readonly listeners = new Set<() => void>();
  private static readonly NONE: PresenceViewer[] = [];

  set(loanId: string, viewers: PresenceViewer[]) {
    this.viewers.set(loanId, viewers);
    for (const listener of this.listeners) listener();
  }

  get(loanId: string): PresenceViewer[] {
    return this.viewers.get(loanId) ?? PresenceStore.NONE;
  }

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  };
}

/** Whether the tab's stream is open now: while it is, nothing needs polling. */
export class StreamStatus {
  private up = false;
  private readonly listeners = new Set<() => void>();

  set(up: boolean) {
    if (up === this.up) return;
    this.up = up;
    for (const listener of this.listeners) listener();
  }

  get = () => this.up;

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  };
}

/** The loans the page shows, counted by the components that follow them, and the one connection that streams them. */
class LiveEvents {
  readonly presence = new PresenceStore();
  readonly status = new StreamStatus();
  private readonly counts = new Map<string, number>();
  private connection: LiveConnection | null = null;
  private pending: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly queryClient: QueryClient) {}

  /** Follows a loan until the returned function is called. */
  follow(loanId: string): () => void {
    this.counts.set(loanId, (this.counts.get(loanId) ?? 0) + 1);
    this.changed();
    return () => {
      const n = (this.counts.get(loanId) ?? 1) - 1;
      if (n > 0) this.counts.set(loanId, n);
      else this.counts.delete(loanId);
      this.changed();
    };
  }

  /** Opens the tab's stream before any loan is followed: the inbox's count is live on every page of the app. */
  start() {
    this.connection ??= this.connect();
    this.connection.start();
  }

  stop() {
    this.status.set(false);
    if (this.pending) clearTimeout(this.pending);
    this.pending = null;
    this.connection?.stop();
    this.connection = null;
  }

  // Components mount and unmount together when a page changes: one reopen for all of them.
  private changed() {
    if (this.pending) return;
    this.pending = setTimeout(() => {
      this.pending = null;
      this.connection ??= this.connect();
      this.connection.follow([...this.counts.keys()]);
    }, 0);
  }

  private connect() {
    const { queryClient, presence, status } = this;
    return new LiveConnection({
      onFrame: (frame) => applyFrame(queryClient, presence, frame),
      onDown: () => status.set(false),
      onOpen: (loans, fresh) => {
        status.set(true);
        // The inbox may have changed while the stream was down or before it opened.
        void queryClient.invalidateQueries({ queryKey: [NOTIFICATIONS_SCOPE] });
        // Opened without an id, what happened between the page's reads and now was not replayed: read again.
        if (fresh) for (const loanId of loans) void queryClient.invalidateQueries({ queryKey: [LOAN_SCOPE, loanId] });
      },
      onRefused: (status, loans) => {
        // A loan gone or out of reach: its page reads it again and shows what the server says; a 401 is the shell's.
        if (status === 404) for (const loanId of loans) void queryClient.invalidateQueries({ queryKey: [LOAN_SCOPE, loanId] });
        else void queryClient.invalidateQueries({ queryKey: ['me'] });
      },
    });
  }
}

const LiveEventsContext = createContext<LiveEvents | null>(null);

/** The tab's stream, for the signed-in app (the shell mounts it inside its QueryClientProvider). */
export function LiveEventsProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const live = useMemo(() => new LiveEvents(queryClient), [queryClient]);
  useEffect(() => {
    live.start();
    return () => live.stop();
  }, [live]);
  return <LiveEventsContext.Provider value={live}>{children}</LiveEventsContext.Provider>;
}

/**
 * Keeps this loan live while the component is mounted, and says who else is
 * viewing it (never the reader). Outside the provider it does nothing.
 */
export function useLiveLoan(loanId: string | undefined): PresenceViewer[] {
  const live = useContext(LiveEventsContext);
  useEffect(() => (live && loanId ? live.follow(loanId) : undefined), [live, loanId]);
  const presence = live?.presence;
  return useSyncExternalStore(
    presence?.subscribe ?? noSubscribe,
    () => (presence && loanId ? presence.get(loanId) : NO_VIEWERS),
    () => NO_VIEWERS,
  );
}

/** Whether the tab's stream is open (false outside the provider): polling is a fallback for while it is not. */
export function useLiveStreamUp(): boolean {
  const status = useContext(LiveEventsContext)?.status;
  return useSyncExternalStore(status?.subscribe ?? noSubscribe, status?.get ?? notUp, notUp);
}

const notUp = () => false;
const NO_VIEWERS: PresenceViewer[] = [];
const noSubscribe = () => () => {};
