import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { buildApp } from '../app';
import { job } from '../db/schema';
import { enqueueJob } from '../platform/jobs/outbox';
import { backends, createTestDatabase, type TestDatabase } from '../../test/databases';
import { testConfig } from '../../test/config';
import { totpCode } from '../../test/totp';
import { TEST_SUPPORT_SECRET_ENV, TEST_SUPPORT_SECRET_HEADER, type CreateTestPerson, type TestPerson } from './test-support.schema';

const SECRET = 'e2e-run-secret-0123456789abcdefghijklmnop';
const PEOPLE = '/api/test-support/people';

/** Builds the app with `secret` as the test-support secret in the environment (or none). */
async function appWith(database: TestDatabase, secret: string | undefined, env: Record<string, string> = {}) {
  vi.stubEnv(TEST_SUPPORT_SECRET_ENV, secret);
  try {
    return await buildApp({ config: testConfig(env), database, distDir: '/nonexistent' });
  } finally {
    vi.unstubAllEnvs();
  }
}

/** What a client can see of an answer, without what differs between any two requests. */
const visible = (response: LightMyRequestResponse) => {
  const { 'x-request-id': _id, date: _date, ...headers } = response.headers;
  return { status: response.statusCode, headers, body: response.body };
};

describe.each(backends)('test support on %s', (backend) => {
  let database: TestDatabase;
  let withSecret: FastifyInstance;
  let without: FastifyInstance;

  beforeAll(async () => {
    database = await createTestDatabase(backend);
    withSecret = await appWith(database, SECRET);
    without = await appWith(database, undefined);
  });
  afterAll(async () => {
    await withSecret?.close();
    await without?.close();
    await database?.destroy();
  });

  const create = async (body: CreateTestPerson) => {
    const response = await withSecret.inject({ method: 'POST', url: PEOPLE, headers: { [TEST_SUPPORT_SECRET_HEADER]: SECRET }, payload: body });
    expect(response.statusCode, response.body).toBe(201);
    // The session travels in the body, for the test's browser: this answer signs nobody in.
    expect(response.headers['set-cookie']).toBeUndefined();
    return response.json() as TestPerson;
  };
  const cookieOf = (person: TestPerson) => person.cookies.map((c) => c.split(';')[0]).join('; ');
  const get = (person: TestPerson, url: string) => withSecret.inject({ url, headers: { cookie: cookieOf(person) } });

  it('has no routes without the secret in the environment', () => {
    expect(without.routeAccessTable.filter((route) => route.url.startsWith('/api/test-support'))).toEqual([]);
    expect(withSecret.routeAccessTable.filter((route) => route.url.startsWith('/api/test-support'))).toEqual([
      { method: 'POST', url: PEOPLE, access: 'public' },
      { method: 'POST', url: '/api/test-support/jobs/due', access: 'public' },
    ]);
  });

  it('answers a request without the right secret exactly as the app without the routes does', async () => {
    const requests: InjectOptions[] = [
      { method: 'POST', url: PEOPLE, payload: { role: 'admin' } },
      { method: 'POST', url: PEOPLE, headers: { [TEST_SUPPORT_SECRET_HEADER]: 'not the secret' }, payload: { role: 'admin' } },
      { method: 'POST', url: PEOPLE, headers: { [TEST_SUPPORT_SECRET_HEADER]: `${SECRET}x` }, payload: { role: 'admin' } },
      { method: 'POST', url: PEOPLE, headers: { [TEST_SUPPORT_SECRET_HEADER]: '' }, payload: { role: 'admin' } },
      { method: 'POST', url: PEOPLE, headers: { 'content-type': 'application/json' }, payload: '{not json' },
      { method: 'POST', url: PEOPLE, headers: { 'content-type': 'text/plain' }, payload: 'role=admin' },
      { method: 'POST', url: `${PEOPLE}?role=admin`, payload: {} },
      { method: 'GET', url: PEOPLE },
      { method: 'GET', url: PEOPLE, headers: { [TEST_SUPPORT_SECRET_HEADER]: SECRET, accept: 'text/html' } },
    ];
    for (const request of requests) {
      // Malformed JSON is a 400 for an unknown route too: the body is read before the 404.
      expect(visible(await withSecret.inject(request)), JSON.stringify(request)).toEqual(visible(await without.inject(request)));
    }
    expect((await withSecret.inject(requests[0] ?? {})).json()).toMatchObject({ status: 404, detail: `No API route ${PEOPLE}` });
  });

  it('refuses to start in production, and with a short secret', async () => {
    await expect(appWith(database, SECRET, { NODE_ENV: 'production' })).rejects.toThrow(`${TEST_SUPPORT_SECRET_ENV} is set but NODE_ENV is production`);
    await expect(appWith(database, SECRET, { NODE_ENV: '' })).rejects.toThrow('NODE_ENV is production (or unset)');
    await expect(appWith(database, 'short')).rejects.toThrow(`${TEST_SUPPORT_SECRET_ENV} must be at least 32 characters`);
  });

  it('makes a platform admin with an authenticator, signed in past the second step', async () => {
    const admin = await create({ role: 'admin', name: 'Ada Admin' });
    expect(admin).toMatchObject({ name: 'Ada Admin', role: 'admin', team: null });
    const me = await get(admin, '/api/me');
    expect(me.json()).toMatchObject({
      user: { email: admin.email, name: 'Ada Admin' },
      platformAdmin: true,
      mfaEnrolled: true,
      mustEnrolMfa: false,
      team: null,
    });
    expect((await get(admin, '/api/admin/waitlist')).statusCode).toBe(200);
    // The authenticator is the one returned: its code for the step the sign-in used is spent, the next one is good.
    expect(admin.totp?.backupCodes).toHaveLength(10);
    const secret = admin.totp?.secret ?? '';
    const signIn = async () => {
      const first = await withSecret.inject({ method: 'POST', url: '/api/auth/sign-in/email', payload: { email: admin.email, password: admin.password } });
      expect(first.json()).toMatchObject({ twoFactorRedirect: true });
      return first.headers['set-cookie'] as string[];
    };
    const verify = async (step: number) =>
      withSecret.inject({
        method: 'POST',
        url: '/api/auth/two-factor/verify-totp',
        headers: { cookie: (await signIn()).map((c) => c.split(';')[0]).join('; ') },
        payload: { code: totpCode(secret, step * 30_000) },
      });
    const used = admin.totp?.usedStep ?? 0;
    expect((await verify(used)).json()).toMatchObject({ code: 'CODE_REUSED' });
    expect((await verify(used + 1)).statusCode).toBe(200);
  });

  it('makes an owner of a new team, and an assistant of another, with or without an authenticator', async () => {
    const owner = await create({ role: 'owner', teamName: 'Lakeside Lending' });
    expect(owner.team).toMatchObject({ name: 'Lakeside Lending', owner: { email: owner.email } });
    expect((await get(owner, '/api/me')).json()).toMatchObject({ broker: true, mfaEnrolled: true, team: { id: owner.team?.id, role: 'owner' } });
    expect((await get(owner, `/api/teams/${owner.team?.id}/members`)).statusCode).toBe(200);

    const assistant = await create({ role: 'assistant', mfa: false });
    expect(assistant.totp).toBeNull();
    expect(assistant.team?.id).not.toBe(owner.team?.id);
    expect((await get(assistant, '/api/me')).json()).toMatchObject({
      broker: false,
      mfaEnrolled: false,
      mustEnrolMfa: true,
      team: { id: assistant.team?.id, role: 'assistant' },
    });
    expect((await get(assistant, `/api/teams/${assistant.team?.id}`)).json()).toMatchObject({ code: 'mfa_required' });

    // An assistant of the owner's own team, for a test where both work on one loan.
    const colleague = await create({ role: 'assistant', teamId: owner.team?.id ?? '' });
    expect(colleague.team).toEqual({ id: owner.team?.id, name: 'Lakeside Lending', owner: { email: owner.email, name: owner.name } });
    expect((await get(colleague, '/api/me')).json()).toMatchObject({ team: { id: owner.team?.id, role: 'assistant' } });
    const refused = (body: CreateTestPerson) =>
      withSecret.inject({ method: 'POST', url: PEOPLE, headers: { [TEST_SUPPORT_SECRET_HEADER]: SECRET }, payload: body });
    for (const body of [
      { role: 'owner', teamId: owner.team?.id ?? '' },
      { role: 'assistant', teamId: '00000000-0000-4000-8000-000000000000' },
    ] as const) {
      const response = await refused(body);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toMatchObject({ errors: [{ field: 'teamId' }] });
    }
  });

  it('refuses a body it does not know, naming the field', async () => {
    const response = await withSecret.inject({ method: 'POST', url: PEOPLE, headers: { [TEST_SUPPORT_SECRET_HEADER]: SECRET }, payload: { role: 'borrower' } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'validation_failed', errors: [{ field: 'role' }] });
  });

  it('makes a queue’s pending jobs due now, and only with the secret', async () => {
    const queue = `test-support.later.${backend}`;
    await enqueueJob(database.db, queue, {}, { runAt: new Date(Date.now() + 3 * 60_000) });
    const due = (headers: Record<string, string>) => withSecret.inject({ method: 'POST', url: '/api/test-support/jobs/due', headers, payload: { queue } });
    expect((await due({})).statusCode).toBe(404);
    const moved = await due({ [TEST_SUPPORT_SECRET_HEADER]: SECRET });
    expect(moved.json()).toEqual({ moved: 1 });
    const [row] = await database.db.select().from(job).where(eq(job.queue, queue));
    expect(row!.runAt.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
    const bad = await withSecret.inject({ method: 'POST', url: '/api/test-support/jobs/due', headers: { [TEST_SUPPORT_SECRET_HEADER]: SECRET }, payload: {} });
    expect(bad.statusCode).toBe(400);
  });
});
