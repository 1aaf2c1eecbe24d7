import { and, eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditEvent, job, user } from '../db/schema';
import type { MailMessage } from '../platform/mail/mailer';
import { setupApi } from '../../test/api';
import { backends } from '../../test/databases';
import { quickSignInPolicy } from '../../test/config';
import { createAccount, enrolAuthenticator, signedIn } from '../../test/factories';
import { cookieFrom, rawRequest, type RawResponse } from '../../test/http';
import { PEOPLE_PASSWORD, signIn } from '../../test/people';
import { freshTotpCode, peekTotpCode, totpCode } from '../../test/totp';
import { createLogger } from '../runtime';

/** Every endpoint the bridge adds rules to, and two it forwards as they are. */
const INTERCEPTED = [
  'sign-in/email',
  'two-factor/verify-totp',
  'two-factor/verify-backup-code',
  'two-factor/generate-backup-codes',
  'two-factor/disable',
  'change-password',
  'request-password-reset',
  'reset-password',
  'update-user',
];
const FORWARDED = ['sign-out', 'two-factor/enable'];

/** Spellings of `/api/auth/<action>` that a URL parser resolves to the same path, but are not the path. */
function nonCanonical(action: string): string[] {
  const [first, ...rest] = action.split('/');
  const encodedSlash = rest.length > 0 ? [`/api/auth/${first}%2F${rest.join('/')}`, `/api/auth/${first}%2f${rest.join('/')}`] : [];
  return [
    `/api/auth/./${action}`,
    `/api/auth/x/../${action}`,
    `/api/auth/%2e/${action}`,
    `/api/auth/%2E%2E/auth/${action}`,
    `/api/auth/.%2e/auth/${action}`,
    `/api/auth//${action}`,
    `/api/auth/${action}/.`,
    `/api/auth/${action}/x/..`,
    `/api/auth/${action.toUpperCase()}`,
    ...encodedSlash,
  ];
}

/** Spellings the router itself decodes to the route, which must reach the same route and its checks. */
const routerSpellings = (action: string) => [`/api/auth/${action}`, `/api/%61uth/${action}`, `/api/auth/${action}/`, `/api/auth/${action.replace(/e/, '%65')}`];

/** Every spelling, canonical or not: each must answer 404 or go through the endpoint's own route. */
const everySpelling = (action: string) => [...routerSpellings(action), ...nonCanonical(action)];

const isTrustCookie = (response: RawResponse) =>
  ([] as string[]).concat(response.headers['set-cookie'] ?? []).some((c) => c.startsWith('coverly.trust_device=') && !/max-age=0\b/i.test(c));

describe.each(backends)('the auth bridge on %s', (backend) => {
  const logLines: string[] = [];
  const api = setupApi(backend, {
    // Behind a trusted proxy, so each request can name its client address in X-Forwarded-For.
    env: { TRUST_PROXY: 'true' },
    signInPolicy: quickSignInPolicy,
    logger: createLogger({ logLevel: 'info' }, { write: (line: string) => void logLines.push(line) }),
    listen: true,
  });

  const account = async (email: string) => createAccount(api, { email, name: 'Sam Spelling' });
  /** A client address of its own for each request that names none, so per-client limits stay out of the way. */
  let clients = 0;
  const nextClient = () => `10.${(++clients >> 16) & 255}.${(clients >> 8) & 255}.${clients & 255}`;

  /** A POST over a real socket, its path exactly as written, from client address `ip`. */
  const post = (path: string, payload: unknown, { cookie, ip = nextClient() }: { cookie?: string; ip?: string } = {}) =>
    rawRequest(api.baseUrl, {
      method: 'POST',
      path,
      body: typeof payload === 'string' ? payload : JSON.stringify(payload),
      headers: { 'x-forwarded-for': ip, ...(cookie ? { cookie } : {}) },
    });

  it('answers every non-canonical spelling of every auth endpoint exactly like an unknown route', async () => {
    const unknown = await post('/api/auth/no-such-endpoint-here', {});
    expect(unknown.statusCode).toBe(404);
    for (const action of [...INTERCEPTED, ...FORWARDED]) {
      for (const url of nonCanonical(action)) {
        const response = await post(url, { email: 'x@y.test', password: 'whatever it is' });
        expect(response.statusCode, `POST ${url}`).toBe(404);
        expect(response.headers['content-type'], url).toBe(unknown.headers['content-type']);
        expect(response.headers['cache-control'], url).toBe('no-store');
        expect(response.json(), url).toMatchObject({ code: 'not_found', status: 404, title: unknown.json().title });
      }
    }
  });

  it('forwards to better-auth only through the route that checked the request', async () => {
    // A request handed to the library without going through a bridge route is refused inside it.
    const direct = await api.app.auth.handler(
      new Request('http://localhost:3000/api/auth/sign-in/email', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'a@b.test', password: 'x' }),
      }),
    );
    expect(direct.status).toBe(404);
  });

  it('throttles and audits sign-in under every spelling', async () => {
    const { userId: id } = await account('throttled@spelling.test');
    const statuses: number[] = [];
    // Three times round every spelling from one address: each is refused as unknown or counted by the throttle.
    for (const url of [...everySpelling('sign-in/email'), ...everySpelling('sign-in/email'), ...everySpelling('sign-in/email')]) {
      statuses.push((await post(url, { email: 'throttled@spelling.test', password: 'not the password' }, { ip: '203.0.113.7' })).statusCode);
    }
    expect(statuses.filter((s) => s === 401)).toHaveLength(8);
    expect(statuses.filter((s) => ![401, 404, 429].includes(s))).toEqual([]);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    const failures = await api.db
      .select()
      .from(auditEvent)
      .where(and(eq(auditEvent.subjectId, id), eq(auditEvent.action, 'sign_in.failed')));
    expect(failures).toHaveLength(8);
    // The right password from the same address is refused too while the window lasts.
    expect((await post('/api/auth/sign-in/email', { email: 'throttled@spelling.test', password: PEOPLE_PASSWORD }, { ip: '203.0.113.7' })).statusCode).toBe(
      429,
    );
  });

  it('never trusts a device, whatever spelling the code step uses', async () => {
    const { secret } = await enrolAuthenticator(api, await account('trust@spelling.test'));
    // Spellings the router resolves to the route each finish a sign-in (a fresh code each); the rest are unknown routes.
    for (const url of [...routerSpellings('two-factor/verify-totp').slice(0, 2), ...nonCanonical('two-factor/verify-totp')]) {
      const first = await signIn(api.app, 'trust@spelling.test');
      expect(first.body.twoFactorRedirect).toBe(true);
      const verified = await post(url, { code: await peekTotpCode(secret), trustDevice: true }, { cookie: first.cookie });
      expect([200, 404], `${url}: ${verified.body}`).toContain(verified.statusCode);
      if (verified.statusCode === 200) await freshTotpCode(secret);
      expect(isTrustCookie(verified), url).toBe(false);
    }
    // The next sign-in, with whatever cookies a browser kept, still asks for a code.
    expect((await signIn(api.app, 'trust@spelling.test')).body.twoFactorRedirect).toBe(true);
  }, 90_000); // three codes may need the clock to move on to the next 30-second step

  it('holds a changed password to the policy under every spelling', async () => {
    const { cookie } = await signedIn(api, await account('change@spelling.test'));
    for (const url of everySpelling('change-password')) {
      const response = await post(url, { currentPassword: PEOPLE_PASSWORD, newPassword: 'password1234' }, { cookie });
      expect([400, 404], `${url}: ${response.body}`).toContain(response.statusCode);
    }
    expect((await post('/api/auth/sign-in/email', { email: 'change@spelling.test', password: 'password1234' })).statusCode).toBe(401);
  });

  it('holds a reset password to the policy under every spelling, and never takes the token from the query', async () => {
    await account('reset@spelling.test');
    expect((await post('/api/auth/request-password-reset', { email: 'reset@spelling.test' }, { ip: '198.18.0.1' })).statusCode).toBe(200);
    await api.app.auth.backgroundTasks.settled();
    const [mail] = (await api.db.select({ payload: job.payload }).from(job)).map((j) => j.payload as MailMessage).filter((m) => m.to === 'reset@spelling.test');
    const token = /\/reset-password#([A-Za-z0-9_-]+)/.exec(mail?.text ?? '')?.[1] ?? '';
    expect(token.length).toBeGreaterThan(16);

    for (const url of everySpelling('reset-password')) {
      const inBody = await post(url, { token, newPassword: 'password1234' });
      expect([400, 404], `${url}: ${inBody.body}`).toContain(inBody.statusCode);
      const inQuery = await post(`${url}?token=${token}`, { newPassword: 'password1234' });
      expect([400, 404], `${url}?token: ${inQuery.body}`).toContain(inQuery.statusCode);
    }
    expect((await post('/api/auth/sign-in/email', { email: 'reset@spelling.test', password: 'password1234' })).statusCode).toBe(401);
    expect(await api.db.$count(auditEvent, eq(auditEvent.action, 'password.reset'))).toBe(0);
    // The token sent in a query string never reaches a log line.
    expect(logLines.filter((line) => line.includes(token))).toEqual([]);
    // The token still works once, with a good password in the body.
    expect((await post('/api/auth/reset-password', { token, newPassword: 'an entirely new passphrase' })).statusCode).toBe(200);
  });

  it('limits reset mails for one address under every spelling', async () => {
    await account('flood@spelling.test');
    const spellings = everySpelling('request-password-reset');
    for (const [i, url] of [...spellings, ...spellings].entries()) await post(url, { email: 'flood@spelling.test' }, { ip: `198.18.1.${i + 1}` });
    await api.app.auth.backgroundTasks.settled();
    const mails = (await api.db.select({ payload: job.payload }).from(job)).map((j) => j.payload as MailMessage).filter((m) => m.to === 'flood@spelling.test');
    expect(mails).toHaveLength(5);
  });

  it('keeps update-user closed under every spelling', async () => {
    const { userId: id, cookie } = await signedIn(api, await account('profile@spelling.test'));
    for (const url of everySpelling('update-user')) {
      expect((await post(url, { name: 'x'.repeat(5000) }, { cookie })).statusCode, url).toBe(404);
    }
    const [row] = await api.db.select({ name: user.name }).from(user).where(eq(user.id, id));
    expect(row?.name).toBe('Sam Spelling');
  });

  it('audits new backup codes and turning two-step off under every spelling that is accepted', async () => {
    const { userId: id, cookie } = await signedIn(api, await enrolAuthenticator(api, await account('manage@spelling.test')));
    let accepted = 0;
    for (const url of everySpelling('two-factor/generate-backup-codes')) {
      const response = await post(url, { password: PEOPLE_PASSWORD }, { cookie });
      expect([200, 404], url).toContain(response.statusCode);
      if (response.statusCode === 200) accepted++;
    }
    expect(accepted).toBeGreaterThan(0);
    expect(await api.db.$count(auditEvent, and(eq(auditEvent.actorId, id), eq(auditEvent.action, 'mfa.backup_codes_regenerated')))).toBe(accepted);
  });

  it('accepts an authenticator code once: a replay, an earlier code and a concurrent twin are refused (RFC 6238 §5.2)', async () => {
    const { userId: id, secret } = await enrolAuthenticator(api, await account('replay@spelling.test'));
    const code = await freshTotpCode(secret);
    const first = await signIn(api.app, 'replay@spelling.test');
    expect((await post('/api/auth/two-factor/verify-totp', { code }, { cookie: first.cookie })).statusCode).toBe(200);

    const second = await signIn(api.app, 'replay@spelling.test');
    const replayed = await post('/api/auth/two-factor/verify-totp', { code }, { cookie: second.cookie });
    expect(replayed.statusCode).toBe(401);
    expect(replayed.json()).toMatchObject({ code: 'CODE_REUSED' });
    // The previous step's code is older than the one just used: refused too.
    const earlier = totpCode(secret, Date.now() - 30_000);
    if (earlier !== code) expect((await post('/api/auth/two-factor/verify-totp', { code: earlier }, { cookie: second.cookie })).statusCode).toBe(401);
    const audited = await api.db
      .select()
      .from(auditEvent)
      .where(and(eq(auditEvent.subjectId, id), eq(auditEvent.action, 'sign_in.failed')));
    expect(audited.map((row) => (row.data as { reason: string }).reason)).toContain('right password, reused authenticator code');

    // Two sign-ins answer with one fresh code at the same moment: one session between them.
    const [a, b] = [await signIn(api.app, 'replay@spelling.test'), await signIn(api.app, 'replay@spelling.test')];
    const twin = await freshTotpCode(secret);
    const answers = await Promise.all([a, b].map((s) => post('/api/auth/two-factor/verify-totp', { code: twin }, { cookie: s.cookie })));
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 401]);
  });

  it('counts sign-ins in flight at the same moment like sign-ins one after another', async () => {
    await account('parallel@spelling.test');
    const oneAccountOneAddress = await Promise.all(
      Array.from({ length: 30 }, () =>
        post('/api/auth/sign-in/email', { email: 'parallel@spelling.test', password: 'wrong guess here' }, { ip: '192.0.2.77' }),
      ),
    );
    expect(oneAccountOneAddress.filter((r) => r.statusCode === 401)).toHaveLength(8);
    expect(oneAccountOneAddress.filter((r) => r.statusCode === 429)).toHaveLength(22);

    const manyAccountsOneAddress = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        post('/api/auth/sign-in/email', { email: `nobody-${i}@spelling.test`, password: 'wrong guess here' }, { ip: '192.0.2.78' }),
      ),
    );
    expect(manyAccountsOneAddress.filter((r) => r.statusCode === 401)).toHaveLength(8);
    expect(manyAccountsOneAddress.filter((r) => r.statusCode === 429)).toHaveLength(22);
  });

  it('answers a malformed two-step cookie with a 4xx', async () => {
    const response = await post('/api/auth/two-factor/verify-totp', { code: '123456' }, { cookie: 'coverly.two_factor=%E0%A4%A' });
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(response.statusCode).toBeLessThan(500);
  });

  it('refuses JSON nested thousands deep with a 400 on every auth endpoint', async () => {
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    const body = `{"email":"a@b.test","password":${deep}}`;
    for (const action of [...INTERCEPTED, ...FORWARDED]) {
      const response = await post(`/api/auth/${action}`, body);
      expect(response.statusCode, action).toBe(400);
    }
  });

  it('refuses NUL and lone surrogates in what it forwards with a 400 naming the field', async () => {
    for (const [action, payload] of [
      ['sign-in/email', { email: 'a\u0000@b.test', password: 'whatever it is' }],
      ['sign-in/email', { email: 'a@b.test', password: 'pass\ud800word' }],
      ['reset-password', { token: 'tok\u0000en', newPassword: 'a fine new passphrase' }],
      ['request-password-reset', { email: '\u0000@b.test' }],
    ] as const) {
      const response = await post(`/api/auth/${action}`, payload);
      expect(response.statusCode, `${action} ${response.body}`).toBe(400);
      expect(response.json().errors?.[0]?.field, action).toBeTruthy();
    }
  });

  it('logs what better-auth says as warnings at most, without what the client sent', async () => {
    const marker = 'attacker-supplied-marker';
    await post('/api/auth/sign-in/email', { email: `${marker}@spelling.test`, password: `${marker} password` }, { ip: '192.0.2.90' });
    await post('/api/auth/request-password-reset', { email: `${marker}@spelling.test` }, { ip: '192.0.2.91' });
    const fromLibrary = logLines.map((line) => JSON.parse(line) as { level: number; library?: string }).filter((entry) => entry.library === 'better-auth');
    expect(fromLibrary.length).toBeGreaterThan(0);
    expect(fromLibrary.every((entry) => entry.level <= 40)).toBe(true);
    expect(logLines.filter((line) => line.includes(marker))).toEqual([]);
  });

  it.runIf(backend === 'postgres')('answers a reset request before its mail is queued, so known and unknown addresses answer alike', async () => {
    await account('timing@spelling.test');
    // Another session holds the outbox table: queuing the mail must wait, the answer must not.
    const blocker = new pg.Client({ connectionString: api.database.url });
    await blocker.connect();
    await blocker.query('begin');
    await blocker.query('lock table job in access exclusive mode');
    const answer = await post('/api/auth/request-password-reset', { email: 'timing@spelling.test' }, { ip: '198.18.2.1' });
    expect(answer.statusCode).toBe(200);
    await blocker.query('commit');
    await blocker.end();
    await api.app.auth.backgroundTasks.settled();
    const queued = await api.db
      .select()
      .from(job)
      .where(sql`${job.payload}->>'to' = 'timing@spelling.test'`);
    expect(queued).toHaveLength(1);
  });
});

describe.each(backends)('sign-in throttling per account on %s', (backend) => {
  // The account-wide limit, lowered from NIST's 100 so the test stays small.
  const api = setupApi(backend, { signInPolicy: { ...quickSignInPolicy, account: { windowMs: 60 * 60_000, refuseAfter: 10 } } });
  beforeAll(async () => {
    await createAccount(api, { email: 'target@throttle.test', name: 'Tess Target' });
  });

  const signInFrom = (ip: string, password: string) =>
    api.as().post('/api/auth/sign-in/email', { email: 'target@throttle.test', password }, { remoteAddress: ip });

  it('bounds guesses at one account from many addresses, and still lets the owner in from where they sign in', async () => {
    // The owner signs in from home once: that address is known to the account from now on.
    expect((await signInFrom('192.0.2.10', PEOPLE_PASSWORD)).statusCode).toBe(200);
    const guesses = await Promise.all(Array.from({ length: 30 }, (_, i) => signInFrom(`198.51.100.${i + 1}`, 'a wrong guess')));
    expect(guesses.filter((r) => r.statusCode === 401)).toHaveLength(10);
    expect(guesses.filter((r) => r.statusCode === 429)).toHaveLength(20);
    // A new address is refused even with the right password; home is not.
    expect((await signInFrom('198.51.100.200', PEOPLE_PASSWORD)).statusCode).toBe(429);
    const home = await signInFrom('192.0.2.10', PEOPLE_PASSWORD);
    expect(home.statusCode).toBe(200);
    expect(cookieFrom(home)).toContain('coverly.session_token');
  });
});
