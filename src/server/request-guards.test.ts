import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { session, waitlistEntry } from './db/schema';
import { setupApi } from '../test/api';
import { backends } from '../test/databases';
import { createCast, createLoan } from '../test/factories';
import { rawRequest, type RawResponse } from '../test/http';
import { invitationTokenFor, PEOPLE_PASSWORD, type People } from '../test/people';

const UNSAFE_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE'];

/** A route pattern made concrete: each `:param` a fresh id (or the caller's team), the catch-all an action. */
const concrete = (url: string, teamId: string, loanId: string = randomUUID()) =>
  url
    .replace(':teamId', teamId)
    .replace(':loanId', loanId)
    .replace(/:[A-Za-z]+/g, () => randomUUID())
    .replace('*', 'sign-out');

/** The same path as the router sees it, spelled with an encoded letter. */
const encodedSpelling = (path: string) => path.replace(/^\/api\//, '/%61pi/');

/** Text and shapes no form sends: NUL, lone surrogates, control characters, huge strings, deep nesting, wrong types. */
const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom('\u0000', 'a\u0000b', '\ud800', 'x\udfffy', '\u001b[31mred', '\u007f', ''),
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.string({ maxLength: 40 }).map((s) => s.repeat(200)),
  fc.integer({ min: 1, max: 40 }).map((n) => JSON.parse(`${'['.repeat(n)}${']'.repeat(n)}`) as unknown),
  fc.oneof(fc.integer(), fc.double(), fc.boolean(), fc.constant(null)),
  fc.jsonValue({ maxDepth: 3 }),
);
const FIELD_NAMES = [
  'email',
  'password',
  'name',
  'fullName',
  'phone',
  'company',
  'website',
  'token',
  'newPassword',
  'currentPassword',
  'code',
  'role',
  'accentColor',
  'trustDevice',
  // Loan files: a few fields of every kind (text, money, percent, enum, list, date), the stage move and the deletion.
  'borrowerName',
  'loanAmountCents',
  'noteRatePercent',
  'propertyType',
  'unitRentsCents',
  'targetClosingDate',
  'version',
  'from',
  'to',
  'note',
  'confirmAddress',
];
const nastyBody: fc.Arbitrary<string> = fc.oneof(
  fc.dictionary(fc.oneof(fc.constantFrom(...FIELD_NAMES), fc.string({ maxLength: 8 })), nastyValue, { maxKeys: 5 }).map((body) => JSON.stringify(body)),
  nastyValue.map((value) => JSON.stringify(value) ?? 'null'),
  fc.integer({ min: 33, max: 6000 }).map((n) => `{"name":${'['.repeat(n)}${']'.repeat(n)}}`),
  fc.string({ maxLength: 200 }),
);

describe.each(backends)('request guards on every route, on %s', (backend) => {
  // Behind a trusted proxy: each request names its client address, so per-client limits stay out of the way.
  const api = setupApi(backend, { env: { TRUST_PROXY: 'true' }, listen: true });
  let people: People;
  let clients = 0;
  const nextClient = () => `10.9.${(++clients >> 8) & 255}.${clients & 255}`;

  let loanA: string;

  beforeAll(async () => {
    people = await createCast(api, 'rg');
    loanA = (await createLoan(api, people.teamA, people.ownerA)).id;
  });

  /**
   * The session that gets furthest into a route: admins for the console, team
   * A's owner for the rest; none for better-auth's catch-all, whose stand-in
   * action is signing out.
   */
  const cookieFor = (url: string): Record<string, string> =>
    url.endsWith('/*') ? {} : { cookie: (url.startsWith('/api/admin') ? people.admin : people.ownerA).cookie };

  const send = (method: string, path: string, options: { cookie?: string; body?: string; headers?: Record<string, string> } = {}) =>
    rawRequest(api.baseUrl, {
      method,
      path,
      ...(options.body === undefined ? {} : { body: options.body }),
      headers: { 'x-forwarded-for': nextClient(), ...(options.cookie ? { cookie: options.cookie } : {}), ...options.headers },
    });

  it('refuses a foreign Origin on every state-changing route, whatever the spelling of its path', async () => {
    // RFC 8058's one-click unsubscribe is posted by mail providers from anywhere: its route says so
    // (config.crossSitePost), and its signed token is its whole credential (notifications.test.ts).
    const unsafe = api.app.routeAccessTable.filter((route) => UNSAFE_METHODS.includes(route.method) && route.url !== '/unsubscribe');
    expect(unsafe.length).toBeGreaterThan(10);
    for (const route of unsafe) {
      const path = concrete(route.url, people.teamA, loanA);
      for (const spelled of [path, encodedSpelling(path), path.replace('/api/', '/api/./')]) {
        const foreign: Record<string, string>[] = [{ origin: 'http://localhost:4444' }, { origin: 'https://evil.example' }, { 'sec-fetch-site': 'cross-site' }];
        for (const headers of foreign) {
          const response = await send(route.method, spelled, { ...cookieFor(route.url), body: '{}', headers });
          expect(response.statusCode, `${route.method} ${spelled} ${JSON.stringify(headers)}`).toBe(403);
        }
      }
    }
  });

  it('keeps a page on another origin from inviting a waitlist entry through an encoded path', async () => {
    const [entry] = await api.db.insert(waitlistEntry).values({ fullName: 'Wendy Waitlist', email: 'wendy@rg.test' }).returning();
    const attack = await send('POST', `/%61pi/admin/waitlist/${entry?.id}/invite`, {
      cookie: people.admin.cookie,
      headers: { origin: 'http://localhost:3001' },
    });
    expect(attack.statusCode).toBe(403);
    const [after] = await api.db
      .select()
      .from(waitlistEntry)
      .where(eq(waitlistEntry.id, entry?.id ?? ''));
    expect(after?.invitedAt).toBeNull();
  });

  it('marks every API answer no-store: personal data, session lists, and 404s hidden or unknown alike', async () => {
    const owner = people.ownerA.cookie;
    for (const [path, cookie, status] of [
      ['/api/auth/list-sessions', owner, 200],
      ['/api/auth/get-session', owner, 200],
      [`/api/teams/${people.teamA}`, owner, 200],
      [`/%61pi/teams/${people.teamA}`, owner, 200],
      ['/api/me', owner, 200],
      [`/api/teams/${people.teamB}`, owner, 404],
      [`/api/teams/${people.teamB}/members`, owner, 404],
      ['/api/admin/waitlist', owner, 404],
      ['/api/no-such-route', owner, 404],
      ['/api/no-such-route', undefined, 404],
    ] as const) {
      const response = await send('GET', path, cookie ? { cookie } : {});
      expect(response.statusCode, path).toBe(status);
      expect(response.headers['cache-control'], path).toBe('no-store');
    }
    const hidden = await send('GET', `/api/teams/${people.teamB}/members`, { cookie: owner });
    const unknown = await send('GET', `/api/teams/${people.teamB}/membres`, { cookie: owner });
    const { instance: _hiddenInstance, detail: _hiddenDetail, ...hiddenRest } = hidden.json();
    const { instance: _unknownInstance, detail: _unknownDetail, ...unknownRest } = unknown.json();
    expect(hiddenRest).toEqual(unknownRest);
    expect(Object.keys(hidden.headers).sort()).toEqual(Object.keys(unknown.headers).sort());
  });

  it('answers a hidden route exactly as an unknown one: status, body and every header in order, a session due for a refresh included', async () => {
    /** Every header but the two that differ per request, in the order sent. */
    const headerList = (response: RawResponse) => response.headerList.filter(([name]) => name !== 'x-request-id' && name !== 'date');
    /** Due for a refresh: better-auth extends a session once a day of its week has passed. */
    const ageSession = (userId: string) =>
      api.db
        .update(session)
        .set({ expiresAt: new Date(Date.now() + 5 * 86_400_000) })
        .where(eq(session.userId, userId));
    const strangers = { ownerB: people.ownerB, borrower: people.borrower, ownerA: people.ownerA };
    // Each hidden path beside an unknown one of the same length, so the bodies (which name the path) are as long.
    const pairs: [keyof typeof strangers, string, string, string, string?][] = [
      ['ownerB', 'GET', `/api/loans/${loanA}`, `/api/loanz/${loanA}`],
      ['ownerB', 'GET', `/api/loans/${loanA}/activity`, `/api/loans/${loanA}/activitz`],
      ['borrower', 'GET', `/api/loans/${loanA}`, `/api/loanz/${loanA}`],
      ['ownerB', 'POST', `/api/loans/${loanA}/stage`, `/api/loans/${loanA}/stagf`, JSON.stringify({ from: 'lead', to: 'application' })],
      ['ownerB', 'GET', `/api/teams/${people.teamA}/members`, `/api/teams/${people.teamA}/memberz`],
      ['ownerA', 'GET', '/api/admin/waitlist', '/api/admin/waitlizt'],
    ];
    for (const [who, method, hiddenPath, unknownPath, body] of pairs) {
      const { cookie, userId } = strangers[who];
      for (const due of [false, true]) {
        const label = `${method} ${hiddenPath} as ${who}${due ? ', session due for a refresh' : ''}`;
        if (due) await ageSession(userId);
        const hidden = await send(method, hiddenPath, { cookie, ...(body ? { body } : {}) });
        if (due) await ageSession(userId);
        const unknown = await send(method, unknownPath, { cookie, ...(body ? { body } : {}) });
        expect(hidden.statusCode, label).toBe(404);
        expect(unknown.statusCode, label).toBe(404);
        expect(hidden.body.replaceAll(hiddenPath, unknownPath), label).toBe(unknown.body);
        expect(headerList(hidden), label).toEqual(headerList(unknown));
      }
    }
    // A link's routes without a usable token (none, or one that names no link): the unknown route's answer, every header alike
    // (no rate-limit headers, though the routes count each client).
    const noLink = 'A'.repeat(43);
    const linkPairs: [string, string, string, string?][] = [
      ['GET', '/api/upload-link', '/api/upload-linq'],
      ['POST', '/api/upload-link/uploads', '/api/upload-link/uploadz', JSON.stringify({ files: [{ name: 'a.pdf', size: 10 }] })],
      [
        'PUT',
        '/api/upload-link/uploads/5b7c0a1e-0d7e-4a57-9d43-1c2f3e4a5b6c/files/1',
        '/api/upload-link/uploads/5b7c0a1e-0d7e-4a57-9d43-1c2f3e4a5b6c/filez/1',
        '{}',
      ],
      ['DELETE', '/api/upload-link/uploads/5b7c0a1e-0d7e-4a57-9d43-1c2f3e4a5b6c', '/api/upload-link/uploadz/5b7c0a1e-0d7e-4a57-9d43-1c2f3e4a5b6c'],
    ];
    for (const [method, hiddenPath, unknownPath, body] of linkPairs) {
      for (const headers of [{}, { authorization: `Bearer ${noLink}` }, { authorization: 'Bearer x' }] as Record<string, string>[]) {
        const label = `${method} ${hiddenPath} with ${JSON.stringify(headers)}`;
        const options = { headers: { origin: api.config.publicUrl, ...headers }, ...(body ? { body } : {}) };
        const hidden = await send(method, hiddenPath, options);
        const unknown = await send(method, unknownPath, options);
        expect(hidden.statusCode, label).toBe(404);
        expect(hidden.body.replaceAll(hiddenPath, unknownPath), label).toBe(unknown.body);
        expect(headerList(hidden), label).toEqual(headerList(unknown));
      }
    }

    // The ageing does make the session due: a route the caller may use re-sets the cookie.
    await ageSession(people.ownerB.userId);
    const visible = await send('GET', '/api/me', { cookie: people.ownerB.cookie });
    expect(visible.statusCode).toBe(200);
    expect(visible.headerList.map(([name]) => name)).toContain('set-cookie');
  });

  it('refuses NUL and lone surrogates in every text field with a 400 naming the field', async () => {
    const cases: [string, string, string | undefined, unknown, string][] = [
      ['POST', '/api/waitlist', undefined, { fullName: 'Ann\u0000', email: 'ann@rg.test' }, 'fullName'],
      ['POST', '/api/waitlist', undefined, { fullName: 'Ann', email: 'ann@rg.test', company: 'Acme\ud800' }, 'company'],
      ['PATCH', '/api/me', people.ownerA.cookie, { name: 'Owen\u0000' }, 'name'],
      ['PATCH', `/api/teams/${people.teamA}`, people.ownerA.cookie, { name: 'Lake\u0000side' }, 'name'],
      ['PATCH', `/api/teams/${people.teamA}`, people.ownerA.cookie, { name: 'Lake\ud800side' }, 'name'],
      ['POST', `/api/teams/${people.teamA}/invitations`, people.ownerA.cookie, { email: 'a\u0000@rg.test' }, 'email'],
      ['POST', '/api/auth/sign-in/email', undefined, { email: 'a\u0000@rg.test', password: PEOPLE_PASSWORD }, 'email'],
      ['POST', '/api/auth/reset-password', undefined, { token: 'abc\u0000', newPassword: 'a fine new passphrase' }, 'token'],
      ['POST', '/api/invitations/accept', undefined, { token: 'A'.repeat(43), name: 'Nul\u0000l', password: 'a fine new passphrase' }, 'name'],
    ];
    for (const [method, path, cookie, body, field] of cases) {
      const response = await send(method, path, { ...(cookie ? { cookie } : {}), body: JSON.stringify(body) });
      expect(response.statusCode, `${method} ${path} ${response.body}`).toBe(400);
      expect(
        response.json().errors?.map((e: { field: string }) => e.field),
        path,
      ).toContain(field);
    }
    const search = await send('GET', '/api/admin/waitlist?q=%00', { cookie: people.admin.cookie });
    expect(search.statusCode, search.body).toBe(400);
    expect(search.json().errors?.[0]?.field).toBe('q');
  });

  it('answers five concurrent accepts of one new-account invitation with one 200 and four 410', async () => {
    const email = 'five-tabs@rg.test';
    const invited = await send('POST', `/api/teams/${people.teamA}/invitations`, { cookie: people.ownerA.cookie, body: JSON.stringify({ email }) });
    expect(invited.statusCode, invited.body).toBe(201);
    const token = await invitationTokenFor(api.db, email);
    const body = JSON.stringify({ token, name: 'Fay Fivetabs', password: 'five tabs one account' });
    const answers = await Promise.all(Array.from({ length: 5 }, () => send('POST', '/api/invitations/accept', { body })));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 410, 410, 410, 410]);
  });

  it('never answers 5xx to any body sent to any route (property-based, every JSON endpoint)', async () => {
    const withBody = api.app.routeAccessTable.filter((route) => UNSAFE_METHODS.includes(route.method));
    for (const route of withBody) {
      await fc.assert(
        fc.asyncProperty(nastyBody, async (body) => {
          const path = concrete(route.url, people.teamA, loanA);
          const response = await api.app.inject({
            method: route.method as 'POST',
            url: path,
            payload: body,
            headers: { 'content-type': 'application/json', ...cookieFor(route.url) },
            remoteAddress: nextClient(),
          });
          expect(response.statusCode, `${route.method} ${path} ${body.slice(0, 200)} → ${response.body.slice(0, 300)}`).toBeLessThan(500);
        }),
        { numRuns: 20 },
      );
    }
    // Every route with a body, twenty bodies each: more routes, more time (not a speed check).
  }, 180_000);

  it('never answers 5xx to any query string on any GET route (property-based)', async () => {
    // The live stream answers a good query (none at all is the inbox alone) with a stream that stays open, which
    // inject would wait on for ever; its query and Last-Event-ID have their own property test (realtime-bad-input.test.ts).
    const reads = api.app.routeAccessTable.filter((route) => route.method === 'GET' && route.url.startsWith('/api') && route.url !== '/api/events');
    const query = fc.dictionary(
      fc.constantFrom(
        'q',
        'sort',
        'dir',
        'status',
        'action',
        'before',
        'limit',
        'disableCookieCache',
        'stage',
        'assignee',
        'closing',
        'page',
        'size',
        'today',
        'x',
      ),
      fc.string({ unit: 'binary', maxLength: 40 }),
      { maxKeys: 4 },
    );
    for (const route of reads) {
      await fc.assert(
        fc.asyncProperty(query, async (params) => {
          const search = new URLSearchParams(params).toString();
          const path = `${concrete(route.url, people.teamA, loanA)}?${search}`;
          const response = await api.app.inject({ method: 'GET', url: path, headers: cookieFor(route.url), remoteAddress: nextClient() });
          expect(response.statusCode, `${path} → ${response.body.slice(0, 300)}`).toBeLessThan(500);
        }),
        { numRuns: 15 },
      );
    }
  });
});
