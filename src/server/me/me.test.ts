import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { SESSION_CHECK_INTERVAL_MS, SESSION_REFRESH_WITHIN_CHECKS, sessionNeedsRefresh } from '../../shared/constants';
import type { Me } from '../../shared/schemas/me';
import { session, user } from '../db/schema';
import { setupApi } from '../../test/api';
import { backends } from '../../test/databases';
import { createAccount, createCast } from '../../test/factories';
import { cookieFrom } from '../../test/http';
import { PEOPLE_PASSWORD, signIn, type People } from '../../test/people';

const WEEK_MS = 7 * 86_400_000;

describe('sessionNeedsRefresh', () => {
  const now = new Date('2026-03-01T12:00:00Z');
  const inMs = (ms: number) => new Date(now.getTime() + ms);
  const window = SESSION_CHECK_INTERVAL_MS * SESSION_REFRESH_WITHIN_CHECKS;

  it('is due within three 30-second checks of the end, and not before', () => {
    expect(window).toBe(90_000);
    expect(sessionNeedsRefresh(inMs(WEEK_MS), now)).toBe(false);
    expect(sessionNeedsRefresh(inMs(window + 1), now)).toBe(false);
    expect(sessionNeedsRefresh(inMs(window), now)).toBe(true);
    expect(sessionNeedsRefresh(inMs(60_000), now)).toBe(true);
    expect(sessionNeedsRefresh(inMs(1), now)).toBe(true);
    // Already ended: still "due", and the refresh will tell the client it is signed out.
    expect(sessionNeedsRefresh(inMs(-1_000), now)).toBe(true);
  });
});

describe.each(backends)('/api/me and sessions on %s', (backend) => {
  const api = setupApi(backend);
  let people: People;

  beforeAll(async () => {
    people = await createCast(api, 'me');
    for (const email of ['slider@me.test', 'renamer@me.test', 'origin@me.test']) await createAccount(api, { email, name: 'Sam Example' });
  });

  const getMe = (cookie: string, headers: Record<string, string> = {}) => api.as(cookie).get('/api/me', { headers });
  const sessionRowsOf = async (email: string) =>
    api.db.select({ id: session.id, expiresAt: session.expiresAt }).from(session).innerJoin(user, eq(user.id, session.userId)).where(eq(user.email, email));

  it('describes each kind of person', async () => {
    const team = (id: string, name: string, role: 'owner' | 'assistant') => ({
      id,
      name,
      accentColor: '#1d4ed8',
      logoUrl: null,
      role,
      dscrThresholds: { strong: 1.25, eligible: 1 },
      timeZone: 'America/New_York',
    });
    const expected: Record<keyof Omit<People, 'teamA' | 'teamB'>, Omit<Me, 'user' | 'sessionExpiresAt' | 'workPhone' | 'participantLoans'> & { name: string }> =
      {
        admin: { name: 'admin', platformAdmin: true, broker: false, mfaEnrolled: true, mustEnrolMfa: false, team: null },
        newAdmin: { name: 'new-admin', platformAdmin: true, broker: false, mfaEnrolled: false, mustEnrolMfa: true, team: null },
        ownerA: {
          name: 'owner-a',
          platformAdmin: false,
          broker: true,
          mfaEnrolled: true,
          mustEnrolMfa: false,
          team: team(people.teamA, "owner-a's team", 'owner'),
        },
        assistantA: {
          name: 'assistant-a',
          platformAdmin: false,
          broker: false,
          mfaEnrolled: true,
          mustEnrolMfa: false,
          team: team(people.teamA, "owner-a's team", 'assistant'),
        },
        newAssistantA: {
          name: 'new-assistant-a',
          platformAdmin: false,
          broker: false,
          mfaEnrolled: false,
          mustEnrolMfa: true,
          team: team(people.teamA, "owner-a's team", 'assistant'),
        },
        ownerB: {
          name: 'owner-b',
          platformAdmin: false,
          broker: true,
          mfaEnrolled: true,
          mustEnrolMfa: false,
          team: team(people.teamB, "owner-b's team", 'owner'),
        },
        borrower: { name: 'borrower', platformAdmin: false, broker: false, mfaEnrolled: false, mustEnrolMfa: false, team: null },
      };
    for (const [who, { name, ...rest }] of Object.entries(expected) as [keyof typeof expected, (typeof expected)['admin']][]) {
      const person = people[who];
      const response = await getMe(person.cookie);
      expect(response.statusCode, who).toBe(200);
      expect(response.headers['cache-control'], who).toBe('no-store');
      const body = response.json() as Me;
      expect(body, who).toEqual({
        user: { id: person.userId, name, email: person.email },
        ...rest,
        workPhone: null,
        participantLoans: 0,
        sessionExpiresAt: expect.any(String),
      });
      const left = Date.parse(body.sessionExpiresAt) - Date.now();
      expect(left, who).toBeGreaterThan(WEEK_MS - 60_000);
      expect(left, who).toBeLessThanOrEqual(WEEK_MS);
    }
    const anonymous = await getMe('');
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().code).toBe('unauthenticated');
  });

  it('renames the signed-in person, and refuses an empty name or an unknown field', async () => {
    const { cookie } = await signIn(api.app, 'renamer@me.test');
    const renamed = await api.as(cookie).patch('/api/me', { name: '  Ada Lovelace ' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({ user: { name: 'Ada Lovelace', email: 'renamer@me.test' } });
    expect((await getMe(cookie)).json().user.name).toBe('Ada Lovelace');

    const empty = await api.as(cookie).patch('/api/me', { name: '   ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors).toEqual([{ field: 'name', message: 'Name is required' }]);
    const missing = await api.as(cookie).patch('/api/me', {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors[0].field).toBe('name');
    const long = await api.as(cookie).patch('/api/me', { name: 'x'.repeat(121) });
    expect(long.statusCode).toBe(400);
    const unknown = await api.as(cookie).patch('/api/me', { name: 'Ada', email: 'someone-else@me.test' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors).toEqual([{ field: 'email', message: 'Unknown field' }]);
    expect((await getMe(cookie)).json().user).toMatchObject({ name: 'Ada Lovelace', email: 'renamer@me.test' });

    expect((await api.as().patch('/api/me', { name: 'Nobody' })).statusCode).toBe(401);
  });

  it('slides a session that is about to end a week forward, with a renewed cookie', async () => {
    const { cookie } = await signIn(api.app, 'slider@me.test');
    // A fresh session is not extended on every request.
    const fresh = await getMe(cookie);
    expect(fresh.statusCode).toBe(200);
    expect(fresh.headers['set-cookie']).toBeUndefined();

    const [row] = await sessionRowsOf('slider@me.test');
    const endsSoon = new Date(Date.now() + 60_000);
    await api.db
      .update(session)
      .set({ expiresAt: endsSoon })
      .where(eq(session.id, row?.id ?? ''));
    expect(sessionNeedsRefresh(endsSoon, new Date())).toBe(true);

    const before = Date.now();
    const refreshed = await getMe(cookie);
    expect(refreshed.statusCode).toBe(200);
    const setCookie = ([] as string[]).concat(refreshed.headers['set-cookie'] ?? []);
    const renewed = setCookie.find((c) => c.startsWith('coverly.session_token='));
    expect(renewed, String(setCookie)).toBeDefined();
    expect(renewed).toMatch(/Max-Age=604800/i);
    expect(renewed).toMatch(/HttpOnly/i);
    expect(renewed).toMatch(/SameSite=Lax/i);

    const [after] = await sessionRowsOf('slider@me.test');
    const ahead = (after?.expiresAt.getTime() ?? 0) - before;
    expect(ahead).toBeGreaterThan(WEEK_MS - 60_000);
    expect(ahead).toBeLessThanOrEqual(WEEK_MS + 1_000);
    const body = refreshed.json() as Me;
    expect(body.sessionExpiresAt).toBe(after?.expiresAt.toISOString());
    expect(sessionNeedsRefresh(new Date(body.sessionExpiresAt), new Date())).toBe(false);

    // The renewed cookie is the same session, still good.
    const next = await getMe(cookieFrom(refreshed));
    expect(next.statusCode).toBe(200);
    expect(next.json().sessionExpiresAt).toBe(body.sessionExpiresAt);
  });

  it('ends a session whose time ran out, and clears its cookie', async () => {
    const { cookie } = await signIn(api.app, 'origin@me.test');
    const [row] = await sessionRowsOf('origin@me.test');
    await api.db
      .update(session)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(session.id, row?.id ?? ''));
    const expired = await getMe(cookie);
    expect(expired.statusCode).toBe(401);
    const cleared = ([] as string[]).concat(expired.headers['set-cookie'] ?? []).find((c) => c.startsWith('coverly.session_token='));
    expect(cleared).toMatch(/Max-Age=0/i);
    // better-auth removes the ended session's row as it refuses it.
    expect(await sessionRowsOf('origin@me.test')).toEqual([]);
  });

  it('refuses a state-changing request from a foreign origin, before it does anything', async () => {
    const { cookie } = await signIn(api.app, 'origin@me.test');
    const patch = (headers: Record<string, string>) => api.as(cookie).patch('/api/me', { name: 'Mallory' }, { headers });

    const foreign = await patch({ origin: 'https://evil.example' });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(foreign.json()).toMatchObject({ code: 'forbidden', detail: 'Requests from origin https://evil.example are not accepted' });
    // An opaque origin (a sandboxed frame, a data: URL) is foreign too.
    expect((await patch({ origin: 'null' })).statusCode).toBe(403);
    // A browser that says the request is cross-site is refused even without Origin.
    const crossSite = await patch({ 'sec-fetch-site': 'cross-site' });
    expect(crossSite.statusCode).toBe(403);
    expect(crossSite.json().detail).toBe('Cross-site requests are not accepted');
    expect((await getMe(cookie)).json().user.name).toBe('Sam Example');

    // Signing in from another site is refused as well: no session is handed out.
    const signInElsewhere = await api
      .as()
      .post('/api/auth/sign-in/email', { email: 'origin@me.test', password: PEOPLE_PASSWORD }, { headers: { origin: 'https://evil.example' } });
    expect(signInElsewhere.statusCode).toBe(403);
    expect(signInElsewhere.headers['set-cookie']).toBeUndefined();

    // Reading is not state-changing; the app's own origin may write.
    expect((await getMe(cookie, { origin: 'https://evil.example' })).statusCode).toBe(200);
    const own = await patch({ origin: 'http://localhost:3000', 'sec-fetch-site': 'same-origin' });
    expect(own.statusCode).toBe(200);
    expect(own.json().user.name).toBe('Mallory');
  });
});
