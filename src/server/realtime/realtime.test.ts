import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityPage } from '../../shared/schemas/loans';
import { setupApi } from '../../test/api';
import { backends } from '../../test/databases';
import { openStream, type TestStream } from '../../test/event-stream';
import { addAssistant, addBorrower, createLoan, createTeamWithOwner, type Person, type Team } from '../../test/factories';
import { joinLoan } from '../accounts/loan-participants';
import { recordActivity } from '../activity/activity-log';
import { ACCESS_CHANNEL, signalInbox } from '../platform/realtime/signals';
import { eq, sql } from 'drizzle-orm';
import { notification, session } from '../db/schema';
import { realtimeHubOf } from './realtime.routes';

describe.each(backends)('the live loan stream on %s', (backend) => {
  const api = setupApi(backend, { listen: true });
  let team: Team;
  let assistant: Person;
  let loanId: string;
  let borrower: Person;
  let version: number;
  let stage = 'lead';
  const streams: TestStream[] = [];

  beforeAll(async () => {
    team = await createTeamWithOwner(api, { name: 'Harbor Lending' });
    assistant = await addAssistant(api, team.teamId, { name: 'Asha Assistant' });
    const loan = await createLoan(api, team.teamId, team.owner, { borrowerName: 'Dana Doe' });
    loanId = loan.id;
    version = loan.version;
    borrower = await addBorrower(api, loanId, { name: 'Bea Borrower' });
  });
  afterEach(() => {
    for (const stream of streams.splice(0)) stream.close();
  });

  const open = async (who: Person | undefined, query = `loans=${loanId}`, lastEventId?: string) => {
    const stream = await openStream(api.baseUrl, {
      path: `/api/events?${query}`,
      ...(who ? { cookie: who.cookie } : {}),
      ...(lastEventId ? { lastEventId } : {}),
    });
    streams.push(stream);
    return stream;
  };
  /** An internal row (a field edit) and a shared one (a stage move), through the routes. */
  const internalEdit = async (lenderLoanNumber: string) => {
    const edited = await api.as(team.owner).patch(`/api/loans/${loanId}`, { version, lenderLoanNumber });
    expect(edited.statusCode, edited.body).toBe(200);
    version = edited.json().version;
  };
  const stageMove = async () => {
    const to = stage === 'lead' ? 'application' : 'lead';
    const moved = await api.as(team.owner).post(`/api/loans/${loanId}/stage`, { from: stage, to });
    expect(moved.statusCode, moved.body).toBe(200);
    stage = to;
    version = moved.json().version;
  };
  const activityOf = async (who: Person) => (await api.as(who).get(`/api/loans/${loanId}/activity`)).json<ActivityPage>().items;

  it('answers an event stream with its headers, a retry line first, then the reader’s place', async () => {
    const stream = await open(team.owner);
    expect(stream.statusCode).toBe(200);
    expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(stream.headers['cache-control']).toBe('no-cache, no-transform');
    expect(stream.headers['x-accel-buffering']).toBe('no');
    await stream.live();
    expect(stream.text()).toMatch(/^retry: \d+\n\n/);
    expect(stream.lastEventId()).toMatch(new RegExp(`^${loanId.slice(0, 8)}:t\\d+$`));
    await stream.next((frame) => frame.event === 'inbox');
  });

  it('carries each change live to the team whole and to borrowers through their projection, as the activity route gives it', async () => {
    const owner = await open(team.owner);
    const reader = await open(borrower);
    await Promise.all([owner.live(), reader.live()]);
    await internalEdit('LN-1');
    await stageMove();
    await internalEdit('LN-2');
    await stageMove();
    await owner.next((frame) => frame.event === 'activity' && JSON.parse(frame.data!).item.kind === 'stage.changed' && owner.activity().length >= 4);
    await reader.next((frame) => frame.event === 'activity' && reader.activity().length >= 2);
    // The last stage move reached the borrower: anything internal before it would have come first.
    const teamFeed = (await activityOf(team.owner)).slice(0, 4).reverse();
    const borrowerFeed = (await activityOf(borrower)).slice(0, 2).reverse();
    expect(owner.activity().map((event) => event.item)).toEqual(teamFeed);
    expect(reader.activity().map((event) => event.item)).toEqual(borrowerFeed);
    expect(reader.activity().every((event) => event.item.visibility === 'shared')).toBe(true);
    expect(reader.text()).not.toContain('LN-');
    expect(reader.text()).not.toContain(team.owner.userId);
    // Each event's id is the reader's cursor in its own sequence.
    const last = reader.frames.findLast((frame) => frame.event === 'activity')!;
    expect(last.id).toBe(`${loanId.slice(0, 8)}:b${borrowerFeed.at(-1)!.id}`);
  });

  it('replays what was missed after Last-Event-ID, then goes on live, without a duplicate or a gap', async () => {
    const first = await open(team.owner);
    await first.live();
    const resumeFrom = first.lastEventId()!;
    first.close();
    await internalEdit('LN-3');
    await stageMove();
    const missed = (await activityOf(team.owner)).slice(0, 2).reverse();
    const again = await open(team.owner, `loans=${loanId}`, resumeFrom);
    await again.live();
    expect(again.activity().map((event) => event.item)).toEqual(missed);
    await stageMove();
    await again.next((frame) => frame.event === 'activity' && again.activity().length === 3);
    const ids = again.activity().map((event) => event.item.id);
    expect(ids).toEqual([missed[0]!.id, missed[0]!.id + 1, missed[0]!.id + 2]);
    // The same through the query parameter, for a fresh EventSource.
    const viaQuery = await open(team.owner, `loans=${loanId}&lastEventId=${encodeURIComponent(resumeFrom)}`);
    await viaQuery.live();
    expect(viaQuery.activity().map((event) => event.item.id)).toEqual(ids);
  });

  it('sends reset when the gap is too large to replay, or the id counts in another sequence', async () => {
    const hub = realtimeHubOf(api.app);
    const limit = (hub as unknown as { options: { replayLimit: number } }).options.replayLimit;
    const first = await open(team.owner);
    await first.live();
    const resumeFrom = first.lastEventId()!;
    first.close();
    await recordActivity(
      api.db,
      loanId,
      Array.from({ length: limit + 1 }, () => ({ actorId: null, kind: 'loan.updated', visibility: 'internal' as const, data: { changes: [] } })),
    );
    const again = await open(team.owner, `loans=${loanId}`, resumeFrom);
    await again.live();
    expect(again.frames.filter((frame) => frame.event === 'reset').map((frame) => JSON.parse(frame.data!))).toEqual([{ loanId }]);
    expect(again.activity()).toEqual([]);
    // A team cursor offered by a borrower: reset, never read in the borrowers' sequence.
    const borrowerStream = await open(borrower, `loans=${loanId}`, resumeFrom);
    await borrowerStream.live();
    expect(borrowerStream.frames.some((frame) => frame.event === 'reset')).toBe(true);
  });

  it('refuses a malformed event id with a 400 naming it, and bad loan lists with a 400', async () => {
    for (const id of ['nonsense', 'abcdefgh:x1', `${loanId.slice(0, 8)}:t99999999999`, 'a'.repeat(2000)]) {
      const response = await api.as(team.owner).get(`/api/events?loans=${loanId}`, { headers: { 'last-event-id': id } });
      expect(response.statusCode, id).toBe(400);
      expect(response.body).toMatch(/Last-Event-ID|lastEventId/);
    }
    for (const query of ['loans=nope', `loans=${Array.from({ length: 21 }, () => crypto.randomUUID()).join(',')}`, `loans=${loanId}&x=1`]) {
      const response = await api.as(team.owner).get(`/api/events?${query}`);
      expect(response.statusCode, query).toBe(400);
    }
  });

  it('answers a loan the caller may not see exactly as an unknown route, and anonymous callers 401', async () => {
    const hidden = (await api.as().get('/api/__no_such_route__')).json();
    const other = await createTeamWithOwner(api, { name: 'Other Lending' });
    const stranger = await addBorrower(api, (await createLoan(api, other.teamId, other.owner)).id);
    for (const [who, query] of [
      [other.owner, `loans=${loanId}`],
      [stranger, `loans=${loanId}`],
      [team.owner, `loans=${crypto.randomUUID()}`],
      [borrower, `loans=${loanId},${crypto.randomUUID()}`],
    ] as const) {
      const response = await api.as(who).get(`/api/events?${query}`);
      expect(response.statusCode, query).toBe(404);
      expect({ ...response.json(), instance: undefined, detail: undefined }).toEqual({ ...hidden, instance: undefined, detail: undefined });
    }
    expect((await api.as().get(`/api/events?loans=${loanId}`)).statusCode).toBe(401);
  });

  it('delivers every row once and in order under concurrent writers', async () => {
    const owner = await open(team.owner);
    const reader = await open(borrower);
    await Promise.all([owner.live(), reader.live()]);
    const before = (await activityOf(team.owner))[0]!.id;
    const beforeShared = (await activityOf(borrower))[0]!.id;
    const writers = 4;
    const each = 15;
    await Promise.all(
      Array.from({ length: writers }, (_, w) =>
        (async () => {
          for (let i = 0; i < each; i++)
            await recordActivity(api.db, loanId, {
              actorId: null,
              kind: i % 3 === 0 ? 'loan.updated' : 'stage.changed',
              visibility: i % 3 === 0 ? 'internal' : 'shared',
              data: { from: 'lead', to: 'application', writer: w, i },
            });
        })(),
      ),
    );
    const total = writers * each;
    const shared = writers * (each - Math.ceil(each / 3));
    await owner.next(() => owner.activity().length >= total);
    await reader.next(() => reader.activity().length >= shared);
    expect(owner.activity().map((event) => event.item.id)).toEqual(Array.from({ length: total }, (_, i) => before + 1 + i));
    expect(reader.activity().map((event) => event.item.id)).toEqual(Array.from({ length: shared }, (_, i) => beforeShared + 1 + i));
    expect(reader.activity().every((event) => event.item.visibility === 'shared')).toBe(true);
  });

  it('ends the stream of a borrower removed from the loan, and of a member removed from the team, at once', async () => {
    const leaving = await addBorrower(api, loanId, { name: 'Lee Leaving' });
    const stream = await open(leaving);
    await stream.live();
    const removed = await api.as(team.owner).delete(`/api/loans/${loanId}/participants/${leaving.userId}`);
    expect(removed.statusCode, removed.body).toBeLessThan(300);
    await stream.ended;
    const member = await addAssistant(api, team.teamId, { name: 'Max Member' });
    const memberStream = await open(member);
    await memberStream.live();
    const gone = await api.as(team.owner).delete(`/api/teams/${team.teamId}/members/${member.userId}`);
    expect(gone.statusCode, gone.body).toBeLessThan(300);
    await memberStream.ended;
    // Those who stay keep theirs.
    const staying = await open(assistant);
    await staying.live();
    await stageMove();
    await staying.next((frame) => frame.event === 'activity');
  });

  it('ends the stream when its session signs out', async () => {
    const other = await addBorrower(api, loanId, { name: 'Sid Signout' });
    const stream = await open(other);
    await stream.live();
    const out = await api.as(other).post('/api/auth/sign-out', {}, { headers: { origin: api.config.publicUrl } });
    expect(out.statusCode, out.body).toBe(200);
    await stream.ended;
    expect((await api.as(other).get(`/api/events?loans=${loanId}`)).statusCode).toBe(401);
  });

  it('ends the stream when its session is revoked in the database, whatever code deletes it', async () => {
    const other = await addBorrower(api, loanId, { name: 'Rae Revoked' });
    const stream = await open(other);
    await stream.live();
    await api.db.delete(session).where(eq(session.userId, other.userId));
    await stream.ended;
  });

  it('ends the stream when its session runs out by time, with nothing deleted and no request to tell it', async () => {
    const other = await addBorrower(api, loanId, { name: 'Eve Expiring' });
    const stream = await open(other);
    await stream.live();
    // The session now ends in 3 s. An update fires no trigger; an access signal (as any change of the person's
    // access would send) makes the stream read its session again and set its timer to the new end.
    await api.db
      .update(session)
      .set({ expiresAt: new Date(Date.now() + 3000) })
      .where(eq(session.userId, other.userId));
    await api.db.execute(sql`select pg_notify(${ACCESS_CHANNEL}, ${`user:${other.userId}`})`);
    // Still open until the moment passes: the signal alone does not end it.
    await stageMove();
    await stream.next((frame) => frame.event === 'activity');
    const started = Date.now();
    await stream.ended;
    expect(Date.now() - started).toBeGreaterThan(300);
    expect((await api.as(other).get(`/api/events?loans=${loanId}`)).statusCode).toBe(401);
  });

  it('holds at most REALTIME_STREAMS_PER_PERSON streams for one person, also when they all come at once; another person is not held back', async () => {
    const many = await addBorrower(api, loanId, { name: 'Tab Hoarder' });
    const cap = api.config.realtimeStreamsPerPerson;
    expect(cap).toBe(20);
    // Five more than the cap, at the same moment.
    const opened = await Promise.all(Array.from({ length: cap + 5 }, () => open(many)));
    const codes = opened.map((stream) => stream.statusCode);
    expect(codes.filter((code) => code === 200)).toHaveLength(cap);
    const refused = opened.filter((stream) => stream.statusCode === 429);
    expect(refused).toHaveLength(5);
    expect(refused[0]!.headers['retry-after']).toBe('30');
    await refused[0]!.ended;
    expect(JSON.parse(refused[0]!.text())).toMatchObject({ status: 429, detail: expect.stringContaining('at most 20 open pages') });
    // Someone else's tab opens as ever.
    const other = await open(assistant);
    expect(other.statusCode).toBe(200);
    // A tab closed frees its place.
    const first = opened.find((stream) => stream.statusCode === 200)!;
    first.close();
    await first.ended;
    let reopened: TestStream | undefined;
    for (let tries = 0; tries < 50 && reopened?.statusCode !== 200; tries++) {
      reopened?.close();
      reopened = await open(many);
      if (reopened.statusCode !== 200) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(reopened?.statusCode).toBe(200);
    await reopened!.live();
  });

  it('streams the inbox alone to a page that shows no loan: its count, and nothing of any loan', async () => {
    const stream = await open(team.owner, '');
    expect(stream.statusCode).toBe(200);
    await stream.live();
    const start = stream.frames.length;
    await internalEdit('INBOX-ONLY-1');
    await api.db.transaction(async (tx) => {
      await tx.insert(notification).values({ userId: team.owner.userId, kind: 'stage_change', loanId, audience: 'shared', data: {} });
      await signalInbox(tx, team.owner.userId);
    });
    const frame = await stream.next((f) => f.event === 'inbox', start);
    expect(JSON.parse(frame.data!)).toHaveProperty('unread');
    expect(stream.frames.filter((f) => f.event === 'activity' || f.event === 'presence')).toHaveLength(0);
  });

  it('tells each reader their unread count when the inbox changes', async () => {
    const stream = await open(borrower);
    await stream.live();
    const start = stream.frames.length;
    // A row of a loan they are not on (left, say) is not theirs to count: the stream counts as the inbox does.
    const elsewhere = await createLoan(api, team.teamId, team.owner);
    const unread = async () => (await api.as(borrower).get('/api/me/notifications/unread-count')).json<{ unread: number }>().unread;
    const before = await unread();
    await api.db.transaction(async (tx) => {
      await tx.insert(notification).values({ userId: borrower.userId, kind: 'stage_change', loanId, audience: 'shared', data: {} });
      await tx.insert(notification).values({ userId: borrower.userId, kind: 'stage_change', loanId: elsewhere.id, audience: 'shared', data: {} });
      await signalInbox(tx, borrower.userId);
    });
    // An earlier test's inbox signal may still arrive first (NOTIFY is asynchronous): the frame that counts the new rows.
    const frame = await stream.next((f) => f.event === 'inbox' && JSON.parse(f.data!).unread > before, start);
    expect(JSON.parse(frame.data!)).toEqual({ unread: before + 1 });
    expect(frame.id).toBeUndefined();
    expect(await unread()).toBe(before + 1);
  });

  it('tells a member removed from the team the count without the team’s rows, and counts the shared ones again when they join the loan as a borrower', async () => {
    const member = await addAssistant(api, team.teamId, { name: 'Rae Removed' });
    await api.db.transaction(async (tx) => {
      await tx.insert(notification).values([
        { userId: member.userId, kind: 'mention', loanId, audience: 'team', data: { title: 'An internal note' } },
        { userId: member.userId, kind: 'mention', loanId, audience: 'shared', data: { title: 'A shared comment' } },
      ]);
      await signalInbox(tx, member.userId);
    });
    // The inbox alone (a page that shows no loan): nothing ends it when its reader leaves the team.
    const stream = await open(member, '');
    await stream.live();
    await stream.next((f) => f.event === 'inbox' && JSON.parse(f.data!).unread === 2);
    const removed = await api.as(team.owner).delete(`/api/teams/${team.teamId}/members/${member.userId}`);
    expect(removed.statusCode, removed.body).toBe(204);
    await stream.next((f) => f.event === 'inbox' && JSON.parse(f.data!).unread === 0);
    await api.db.transaction((tx) => joinLoan(tx, { loanId, userId: member.userId, role: 'co_borrower', invitedBy: null }));
    await stream.next((f) => f.event === 'inbox' && JSON.parse(f.data!).unread === 1);
  });

  it('shows who else views the loan: the team by name to the team, as the team to borrowers', async () => {
    const ownerStream = await open(team.owner);
    await ownerStream.live();
    const mark = ownerStream.frames.length;
    const borrowerStream = await open(borrower);
    await borrowerStream.live();
    const seen = await ownerStream.next((frame) => frame.event === 'presence' && frame.data!.includes(borrower.userId), mark);
    expect(JSON.parse(seen.data!)).toEqual({ loanId, viewers: [{ id: borrower.userId, name: 'Bea Borrower', team: false }] });
    const toBorrower = await borrowerStream.next((frame) => frame.event === 'presence');
    expect(JSON.parse(toBorrower.data!)).toEqual({ loanId, viewers: [{ name: 'Harbor Lending', team: true }] });
    expect(borrowerStream.text()).not.toContain(team.owner.userId);
    const left = ownerStream.frames.length;
    borrowerStream.close();
    const after = await ownerStream.next((frame) => frame.event === 'presence', left);
    expect(JSON.parse(after.data!)).toEqual({ loanId, viewers: [] });
    expect(after.id).toBeUndefined();
  });

  it('sends heartbeats as named events without an id', async () => {
    const stream = await open(borrower);
    await stream.live();
    const mark = stream.frames.length;
    realtimeHubOf(api.app).heartbeat();
    const beat = await stream.next((frame) => frame.event === 'heartbeat', mark);
    expect(beat.id).toBeUndefined();
  });

  it('drops a reader too slow to drain its queue, and keeps serving the others', { timeout: 60_000 }, async () => {
    const slow = await open(team.owner);
    const quick = await open(assistant);
    await Promise.all([slow.live(), quick.live()]);
    slow.pause();
    // More than the socket's buffers hold (a few MB on loopback), then more than the queue (1,000 events or 4 MB),
    // each burst written once the reader that reads has read the one before.
    const big = 'x'.repeat(8 * 1024);
    const rows = 3000;
    for (let i = 0; i < rows; i += 100) {
      await recordActivity(
        api.db,
        loanId,
        Array.from({ length: 100 }, () => ({ actorId: null, kind: 'loan.updated', visibility: 'internal' as const, data: { note: big } })),
      );
      await quick.counted('activity', i + 100);
    }
    slow.resume();
    await slow.ended;
    expect(slow.count('activity')).toBeLessThan(rows);
    expect(quick.count('activity')).toBe(rows);
  });
});
