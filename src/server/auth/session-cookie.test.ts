import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { setupApi } from '../../test/api';
import { backends } from '../../test/databases';
import { addAssistant, createAccount, createTeamWithOwner, type Person } from '../../test/factories';
import { signIn } from '../../test/people';
import { resolvePrincipal } from '../access/access';
import { session, teamMember, user } from '../db/schema';
import { parseCookieHeader, sessionCookieReader, verifiedCookieValue, type SessionCookieReader } from './session-cookie';

describe('parseCookieHeader and verifiedCookieValue', () => {
  it('reads pairs as better-call does: the first of a name, quotes dropped, percent-decoded', () => {
    expect([...parseCookieHeader('a=1; b="two"; a=3; c; d=%3D%41; e=%E0%A4%A')]).toEqual([
      ['a', '1'],
      ['b', 'two'],
      ['d', '=A'],
      ['e', '%E0%A4%A'],
    ]);
  });

  it('accepts only a value signed with the secret', async () => {
    const { createHmac } = await import('node:crypto');
    const sign = (value: string, secret: string) => `${value}.${createHmac('sha256', secret).update(value).digest('base64')}`;
    expect(verifiedCookieValue(sign('token-1', 's3cret'), 's3cret')).toBe('token-1');
    expect(verifiedCookieValue(sign('token-1', 'other'), 's3cret')).toBeNull();
    expect(verifiedCookieValue(sign('token-1', 's3cret').replace('token-1', 'token-2'), 's3cret')).toBeNull();
    expect(verifiedCookieValue('token-1', 's3cret')).toBeNull();
    expect(verifiedCookieValue(`token-1.${'A'.repeat(43)}`, 's3cret')).toBeNull();
    expect(verifiedCookieValue(undefined, 's3cret')).toBeNull();
  });
});

describe.each(backends)('the session read in one statement, on %s', (backend) => {
  const api = setupApi(backend);
  let reader: SessionCookieReader;
  let member: Person;

  beforeAll(async () => {
    reader = await sessionCookieReader(api.app.auth);
    const team = await createTeamWithOwner(api);
    member = await addAssistant(api, team.teamId, { mfa: false });
  });

  const request = (cookie: string | undefined) => ({ headers: cookie ? { cookie } : {} }) as unknown as FastifyRequest;
  /** The person's sessions, newest last. */
  const sessionsOf = (email: string) =>
    api.db
      .select({ token: session.token, id: session.id })
      .from(session)
      .innerJoin(user, eq(user.id, session.userId))
      .where(eq(user.email, email))
      .orderBy(session.createdAt);

  it('reads the token of a signed session cookie, and leaves every other cookie to better-auth', async () => {
    const { cookie } = await signIn(api.app, member.email);
    const { token } = (await sessionsOf(member.email)).at(-1)!;
    expect(reader.token(cookie)).toBe(token);
    expect(reader.token(`${cookie}; other=1`)).toBe(token);
    expect(reader.token(undefined)).toBeNull();
    expect(reader.token(cookie.replace(/=[^.]*\./, '=forged-token.'))).toBeNull();
    // better-auth clears a cookie cache it does not use: that answer is its own.
    expect(reader.token(`${cookie}; coverly.session_data=x`)).toBeNull();
    expect(reader.token(`${cookie}; coverly.session_data.0=x`)).toBeNull();
    // An emptied one (a client that keeps expired cookies) is no cache to better-auth either.
    expect(reader.token(`${cookie}; coverly.session_data=`)).toBe(token);
    expect(reader.token(`${cookie}; coverly.session_data.x=1`)).toBe(token);
  });

  it('leaves an ended session, and one due to slide, to better-auth; not one whose person asked not to be remembered', async () => {
    const now = Date.now();
    const week = 7 * 86_400_000;
    expect(reader.needsBetterAuth(new Date(now - 1), undefined, now)).toBe(true);
    expect(reader.needsBetterAuth(new Date(now + week), undefined, now)).toBe(false);
    // Used more than a day after it began (updateAge): due to slide.
    expect(reader.needsBetterAuth(new Date(now + week - 86_400_000 + 1_000), undefined, now)).toBe(false);
    expect(reader.needsBetterAuth(new Date(now + week - 86_400_000), undefined, now)).toBe(true);
    const { createHmac } = await import('node:crypto');
    const secret = (await api.app.auth.$context).secret;
    const dontRemember = `coverly.dont_remember=${encodeURIComponent(`true.${createHmac('sha256', secret).update('true').digest('base64')}`)}`;
    expect(reader.needsBetterAuth(new Date(now + 60_000), dontRemember, now)).toBe(false);
    expect(reader.needsBetterAuth(new Date(now + 60_000), 'coverly.dont_remember=true.forged', now)).toBe(true);
  });

  it('resolves the same principal as better-auth and the grants, and follows a membership change on the next request', async () => {
    const { cookie } = await signIn(api.app, member.email);
    const fast = await resolvePrincipal(api.app.auth, api.db, request(cookie), reader);
    const slow = await resolvePrincipal(api.app.auth, api.db, request(cookie));
    expect(fast.principal).toEqual(slow.principal);
    expect(fast.principal).toMatchObject({ kind: 'user', email: member.email, team: { role: 'assistant' } });
    expect([...fast.authHeaders]).toEqual([]);

    await api.db.delete(teamMember).where(eq(teamMember.userId, member.userId));
    expect((await resolvePrincipal(api.app.auth, api.db, request(cookie), reader)).principal).toMatchObject({ kind: 'user', team: null });
  });

  it('signs nobody in on a session that was ended, expired or forged', async () => {
    const account = await createAccount(api, { email: 'ended@session.test' });
    const { cookie } = await signIn(api.app, account.email);
    expect((await api.as(cookie).get('/api/me')).statusCode).toBe(200);

    const { id } = (await sessionsOf(account.email)).at(-1)!;
    await api.db
      .update(session)
      .set({ expiresAt: new Date(Date.now() - 1_000) })
      .where(eq(session.id, id));
    const expired = await api.as(cookie).get('/api/me');
    expect(expired.statusCode).toBe(401);
    // better-auth answered: it deleted the ended session and its cookie.
    expect(String(expired.headers['set-cookie'])).toMatch(/coverly\.session_token=;/);
    expect(await api.db.select().from(session).where(eq(session.id, id))).toEqual([]);

    const again = await signIn(api.app, account.email);
    expect((await api.as(again.cookie).post('/api/auth/sign-out', {}, { headers: { origin: 'http://localhost:3000' } })).statusCode).toBe(200);
    expect((await api.as(again.cookie).get('/api/me')).statusCode).toBe(401);
    expect((await api.as(again.cookie.replace(/=[^.]*\./, '=forged-token.')).get('/api/me')).statusCode).toBe(401);
  });
});
