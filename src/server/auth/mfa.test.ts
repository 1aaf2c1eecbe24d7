import type { LightMyRequestResponse } from 'fastify';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditEvent, user } from '../db/schema';
import { setupApi } from '../../test/api';
import { backends } from '../../test/databases';
import { createAccount, enrolAuthenticator } from '../../test/factories';
import { cookieFrom } from '../../test/http';
import { freshTotpCode, totpCode } from '../../test/totp';

const PASSWORD = 'copper kettles sing at noon';

/** The names of the cookies a response sets (and does not expire). */
const cookiesSet = (response: LightMyRequestResponse) =>
  ([] as string[])
    .concat(response.headers['set-cookie'] ?? [])
    .filter((cookie) => !/max-age=0\b/i.test(cookie))
    .map((cookie) => cookie.slice(0, cookie.indexOf('=')));

/**
 * A browser's cookie jar: each response's Set-Cookie adds, replaces or (with
 * Max-Age=0) removes a cookie, and every request sends what is left.
 */
class CookieJar {
  private readonly cookies = new Map<string, string>();

  take(response: LightMyRequestResponse): this {
    for (const line of ([] as string[]).concat(response.headers['set-cookie'] ?? [])) {
      const pair = line.split(';')[0] ?? '';
      const name = pair.slice(0, pair.indexOf('='));
      if (/max-age=0\b/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, pair);
    }
    return this;
  }

  names() {
    return [...this.cookies.keys()];
  }

  toString() {
    return [...this.cookies.values()].join('; ');
  }
}

/** A six-digit code that is not the authenticator's for the previous, current or next 30 s window. */
function wrongCode(secret: string): string {
  const now = Date.now();
  const valid = new Set([-1, 0, 1].map((step) => totpCode(secret, now + step * 30_000)));
  for (let n = 0; ; n++) {
    const candidate = String(n).padStart(6, '0');
    if (!valid.has(candidate)) return candidate;
  }
}

describe.each(backends)('two-step verification through the auth bridge on %s', (backend) => {
  const api = setupApi(backend);
  let enrolled: { email: string; secret: string; backupCodes: string[] };

  beforeAll(async () => {
    for (const email of ['enrol@mfa.test', 'changer@mfa.test', 'two-devices@mfa.test'])
      await createAccount(api, { email, name: 'Robin Example', password: PASSWORD });
    // One account enrolled up front, for the sign-in tests.
    enrolled = await enrolAuthenticator(api, await createAccount(api, { email: 'enrolled@mfa.test', name: 'Robin Example', password: PASSWORD }));
  });

  const signIn = (email: string, password = PASSWORD) => api.as().post('/api/auth/sign-in/email', { email, password });
  const me = (cookie: string) => api.as(cookie).get('/api/me');
  const twoFactorEnabled = async (email: string) => (await api.db.select({ on: user.twoFactorEnabled }).from(user).where(eq(user.email, email)))[0]?.on;

  it('enrols an authenticator: a URI issued by the brand and 10 backup codes, then a verified code', async () => {
    const signedIn = await signIn('enrol@mfa.test');
    const cookie = cookieFrom(signedIn);

    const wrongPassword = await api.as(cookie).post('/api/auth/two-factor/enable', { password: 'not my password at all' });
    expect(wrongPassword.statusCode).toBe(400);

    const enabled = await api.as(cookie).post('/api/auth/two-factor/enable', { password: PASSWORD });
    expect(enabled.statusCode, enabled.body).toBe(200);
    const { totpURI, backupCodes } = enabled.json() as { totpURI: string; backupCodes: string[] };
    const uri = new URL(totpURI);
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host).toBe('totp');
    expect(decodeURIComponent(uri.pathname)).toBe('/Coverly:enrol@mfa.test');
    expect(uri.searchParams.get('issuer')).toBe('Coverly');
    expect(uri.searchParams.get('digits')).toBe('6');
    expect(uri.searchParams.get('period')).toBe('30');
    const secret = uri.searchParams.get('secret') ?? '';
    expect(secret).toMatch(/^[A-Z2-7]{16,}=*$/);
    expect(backupCodes).toHaveLength(10);
    expect(new Set(backupCodes).size).toBe(10);

    // Not enrolled until a code from the authenticator proves it was set up.
    expect(await twoFactorEnabled('enrol@mfa.test')).toBe(false);
    expect((await me(cookie)).json()).toMatchObject({ mfaEnrolled: false });

    const wrong = await api.as(cookie).post('/api/auth/two-factor/verify-totp', { code: wrongCode(secret) });
    expect(wrong.statusCode).toBe(401);
    expect(cookiesSet(wrong)).not.toContain('coverly.session_token');
    expect(await twoFactorEnabled('enrol@mfa.test')).toBe(false);

    const right = await api.as(cookie).post('/api/auth/two-factor/verify-totp', { code: await freshTotpCode(secret) });
    expect(right.statusCode, right.body).toBe(200);
    expect(await twoFactorEnabled('enrol@mfa.test')).toBe(true);
    // Enrolling replaces the session: a new cookie that works, and the old one ends.
    const newCookie = cookieFrom(right);
    expect(cookiesSet(right)).toContain('coverly.session_token');
    expect(newCookie).not.toBe(cookie);
    expect((await me(newCookie)).json()).toMatchObject({ mfaEnrolled: true, mustEnrolMfa: false });
    expect((await me(cookie)).statusCode).toBe(401);
  });

  it('asks an enrolled account for a code after its password, and opens no session before', async () => {
    const first = await signIn(enrolled.email);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ twoFactorRedirect: true });
    expect(cookiesSet(first)).not.toContain('coverly.session_token');
    const jar = new CookieJar().take(first);
    expect(jar.names()).toContain('coverly.two_factor');
    expect((await me(jar.toString())).statusCode).toBe(401);

    const wrong = await api.as(jar.toString()).post('/api/auth/two-factor/verify-totp', { code: wrongCode(enrolled.secret) });
    expect(wrong.statusCode).toBe(401);
    jar.take(wrong);
    expect((await me(jar.toString())).statusCode).toBe(401);

    const right = await api.as(jar.toString()).post('/api/auth/two-factor/verify-totp', { code: await freshTotpCode(enrolled.secret) });
    expect(right.statusCode, right.body).toBe(200);
    jar.take(right);
    expect(jar.names()).toContain('coverly.session_token');
    expect(jar.names()).not.toContain('coverly.two_factor');
    const session = await me(jar.toString());
    expect(session.statusCode).toBe(200);
    expect(session.json()).toMatchObject({ user: { email: enrolled.email }, mfaEnrolled: true });
  });

  it('never trusts a device: the next sign-in asks for a code again even after trustDevice: true', async () => {
    const jar = new CookieJar().take(await signIn(enrolled.email));
    const verified = await api.as(jar.toString()).post('/api/auth/two-factor/verify-totp', { code: await freshTotpCode(enrolled.secret), trustDevice: true });
    expect(verified.statusCode, verified.body).toBe(200);
    expect(cookiesSet(verified)).not.toContain('coverly.trust_device');
    jar.take(verified);
    expect(jar.names()).not.toContain('coverly.trust_device');

    // The same browser, with every cookie it was given, signs in again.
    const again = await api.as(jar.toString()).post('/api/auth/sign-in/email', { email: enrolled.email, password: PASSWORD });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ twoFactorRedirect: true });
    expect(cookiesSet(again)).not.toContain('coverly.session_token');

    // Nor does the backup-code route remember the device.
    const viaBackup = await api
      .as(new CookieJar().take(again).toString())
      .post('/api/auth/two-factor/verify-backup-code', { code: enrolled.backupCodes[9], trustDevice: true });
    expect(viaBackup.statusCode, viaBackup.body).toBe(200);
    expect(cookiesSet(viaBackup)).not.toContain('coverly.trust_device');
  });

  it('accepts each backup code once', async () => {
    const code = enrolled.backupCodes[0] ?? '';
    const first = new CookieJar().take(await signIn(enrolled.email));
    const used = await api.as(first.toString()).post('/api/auth/two-factor/verify-backup-code', { code });
    expect(used.statusCode, used.body).toBe(200);
    const session = cookieFrom(used);
    expect((await me(session)).json()).toMatchObject({ user: { email: enrolled.email } });

    const second = new CookieJar().take(await signIn(enrolled.email));
    const reused = await api.as(second.toString()).post('/api/auth/two-factor/verify-backup-code', { code });
    expect(reused.statusCode).toBe(401);
    expect(cookiesSet(reused)).not.toContain('coverly.session_token');
    expect((await me(second.take(reused).toString())).statusCode).toBe(401);

    // Another, unused code still works on the same challenge.
    const other = await api.as(second.toString()).post('/api/auth/two-factor/verify-backup-code', { code: enrolled.backupCodes[1] });
    expect(other.statusCode, other.body).toBe(200);
  });

  it('ends the sessions opened with the password alone when an authenticator is enrolled', async () => {
    // A stolen password signed in somewhere else before the owner of the account enrolled.
    const elsewhere = cookieFrom(await signIn('two-devices@mfa.test'));
    const mine = cookieFrom(await signIn('two-devices@mfa.test'));
    expect((await me(elsewhere)).statusCode).toBe(200);
    const enabled = await api.as(mine).post('/api/auth/two-factor/enable', { password: PASSWORD });
    const secret = new URL((enabled.json() as { totpURI: string }).totpURI).searchParams.get('secret') ?? '';
    const verified = await api.as(mine).post('/api/auth/two-factor/verify-totp', { code: await freshTotpCode(secret) });
    expect(verified.statusCode).toBe(200);
    expect((await me(cookieFrom(verified))).json()).toMatchObject({ mfaEnrolled: true });
    // The other session never passed a code, so it ends: it cannot ride on the new second factor.
    expect((await me(elsewhere)).statusCode).toBe(401);
  });

  it('keeps better-auth’s own profile endpoint closed: PATCH /api/me holds names to our rules', async () => {
    const cookie = cookieFrom(await signIn('changer@mfa.test'));
    const response = await api.as(cookie).post('/api/auth/update-user', { name: `${'x'.repeat(5000)}\nSubject: spoofed` });
    expect(response.statusCode).toBe(404);
    expect((await me(cookie)).json()).toMatchObject({ user: { name: 'Robin Example' } });
  });

  it('holds a changed password to the password policy', async () => {
    const cookie = cookieFrom(await signIn('changer@mfa.test'));
    const weak = await api.as(cookie).post('/api/auth/change-password', { currentPassword: PASSWORD, newPassword: 'password1234' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().errors).toEqual([{ field: 'newPassword', message: expect.stringMatching(/common/i) }]);
    const personal = await api.as(cookie).post('/api/auth/change-password', { currentPassword: PASSWORD, newPassword: 'changer@mfa.test!!' });
    expect(personal.statusCode).toBe(400);
    expect(personal.json().errors[0].field).toBe('newPassword');
    // Refused before better-auth saw it: the old password still signs in.
    expect((await signIn('changer@mfa.test')).statusCode).toBe(200);

    const strong = await api.as(cookie).post('/api/auth/change-password', { currentPassword: PASSWORD, newPassword: 'a sturdy new passphrase' });
    expect(strong.statusCode, strong.body).toBe(200);
    expect((await signIn('changer@mfa.test', 'a sturdy new passphrase')).statusCode).toBe(200);
    expect((await signIn('changer@mfa.test')).statusCode).toBe(401);
    // Only the accepted change is written to the audit log.
    const changes = await api.db.select().from(auditEvent).where(eq(auditEvent.action, 'password.changed'));
    expect(changes).toEqual([expect.objectContaining({ actorEmail: 'changer@mfa.test' })]);
  });
});
