import pino from 'pino';
import { beforeAll, describe, expect, it } from 'vitest';
import { job, verification } from '../db/schema';
import type { MailMessage } from '../platform/mail/mailer';
import { setupApi } from '../../test/api';
import { backends } from '../../test/databases';
import { quickSignInPolicy } from '../../test/config';
import { createAccount } from '../../test/factories';
import { cookieFrom } from '../../test/http';

const PASSWORD = 'harbor lights at dusk';

describe.each(backends)('sign-in throttling and password reset on %s', (backend) => {
  // The real policy, with its waits shortened so the test stays quick.
  const api = setupApi(backend, { signInPolicy: quickSignInPolicy });

  beforeAll(async () => {
    for (const email of ['locked@coverly.test', 'other@coverly.test', 'reset@coverly.test', 'cleared@coverly.test', 'owner@coverly.test']) {
      await createAccount(api, { email, name: 'Pat Example', password: PASSWORD });
    }
  });

  const signIn = (email: string, password: string, remoteAddress: string) => api.as().post('/api/auth/sign-in/email', { email, password }, { remoteAddress });

  it('refuses one account from one address with 429 after repeated failures, the right password too', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await signIn('locked@coverly.test', 'wrong password here', '198.51.100.1')).statusCode);
    expect(statuses).toEqual(Array(8).fill(401));
    const refused = await signIn('locked@coverly.test', PASSWORD, '198.51.100.1');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'rate_limited' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    // Another account is not affected, from another address.
    expect((await signIn('other@coverly.test', PASSWORD, '198.51.100.100')).statusCode).toBe(200);
  });

  it('lets the owner in while strangers elsewhere guess at the account (NIST SP 800-63B §5.2.2)', async () => {
    for (let i = 0; i < 12; i++) expect((await signIn('owner@coverly.test', 'wrong password here', `198.51.101.${i + 1}`)).statusCode).toBe(401);
    expect((await signIn('owner@coverly.test', PASSWORD, '198.51.101.200')).statusCode).toBe(200);
  });

  it('refuses one client address that tries many accounts', async () => {
    for (let i = 0; i < 8; i++) expect((await signIn(`guess${i}@coverly.test`, 'wrong password here', '203.0.113.50')).statusCode).toBe(401);
    expect((await signIn('other@coverly.test', PASSWORD, '203.0.113.50')).statusCode).toBe(429);
    expect((await signIn('other@coverly.test', PASSWORD, '203.0.113.51')).statusCode).toBe(200);
  });

  it('clears an account’s failures when it signs in', async () => {
    for (let i = 0; i < 7; i++) await signIn('cleared@coverly.test', 'wrong password here', `192.0.2.${i + 1}`);
    expect((await signIn('cleared@coverly.test', PASSWORD, '192.0.2.20')).statusCode).toBe(200);
    expect((await signIn('cleared@coverly.test', 'wrong password here', '192.0.2.21')).statusCode).toBe(401);
    expect((await signIn('cleared@coverly.test', PASSWORD, '192.0.2.22')).statusCode).toBe(200);
  });

  it('resets a password by e-mail: hashed single-use token, policy checked, every session ended', async () => {
    const before = await signIn('reset@coverly.test', PASSWORD, '10.1.0.1');
    const oldCookie = cookieFrom(before);
    expect((await api.as(oldCookie).get('/api/me')).statusCode).toBe(200);

    const requested = await api.as().post('/api/auth/request-password-reset', { email: 'reset@coverly.test' });
    expect(requested.statusCode).toBe(200);
    // The mail is queued after the answer.
    await api.app.auth.backgroundTasks.settled();
    const mail = (await api.db.select().from(job)).map((j) => j.payload as MailMessage).find((m) => m.to === 'reset@coverly.test');
    expect(mail?.subject).toBe('Reset your Coverly password');
    const token = /\/reset-password#([A-Za-z0-9_-]+)/.exec(mail?.text ?? '')?.[1] ?? '';
    expect(token.length).toBeGreaterThan(16);
    // Only a hash of the token is stored.
    expect(JSON.stringify(await api.db.select().from(verification))).not.toContain(token);

    const weak = await api.as().post('/api/auth/reset-password', { token, newPassword: 'password1234' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().errors).toEqual([{ field: 'newPassword', message: expect.stringMatching(/common/i) }]);

    const reset = await api.as().post('/api/auth/reset-password', { token, newPassword: 'a brand new passphrase' });
    expect(reset.statusCode).toBe(200);
    expect((await api.as(oldCookie).get('/api/me')).statusCode).toBe(401);

    const again = await api.as().post('/api/auth/reset-password', { token, newPassword: 'another new passphrase' });
    expect(again.statusCode).toBe(400);
    expect((await signIn('reset@coverly.test', PASSWORD, '10.1.0.2')).statusCode).toBe(401);
    expect((await signIn('reset@coverly.test', 'a brand new passphrase', '10.1.0.3')).statusCode).toBe(200);
  });

  it('refuses an expired reset token', async () => {
    await api.as().post('/api/auth/request-password-reset', { email: 'other@coverly.test' }, { remoteAddress: '10.2.0.1' });
    await api.app.auth.backgroundTasks.settled();
    const mail = (await api.db.select().from(job)).map((j) => j.payload as MailMessage).find((m) => m.to === 'other@coverly.test');
    const token = /\/reset-password#([A-Za-z0-9_-]+)/.exec(mail?.text ?? '')?.[1] ?? '';
    await api.db.update(verification).set({ expiresAt: new Date(Date.now() - 1000) });
    const response = await api.as().post('/api/auth/reset-password', { token, newPassword: 'too late passphrase' });
    expect(response.statusCode).toBe(400);
  });

  it('answers a reset request for an unknown address like any other, and limits requests', async () => {
    const jobsBefore = await api.db.$count(job);
    const unknown = await api.as().post('/api/auth/request-password-reset', { email: 'nobody@coverly.test' }, { remoteAddress: '10.3.0.1' });
    expect(unknown.statusCode).toBe(200);
    await api.app.auth.backgroundTasks.settled();
    expect(await api.db.$count(job)).toBe(jobsBefore);

    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push(
        (await api.as().post('/api/auth/request-password-reset', { email: 'flood@coverly.test' }, { remoteAddress: `10.4.0.${i + 1}` })).statusCode,
      );
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });
});

describe('better-auth’s own messages', () => {
  const lines: string[] = [];
  const api = setupApi('pglite', { logger: pino({ level: 'warn' }, { write: (line: string) => void lines.push(line) }) });

  it('join the app’s JSON log instead of the console', async () => {
    const response = await api.as().post('/api/auth/sign-in/email', { email: 'nobody@coverly.test', password: PASSWORD });
    expect(response.statusCode).toBe(401);
    const entries = lines.map((line) => JSON.parse(line) as { level: number; library?: string; msg: string });
    expect(entries).toContainEqual(expect.objectContaining({ level: 40, library: 'better-auth', msg: expect.stringMatching(/user not found/i) }));
  });
});
