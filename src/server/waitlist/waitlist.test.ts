import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { job, waitlistEntry } from '../db/schema';
import { MAIL_QUEUE } from '../platform/mail/mail-jobs';
import type { MailMessage } from '../platform/mail/mailer';
import { setupApi } from '../../test/api';
import { backends } from '../../test/databases';

const NO_WEB_BUILD = '/nonexistent-dist';

describe.each(backends)('POST /api/waitlist on %s', (backend) => {
  let nudges = 0;
  const api = setupApi(backend, { distDir: NO_WEB_BUILD, onJobsEnqueued: () => nudges++ });

  const post = (payload: unknown, headers: Record<string, string> = {}) => api.as().post('/api/waitlist', payload as object, { headers });
  const entriesFor = (email: string) => api.db.select().from(waitlistEntry).where(eq(waitlistEntry.emailKey, email.toLowerCase()));
  const mailsTo = async (to: string) =>
    (await api.db.select().from(job).where(eq(job.queue, MAIL_QUEUE))).map((row) => row.payload as MailMessage).filter((mail) => mail.to === to);

  it('stores the entry and queues the team notice and the confirmation in the same transaction', async () => {
    const before = nudges;
    const response = await post({ fullName: '  Dana Broker ', email: 'dana@example.com', phone: '+1 555 010 0199', company: 'Keystone Lending' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'received' });
    expect(nudges).toBe(before + 1);

    const [entry, ...rest] = await entriesFor('dana@example.com');
    expect(rest).toHaveLength(0);
    expect(entry).toMatchObject({
      fullName: 'Dana Broker',
      email: 'dana@example.com',
      phone: '+1 555 010 0199',
      company: 'Keystone Lending',
      status: 'new',
      submissions: 1,
    });

    const [notice] = await mailsTo('team@coverly.test');
    expect(notice?.subject).toBe('New waitlist sign-up: Dana Broker');
    expect(notice?.text).toContain('Email: dana@example.com');
    expect(notice?.text).toContain('Company: Keystone Lending');
    expect(notice?.replyTo).toBe('dana@example.com');
    const confirmations = await mailsTo('dana@example.com');
    expect(confirmations).toHaveLength(1);
    expect(confirmations[0]?.subject).toBe("You're on the Coverly waitlist");
  });

  it('merges the same address in any letter case into one entry and still answers success', async () => {
    await post({ fullName: 'Ray Investor', email: 'ray@example.com', phone: '555 0100', company: 'Ray Holdings LLC' });
    const again = await post({ fullName: 'Raymond Investor', email: 'RAY@Example.COM' });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ status: 'received' });

    const entries = await entriesFor('ray@example.com');
    expect(entries).toHaveLength(1);
    // Newest name and spelling of the address; phone and company kept when left out.
    expect(entries[0]).toMatchObject({
      fullName: 'Raymond Investor',
      email: 'RAY@Example.COM',
      phone: '555 0100',
      company: 'Ray Holdings LLC',
      submissions: 2,
    });

    const notices = (await mailsTo('team@coverly.test')).filter((m) => m.text.includes('ray@example.com') || m.text.includes('RAY@Example.COM'));
    expect(notices.map((m) => m.subject)).toEqual(['New waitlist sign-up: Ray Investor', 'Waitlist sign-up updated: Raymond Investor']);
    // The visitor is confirmed once, not once per submission.
    expect([...(await mailsTo('ray@example.com')), ...(await mailsTo('RAY@Example.COM'))]).toHaveLength(1);
  });

  it('answers a filled honeypot with success and stores nothing', async () => {
    const jobsBefore = await api.db.$count(job);
    const response = await post({ fullName: 'Spam Bot', email: 'bot@spam.example', website: 'http://spam.example' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'received' });
    expect(await entriesFor('bot@spam.example')).toHaveLength(0);
    expect(await api.db.$count(job)).toBe(jobsBefore);
  });

  it('answers bad fields with a 400 problem naming each of them', async () => {
    const response = await post({ fullName: ' ', email: 'nope', phone: '1'.repeat(33), company: 'c'.repeat(121), role: 'admin' });
    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toContain('application/problem+json');
    const problem = response.json();
    expect(problem).toMatchObject({ status: 400, code: 'validation_failed', title: 'Your request has invalid fields', instance: '/api/waitlist' });
    expect(problem.errors.map((e: { field: string }) => e.field).sort()).toEqual(['company', 'email', 'fullName', 'phone', 'role']);
    expect(problem.detail).toContain('fullName');
  });

  it('refuses malformed JSON, other content types, non-object bodies and huge bodies with 4xx', async () => {
    const malformed = await api.as().post('/api/waitlist', '{"fullName": "x",', { headers: { 'content-type': 'application/json' } });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().code).toBe('bad_request');

    const text = await api.as().post('/api/waitlist', 'fullName=x', { headers: { 'content-type': 'text/plain' } });
    expect(text.statusCode).toBe(415);

    const poisoned = await api
      .as()
      .post('/api/waitlist', '{"__proto__": {"isAdmin": true}, "fullName": "x", "email": "x@y.z"}', { headers: { 'content-type': 'application/json' } });
    expect(poisoned.statusCode).toBe(400);
    expect(poisoned.json()).toMatchObject({
      code: 'bad_request',
      detail: 'The key __proto__ is not accepted in a request body',
      errors: [{ field: '__proto__', message: 'This key is not accepted' }],
    });
    // Deeper down, and the constructor.prototype spelling: named where it is.
    const nested = await api
      .as()
      .post('/api/waitlist', '{"fullName": "x", "email": "x@y.z", "company": [1, {"constructor": {"prototype": {"isAdmin": true}}}]}', {
        headers: { 'content-type': 'application/json' },
      });
    expect(nested.statusCode).toBe(400);
    expect(nested.json().errors).toEqual([{ field: 'company.1.constructor', message: 'This key is not accepted' }]);

    const array = await post([{ fullName: 'x', email: 'x@y.z' }]);
    expect(array.statusCode).toBe(400);

    const empty = await api.as().post('/api/waitlist');
    expect(empty.statusCode).toBe(400);

    const huge = await post({ fullName: 'x'.repeat(20_000), email: 'big@example.com' });
    expect(huge.statusCode).toBe(413);
    expect(huge.json().code).toBe('payload_too_large');
  });

  it('never answers 5xx to any JSON a client can send (property-based)', async () => {
    const field = fc.oneof(fc.string({ maxLength: 300 }), fc.string({ unit: 'binary', maxLength: 200 }), fc.jsonValue(), fc.constant(undefined));
    const body = fc.oneof(
      fc.jsonValue(),
      fc.record({ fullName: field, email: fc.oneof(field, fc.emailAddress()), phone: field, company: field }, { requiredKeys: [] }),
      fc.dictionary(fc.string({ maxLength: 20 }), fc.jsonValue(), { maxKeys: 6 }),
    );
    await fc.assert(
      fc.asyncProperty(body, async (payload) => {
        const response = await api.as().post('/api/waitlist', JSON.stringify(payload) ?? 'null', { headers: { 'content-type': 'application/json' } });
        expect([200, 400]).toContain(response.statusCode);
        if (response.statusCode === 400) {
          const problem = response.json();
          // Bad fields are named; a body refused before validation (e.g. a __proto__ key) says why.
          if (problem.code === 'validation_failed') expect(problem.errors.length).toBeGreaterThan(0);
          else expect(problem.detail).toMatch(/\S/);
        }
      }),
      { numRuns: 150 },
    );
    const raw = fc.string({ maxLength: 400 });
    await fc.assert(
      fc.asyncProperty(raw, async (payload) => {
        const response = await api.as().post('/api/waitlist', payload, { headers: { 'content-type': 'application/json' } });
        expect(response.statusCode).toBeGreaterThanOrEqual(200);
        expect(response.statusCode).toBeLessThan(500);
      }),
      { numRuns: 150 },
    );
  });

  it('refuses state-changing requests from another origin', async () => {
    const crossOrigin = await post({ fullName: 'Eve', email: 'eve@example.com' }, { origin: 'https://evil.example' });
    expect(crossOrigin.statusCode).toBe(403);
    expect(crossOrigin.json().code).toBe('forbidden');
    const crossSite = await post({ fullName: 'Eve', email: 'eve@example.com' }, { 'sec-fetch-site': 'cross-site' });
    expect(crossSite.statusCode).toBe(403);
    expect(await entriesFor('eve@example.com')).toHaveLength(0);

    const sameOrigin = await post({ fullName: 'Sam', email: 'sam@example.com' }, { origin: 'http://localhost:3000' });
    expect(sameOrigin.statusCode).toBe(200);
  });

  it('keeps every entry when many arrive at once', async () => {
    const emails = Array.from({ length: 25 }, (_, i) => `burst${i}@example.com`);
    const responses = await Promise.all(emails.map((email, i) => post({ fullName: `Burst ${i}`, email: i % 2 ? email.toUpperCase() : email })));
    expect(responses.every((r) => r.statusCode === 200)).toBe(true);
    const [row] = await api.db
      .select({ n: sql<number>`count(*)::int` })
      .from(waitlistEntry)
      .where(sql`${waitlistEntry.emailKey} like 'burst%'`);
    expect(row?.n).toBe(25);
  });
});

describe.each(backends)('waitlist rate limit on %s', (backend) => {
  const api = setupApi(backend, { env: { WAITLIST_RATE_LIMIT: '3', WAITLIST_RATE_WINDOW_SECONDS: '60' }, distDir: NO_WEB_BUILD });

  it('answers a burst from one address with 429 problem+json and a Retry-After', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const response = await api.as().post('/api/waitlist', { fullName: `Burst ${i}`, email: `limit${i}@example.com` }, { remoteAddress: '203.0.113.7' });
      statuses.push(response.statusCode);
      if (response.statusCode === 429) {
        expect(response.headers['content-type']).toContain('application/problem+json');
        expect(response.json()).toMatchObject({ status: 429, code: 'rate_limited' });
        expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
      }
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    // Another client address is not affected.
    const other = await api.as().post('/api/waitlist', { fullName: 'Other', email: 'other@example.com' }, { remoteAddress: '198.51.100.9' });
    expect(other.statusCode).toBe(200);
  });
});
