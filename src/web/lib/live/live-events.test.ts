import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { applyFrame, PresenceStore, staleKeysFor } from './live-events';

const LOAN = '3f2a9c1b-0000-4000-8000-000000000001';
const OTHER = '9a0c2d11-0000-4000-8000-000000000002';

/** A cache holding every kind of query the loan pages read, for two loans, all fresh. */
function filledCache() {
  const client = new QueryClient();
  const keys = [
    ['loans', LOAN],
    ['loans', LOAN, 'activity'],
    ['loans', LOAN, 'checklist'],
    ['loans', LOAN, 'checklist', 'item-1', 'versions'],
    ['loans', LOAN, 'participants'],
    ['loans', LOAN, 'comments'],
    ['loans', OTHER],
    ['notifications', 'unread-count'],
    ['me'],
  ];
  for (const key of keys) client.setQueryData(key, { fresh: true });
  const stale = () =>
    keys
      .filter((key) => client.getQueryState(key)?.isInvalidated)
      .map((key) => key.join('/'))
      .sort();
  return { client, stale };
}

const activity = (kind: string, loanId = LOAN) => ({
  event: 'activity',
  data: JSON.stringify({ loanId, item: { id: 1, kind, actor: null, data: {}, visibility: 'shared', at: '2026-01-01T00:00:00Z' } }),
});

describe('what a live event marks stale', () => {
  it('reads again what each kind of change touches, on that loan only', () => {
    const cases: [string, string[]][] = [
      ['comment.posted', [`loans/${LOAN}/activity`, `loans/${LOAN}/comments`]],
      ['document.approved', [`loans/${LOAN}`, `loans/${LOAN}/activity`, `loans/${LOAN}/checklist`, `loans/${LOAN}/checklist/item-1/versions`]],
      ['participant.joined', [`loans/${LOAN}/activity`, `loans/${LOAN}/participants`]],
    ];
    for (const [kind, expected] of cases) {
      const { client, stale } = filledCache();
      applyFrame(client, new PresenceStore(), activity(kind));
      expect(stale(), kind).toEqual(expected.sort());
    }
    // A stage move, an edit, or a kind this page does not know: everything of the loan.
    const { client, stale } = filledCache();
    applyFrame(client, new PresenceStore(), activity('stage.changed'));
    expect(stale()).toEqual(
      [
        `loans/${LOAN}`,
        `loans/${LOAN}/activity`,
        `loans/${LOAN}/checklist`,
        `loans/${LOAN}/checklist/item-1/versions`,
        `loans/${LOAN}/comments`,
        `loans/${LOAN}/participants`,
      ].sort(),
    );
    expect(staleKeysFor(OTHER, 'loan.updated')).toEqual([{ queryKey: ['loans', OTHER] }]);
  });

  it('reads the whole loan again after a reset, the inbox after an inbox event, and nothing for a heartbeat', () => {
    let cache = filledCache();
    applyFrame(cache.client, new PresenceStore(), { event: 'reset', data: JSON.stringify({ loanId: OTHER }) });
    expect(cache.stale()).toEqual([`loans/${OTHER}`]);
    cache = filledCache();
    applyFrame(cache.client, new PresenceStore(), { event: 'inbox', data: JSON.stringify({ unread: 3 }) });
    expect(cache.stale()).toEqual(['notifications/unread-count']);
    cache = filledCache();
    applyFrame(cache.client, new PresenceStore(), { event: 'heartbeat', data: '{}' });
    expect(cache.stale()).toEqual([]);
  });

  it('keeps who else views each loan, and tells its subscribers', () => {
    const presence = new PresenceStore();
    let told = 0;
    presence.subscribe(() => told++);
    applyFrame(new QueryClient(), presence, { event: 'presence', data: JSON.stringify({ loanId: LOAN, viewers: [{ name: 'Live Lending', team: true }] }) });
    expect(presence.get(LOAN)).toEqual([{ name: 'Live Lending', team: true }]);
    expect(presence.get(OTHER)).toEqual([]);
    expect(told).toBe(1);
  });
});
