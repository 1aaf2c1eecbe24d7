import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { invitation, job } from '../db/schema';
import type { MailMessage } from '../platform/mail/mailer';
import { setupApi } from '../../test/api';
import { backends } from '../../test/databases';
import { cookieFrom } from '../../test/http';
import { createInvitation } from '../accounts/invitations';

const STRONG = 'lantern orchard quietly 42';

const tokenOf = (link: string) => link.slice(link.indexOf('#') + 1);

describe.each(backends)('invitations, sign-in and the access layer on %s', (backend) => {
  const api = setupApi(backend);
  const deps = () => ({ db: api.db, publicUrl: api.config.publicUrl, brandName: 'Coverly' });

  it('stores only a hash of the token and mails a single-use link that expires in 7 days', async () => {
    const { invitation: row, link } = await createInvitation(deps(), { email: 'ada@coverly.test', role: 'platform_admin', inviter: null });
    const token = tokenOf(link);
    expect(link).toMatch(/^http:\/\/localhost:3000\/invite#[A-Za-z0-9_-]{43}$/);
    const [stored] = await api.db.select().from(invitation).where(eq(invitation.id, row.id));
    expect(stored?.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(token);
    const days = ((stored?.expiresAt.getTime() ?? 0) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThanOrEqual(7);
    const mails = (await api.db.select().from(job)).map((j) => j.payload as MailMessage).filter((m) => m.to === 'ada@coverly.test');
    expect(mails).toHaveLength(1);
    expect(mails[0]?.text).toContain(link);
  });

  it('walks an admin from invitation to signed-in session, and refuses the link a second time', async () => {
    const { link } = await createInvitation(deps(), { email: 'Grace@Coverly.test', role: 'platform_admin', inviter: null });
    const token = tokenOf(link);

    const lookup = await api.as().post('/api/invitations/lookup', { token });
    expect(lookup.statusCode).toBe(200);
    expect(lookup.json()).toMatchObject({ email: 'Grace@Coverly.test', role: 'platform_admin', hasAccount: false });

    const weak = await api.as().post('/api/invitations/accept', { token, name: 'Grace Hopper', password: 'password1234' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().errors).toEqual([{ field: 'password', message: expect.stringMatching(/common/i) }]);
    const short = await api.as().post('/api/invitations/accept', { token, name: 'Grace Hopper', password: 'short' });
    expect(short.statusCode).toBe(400);
    expect(short.json().errors[0].field).toBe('password');

    const accepted = await api.as().post('/api/invitations/accept', { token, name: 'Grace Hopper', password: STRONG });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toEqual({ redirectTo: '/app', twoFactorRequired: false });
    const setCookie = String(accepted.headers['set-cookie']);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    const cookie = cookieFrom(accepted);

    const me = await api.as(cookie).get('/api/me');
    expect(me.statusCode).toBe(200);
    expect(me.json()).toEqual({
      user: { id: expect.any(String), name: 'Grace Hopper', email: 'grace@coverly.test' },
      platformAdmin: true,
      broker: false,
      mfaEnrolled: false,
      // An admin enrols an authenticator before the admin console opens.
      mustEnrolMfa: true,
      team: null,
      workPhone: null,
      participantLoans: 0,
      sessionExpiresAt: expect.any(String),
    });
    const adminConsole = await api.as(cookie).get('/api/admin/waitlist');
    expect(adminConsole.statusCode).toBe(401);
    expect(adminConsole.json().code).toBe('mfa_required');

    const again = await api.as().post('/api/invitations/accept', { token, name: 'Mallory', password: STRONG });
    expect(again.statusCode).toBe(410);
    expect(again.json().detail).toBe('This invitation has already been used');
    expect((await api.as().post('/api/invitations/lookup', { token })).statusCode).toBe(410);
  });

  it('refuses expired and tampered tokens', async () => {
    const { link } = await createInvitation(deps(), {
      email: 'late@coverly.test',
      role: 'platform_admin',
      inviter: null,
      now: new Date(Date.now() - 8 * 86_400_000),
    });
    const expired = await api.as().post('/api/invitations/accept', { token: tokenOf(link), name: 'Late', password: STRONG });
    expect(expired.statusCode).toBe(410);
    expect(expired.json().detail).toMatch(/expired/);

    const { link: fresh } = await createInvitation(deps(), { email: 'tamper@coverly.test', role: 'platform_admin', inviter: null });
    const token = tokenOf(fresh);
    const tampered = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    const response = await api.as().post('/api/invitations/lookup', { token: tampered });
    expect(response.statusCode).toBe(404);
    expect((await api.as().post('/api/invitations/lookup', { token: 'not-a-token' })).statusCode).toBe(400);
  });

  it('lets an address that already has an account accept with its password', async () => {
    const first = await createInvitation(deps(), { email: 'twice@coverly.test', role: 'platform_admin', inviter: null });
    expect((await api.as().post('/api/invitations/accept', { token: tokenOf(first.link), name: 'Twice', password: STRONG })).statusCode).toBe(200);
    const second = await createInvitation(deps(), { email: 'twice@coverly.test', role: 'platform_admin', inviter: null });
    const lookup = await api.as().post('/api/invitations/lookup', { token: tokenOf(second.link) });
    expect(lookup.json().hasAccount).toBe(true);
    const wrong = await api.as().post('/api/invitations/accept', { token: tokenOf(second.link), password: 'not the right password' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors[0].field).toBe('password');
    const right = await api.as().post('/api/invitations/accept', { token: tokenOf(second.link), password: STRONG });
    expect(right.statusCode).toBe(200);
  });

  it('signs in with one message for a wrong password and an unknown address, and signs out', async () => {
    const { link } = await createInvitation(deps(), { email: 'signin@coverly.test', role: 'platform_admin', inviter: null });
    await api.as().post('/api/invitations/accept', { token: tokenOf(link), name: 'Sign In', password: STRONG });

    const wrong = await api.as().post('/api/auth/sign-in/email', { email: 'signin@coverly.test', password: 'definitely wrong pw' });
    const unknown = await api.as().post('/api/auth/sign-in/email', { email: 'nobody@coverly.test', password: 'definitely wrong pw' });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json().message).toBe(unknown.json().message);

    const good = await api.as().post('/api/auth/sign-in/email', { email: 'SignIn@coverly.test', password: STRONG });
    expect(good.statusCode).toBe(200);
    const cookie = cookieFrom(good);
    expect((await api.as(cookie).get('/api/me')).statusCode).toBe(200);

    const out = await api.as(cookie).post('/api/auth/sign-out', {});
    expect(out.statusCode).toBe(200);
    expect((await api.as(cookie).get('/api/me')).statusCode).toBe(401);
  });

  it('has no public sign-up', async () => {
    const response = await api.as().post('/api/auth/sign-up/email', { email: 'walkin@coverly.test', password: STRONG, name: 'Walk In' });
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(response.statusCode).toBeLessThan(500);
    const signIn = await api.as().post('/api/auth/sign-in/email', { email: 'walkin@coverly.test', password: STRONG });
    expect(signIn.statusCode).toBe(401);
  });
});
