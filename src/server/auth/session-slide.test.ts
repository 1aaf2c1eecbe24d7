import { eq, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { setupApi } from '../../test/api';
import { backends } from '../../test/databases';
import { createAccount } from '../../test/factories';
import { signIn } from '../../test/people';
import { resolvePrincipal } from '../access/access';
import { session, user } from '../db/schema';
import { sessionCookieReader, type SessionCookieReader } from './session-cookie';

const DAY_MS = 86_400_000;
const AT_ONCE = 10;

/**
 * One person's requests at once (their tabs, a page's parallel calls) must not
 * wait on each other for their session: reading a session writes nothing, and
 * the once-a-day slide of its expiry is written by one request only, the
 * others going on without waiting for it (issue 23). Writes to the session
 * table (the tests' own included) are counted by a trigger, on both databases.
 */
describe.each(backends)('one session, many requests at once, on %s', (backend) => {
  const api = setupApi(backend);
  let reader: SessionCookieReader;

  beforeAll(async () => {
    reader = await sessionCookieReader(api.app.auth);
    await api.db.execute(sql`create table test_session_write (token text not null, at timestamptz not null default clock_timestamp())`);
    await api.db.execute(sql`create function test_count_session_write() returns trigger language plpgsql as $$
      begin insert into test_session_write (token) values (new.token); return new; end $$`);
    await api.db.execute(sql`create trigger test_count_session_write after update on session for each row execute function test_count_session_write()`);
  });

  const signedIn = async (email: string) => {
    const account = await createAccount(api, { email });
    const { cookie } = await signIn(api.app, account.email);
    const [row] = await api.db
      .select({ id: session.id, token: session.token })
      .from(session)
      .innerJoin(user, eq(user.id, session.userId))
      .where(eq(user.email, account.email));
    if (!row) throw new Error('no session');
    return { cookie, ...row };
  };
  const rowOf = async (id: string) => (await api.db.select().from(session).where(eq(session.id, id)))[0];
  const writesOf = async (token: string) =>
    ((await api.db.execute(sql`select count(*)::int as n from test_session_write where token = ${token}`)) as unknown as { rows: { n: number }[] }).rows[0]
      ?.n ?? 0;
  /** Signed in two days ago and last slid then: due to slide (updateAge is a day), five days left. */
  const ageTwoDays = (id: string) =>
    api.db
      .update(session)
      .set({ expiresAt: new Date(Date.now() + 5 * DAY_MS), updatedAt: new Date(Date.now() - 2 * DAY_MS) })
      .where(eq(session.id, id));
  const manyAtOnce = (cookie: string) => Promise.all(Array.from({ length: AT_ONCE }, () => api.as(cookie).get('/api/me')));
  const setCookiesOf = (response: { headers: Record<string, unknown> }) => ([] as string[]).concat((response.headers['set-cookie'] as string[] | string) ?? []);

  it('reads a current session without writing it, however many requests come at once', async () => {
    const { cookie, id, token } = await signedIn('current@slide.test');
    const before = await rowOf(id);
    const answers = await manyAtOnce(cookie);
    expect(answers.map((a) => a.statusCode)).toEqual(Array(AT_ONCE).fill(200));
    expect(answers.flatMap(setCookiesOf)).toEqual([]);
    expect(await writesOf(token)).toBe(0);
    expect(await rowOf(id)).toEqual(before);
  });

  it('slides a session due to slide once, whichever of its requests at once gets there first, and answers every one', async () => {
    const { cookie, id, token } = await signedIn('due@slide.test');
    await ageTwoDays(id);
    const written = await writesOf(token);
    const started = Date.now();
    const answers = await manyAtOnce(cookie);
    expect(answers.map((a) => a.statusCode)).toEqual(Array(AT_ONCE).fill(200));
    expect(await writesOf(token)).toBe(written + 1);
    const after = await rowOf(id);
    expect(after!.expiresAt.getTime()).toBeGreaterThanOrEqual(started + 7 * DAY_MS);
    expect(after!.expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + 7 * DAY_MS);
    // The browser's cookie is renewed for the week too, as better-auth renews it.
    const renewed = answers.flatMap(setCookiesOf).filter((c) => c.startsWith('coverly.session_token='));
    expect(renewed.length).toBeGreaterThanOrEqual(1);
    for (const line of renewed) expect(line).toMatch(/Max-Age=604800/);
    // The answer that slid it says when it now ends.
    expect(answers.map((a) => a.json<{ sessionExpiresAt: string }>().sessionExpiresAt)).toContain(after!.expiresAt.toISOString());

    // Slid: the next requests at once write nothing more.
    const again = await manyAtOnce(cookie);
    expect(again.map((a) => a.statusCode)).toEqual(Array(AT_ONCE).fill(200));
    expect(again.flatMap(setCookiesOf)).toEqual([]);
    expect(await writesOf(token)).toBe(written + 1);
  });

  it('renews the cookie exactly as better-auth does when it slides a session itself', async () => {
    const { cookie, id } = await signedIn('cookie@slide.test');
    const request = { headers: { cookie } } as unknown as FastifyRequest;
    await ageTwoDays(id);
    const theirs = (await resolvePrincipal(api.app.auth, api.db, request)).authHeaders.getSetCookie();
    await ageTwoDays(id);
    const ours = (await resolvePrincipal(api.app.auth, api.db, request, reader)).authHeaders.getSetCookie();
    expect(theirs.filter((c) => c.startsWith('coverly.session_token='))).toHaveLength(1);
    expect(ours).toEqual(theirs);
  });

  it('still refuses at once a session due to slide that was signed out, has ended, or whose person was removed', async () => {
    const signedOut = await signedIn('signed-out@slide.test');
    await ageTwoDays(signedOut.id);
    expect((await api.as(signedOut.cookie).post('/api/auth/sign-out', {}, { headers: { origin: 'http://localhost:3000' } })).statusCode).toBe(200);
    expect((await manyAtOnce(signedOut.cookie)).map((a) => a.statusCode)).toEqual(Array(AT_ONCE).fill(401));

    const ended = await signedIn('ended@slide.test');
    await api.db
      .update(session)
      .set({ expiresAt: new Date(Date.now() - 1_000) })
      .where(eq(session.id, ended.id));
    const written = await writesOf(ended.token);
    expect((await manyAtOnce(ended.cookie)).map((a) => a.statusCode)).toEqual(Array(AT_ONCE).fill(401));
    expect(await writesOf(ended.token)).toBe(written);

    const removed = await signedIn('removed@slide.test');
    await ageTwoDays(removed.id);
    await api.db.delete(user).where(eq(user.email, 'removed@slide.test'));
    expect((await manyAtOnce(removed.cookie)).map((a) => a.statusCode)).toEqual(Array(AT_ONCE).fill(401));
  });
});
