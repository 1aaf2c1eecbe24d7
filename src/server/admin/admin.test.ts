import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FailedJob, ListWaitlistResult } from '../../shared/schemas/admin';
import type { AuditPage } from '../../shared/schemas/audit';
import { invitation, job, waitlistEntry } from '../db/schema';
import { MAIL_QUEUE } from '../platform/mail/mail-jobs';
import type { MailMessage } from '../platform/mail/mailer';
import { setupApi, type Caller } from '../../test/api';
import { backends } from '../../test/databases';
import { formulaCells, readCsvAs } from '../../test/csv-reading';
import { createAccount, createAdmin, createWaitlistEntry, signedIn, type Person } from '../../test/factories';
import { cookieFrom } from '../../test/http';
import { enrolTotp } from '../../test/people';
import { escapeLike } from './admin.queries';

const PASSWORD = 'admin console walks the list';
const BROKER_PASSWORD = 'broker joins from waitlist';

describe('waitlist queries', () => {
  it('escapes LIKE wildcards', () => {
    expect(escapeLike('100%_a\\b')).toBe('100\\%\\_a\\\\b');
  });
});

describe.each(backends)('admin console API on %s', (backend) => {
  let nudges = 0;
  const api = setupApi(backend, { onJobsEnqueued: () => nudges++ });
  let admin: Person;
  let member: Person;
  /** Requests as the enrolled platform admin. */
  let asAdmin: Caller;
  const ids: Record<string, string> = {};

  const list = async (query: string) => {
    const response = await asAdmin.get(`/api/admin/waitlist${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as ListWaitlistResult;
  };
  const emailsOf = (result: ListWaitlistResult) => result.entries.map((e) => e.email);
  const mailsTo = async (to: string) =>
    (await api.db.select().from(job).where(eq(job.queue, MAIL_QUEUE))).map((row) => row.payload as MailMessage).filter((mail) => mail.to === to);

  beforeAll(async () => {
    // Admins see personal data: the console opens only after an authenticator is enrolled.
    admin = await createAdmin(api, { email: 'admin@console.test', name: 'Admin', password: PASSWORD });
    asAdmin = api.as(admin);
    member = await signedIn(api, await createAccount(api, { email: 'member@console.test', name: 'Member', password: PASSWORD }));

    const day = (n: number) => new Date(Date.UTC(2025, 0, n, 12));
    for (const entry of [
      { fullName: 'Dana Broker', email: 'dana@keystone.test', phone: '+1 555 010 0199', company: 'Keystone Lending', createdAt: day(1) },
      { fullName: 'ray Investor', email: 'RAY@Example.com', company: 'Ray Holdings LLC', createdAt: day(2) },
      {
        fullName: '=HYPERLINK("http://evil.test","click")',
        email: 'evil@example.com',
        phone: '@SUM(1)',
        company: `Acme, "Quoted" Inc.;=cmd|' /C calc'!A0;`,
        createdAt: day(3),
      },
      { fullName: 'Pat Percent', email: 'pat@example.com', company: '100% Lending', createdAt: day(4) },
      { fullName: 'Una Underscore', email: 'una_score@example.com', createdAt: day(5) },
      { fullName: 'Ivy Invited', email: 'ivy@example.com', company: 'Birch Capital', status: 'invited', invitedAt: day(7), createdAt: day(6) },
    ] as const) {
      ids[entry.email] = (await createWaitlistEntry(api, entry)).id;
    }
  });

  it('lists every entry, newest first, with all its fields', async () => {
    const result = await list('');
    expect(result.total).toBe(6);
    expect(result.truncated).toBe(false);
    expect(emailsOf(result)).toEqual([
      'ivy@example.com',
      'una_score@example.com',
      'pat@example.com',
      'evil@example.com',
      'RAY@Example.com',
      'dana@keystone.test',
    ]);
    expect(result.entries.at(-1)).toEqual({
      id: ids['dana@keystone.test'],
      fullName: 'Dana Broker',
      email: 'dana@keystone.test',
      phone: '+1 555 010 0199',
      company: 'Keystone Lending',
      status: 'new',
      submissions: 1,
      createdAt: '2025-01-01T12:00:00.000Z',
      invitedAt: null,
    });
  });

  it('searches name, e-mail, company and phone without regard to case, and treats % and _ literally', async () => {
    expect(emailsOf(await list('?q=KEYSTONE'))).toEqual(['dana@keystone.test']);
    expect(emailsOf(await list('?q=ray%20inv'))).toEqual(['RAY@Example.com']);
    expect(emailsOf(await list('?q=birch'))).toEqual(['ivy@example.com']);
    expect(emailsOf(await list('?q=010%200199'))).toEqual(['dana@keystone.test']);
    expect(emailsOf(await list('?q=%25'))).toEqual(['pat@example.com']);
    expect(emailsOf(await list('?q=_'))).toEqual(['una_score@example.com']);
    expect(emailsOf(await list(`?q=${encodeURIComponent('"quoted"')}`))).toEqual(['evil@example.com']);
    const none = await list('?q=nobody');
    expect(none).toEqual({ entries: [], total: 0, truncated: false });
    // A blank search is no search.
    expect((await list('?q=%20%20')).total).toBe(6);
  });

  it('sorts by each column in both directions and filters by status', async () => {
    // The formula-like name is left out: where punctuation sorts depends on the database's collation.
    const byName = emailsOf(await list('?sort=fullName&dir=asc')).filter((e) => e !== 'evil@example.com');
    expect(byName).toEqual(['dana@keystone.test', 'ivy@example.com', 'pat@example.com', 'RAY@Example.com', 'una_score@example.com']);
    expect(emailsOf(await list('?sort=fullName&dir=desc'))[0]).toBe('una_score@example.com');
    expect(emailsOf(await list('?sort=email&dir=asc'))).toEqual([
      'dana@keystone.test',
      'evil@example.com',
      'ivy@example.com',
      'pat@example.com',
      'RAY@Example.com',
      'una_score@example.com',
    ]);
    expect(emailsOf(await list('?sort=email&dir=desc'))[0]).toBe('una_score@example.com');
    // Entries without a company come last in either direction.
    expect(emailsOf(await list('?sort=company&dir=asc'))).toEqual([
      'pat@example.com',
      'evil@example.com',
      'ivy@example.com',
      'dana@keystone.test',
      'RAY@Example.com',
      'una_score@example.com',
    ]);
    expect(emailsOf(await list('?sort=company&dir=desc')).at(-1)).toBe('una_score@example.com');
    expect(emailsOf(await list('?sort=createdAt&dir=asc'))[0]).toBe('dana@keystone.test');
    expect(emailsOf(await list('?sort=status&dir=asc'))[0]).toBe('ivy@example.com');
    expect(emailsOf(await list('?sort=status&dir=desc')).at(-1)).toBe('ivy@example.com');
    expect(emailsOf(await list('?status=invited'))).toEqual(['ivy@example.com']);
    expect((await list('?status=new&q=example')).total).toBe(4);
  });

  it('answers bad query parameters with a 400 naming each of them', async () => {
    const response = await asAdmin.get(`/api/admin/waitlist?sort=password&dir=up&status=gone&q=${'x'.repeat(201)}`);
    expect(response.statusCode).toBe(400);
    expect(
      response
        .json()
        .errors.map((e: { field: string }) => e.field)
        .sort(),
    ).toEqual(['dir', 'q', 'sort', 'status']);
    expect((await asAdmin.get('/api/admin/waitlist?sort=email&sort=company')).statusCode).toBe(400);
  });

  it('exports the current filter as CSV, every cell quoted and formulas defused, behind a ; too', async () => {
    const response = await asAdmin.get('/api/admin/waitlist.csv?q=example&sort=email&dir=asc');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="waitlist-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(response.headers['content-disposition']).toContain(new Date().toISOString().slice(0, 10));
    expect(response.headers['cache-control']).toBe('no-store');
    const body = response.body;
    expect(body.startsWith('\uFEFF')).toBe(true);
    const lines = body.slice(1).split('\r\n');
    expect(lines.at(-1)).toBe('');
    // Every cell quoted; a formula defused at the start of a cell and behind a separator inside one (`;`-splitting spreadsheets).
    expect(lines.slice(0, -1)).toEqual([
      '"Full name","Email","Phone","Company","Status","Signed up (UTC)","Invited (UTC)","Submissions"',
      `"'=HYPERLINK(""http://evil.test"",""click"")","evil@example.com","'@SUM(1)","Acme, ""Quoted"" Inc.;'=cmd|' /C calc'!A0;","new","2025-01-03T12:00:00.000Z","","1"`,
      '"Ivy Invited","ivy@example.com","","Birch Capital","invited","2025-01-06T12:00:00.000Z","2025-01-07T12:00:00.000Z","1"',
      '"Pat Percent","pat@example.com","","100% Lending","new","2025-01-04T12:00:00.000Z","","1"',
      '"ray Investor","RAY@Example.com","","Ray Holdings LLC","new","2025-01-02T12:00:00.000Z","","1"',
      '"Una Underscore","una_score@example.com","","","new","2025-01-05T12:00:00.000Z","","1"',
    ]);
    const dana = await asAdmin.get('/api/admin/waitlist.csv?q=keystone');
    expect(dana.body).toContain(`"Dana Broker","dana@keystone.test","'+1 555 010 0199","Keystone Lending",`);
  });

  it('exports no cell that starts a formula, read as a `,` or a `;` spreadsheet reads it, quotes honoured or not (issue 22)', async () => {
    const response = await asAdmin.get('/api/admin/waitlist.csv');
    expect(response.statusCode).toBe(200);
    // The hostile entry is there (a formula name, a phone starting with @, the cell behind a ; in the company)…
    const quoted = readCsvAs(response.body, ',', 'quoted');
    expect(quoted).toHaveLength(7 * 8);
    expect(quoted).toContain(`Acme, "Quoted" Inc.;'=cmd|' /C calc'!A0;`);
    expect(formulaCells(`"Acme;=cmd|' /C calc'!A0;"\r\n`)).not.toEqual([]);
    // …and no reader finds a formula in any cell.
    expect(formulaCells(response.body)).toEqual([]);
  });

  it('invites an entry as a broker: marks it invited and mails a link that opens a broker invitation', async () => {
    const before = nudges;
    const response = await asAdmin.post(`/api/admin/waitlist/${ids['RAY@Example.com']}/invite`);
    expect(response.statusCode, response.body).toBe(200);
    const result = response.json();
    expect(result.entry).toMatchObject({ id: ids['RAY@Example.com'], status: 'invited', invitedAt: expect.any(String) });
    expect(result.invitation).toEqual({ email: 'RAY@Example.com', expiresAt: expect.any(String) });
    expect(nudges).toBe(before + 1);

    const [stored] = await api.db
      .select()
      .from(waitlistEntry)
      .where(eq(waitlistEntry.id, ids['RAY@Example.com'] ?? ''));
    expect(stored).toMatchObject({ status: 'invited', invitedAt: expect.any(Date) });
    const [invited] = await api.db
      .select()
      .from(invitation)
      .where(and(eq(invitation.email, 'RAY@Example.com'), eq(invitation.role, 'broker')));
    expect(invited?.invitedBy).toBe(admin.userId);

    const [mail, ...more] = await mailsTo('RAY@Example.com');
    expect(more).toHaveLength(0);
    expect(mail?.subject).toBe('Your invitation to Coverly');
    expect(mail?.text).toContain('as a mortgage broker, one of the first on Coverly.');
    const link = /http:\/\/localhost:3000\/invite#([A-Za-z0-9_-]{43})/.exec(mail?.text ?? '');
    expect(link).not.toBeNull();
    const token = link?.[1] ?? '';
    const lookup = await api.as().post('/api/invitations/lookup', { token });
    expect(lookup.statusCode).toBe(200);
    expect(lookup.json()).toMatchObject({ email: 'RAY@Example.com', role: 'broker', hasAccount: false });

    // Accepting creates the broker's account with the right to found a team, and nothing more: no admin rights.
    const accepted = await api.as().post('/api/invitations/accept', { token, name: 'Ray Investor', password: BROKER_PASSWORD });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toEqual({ redirectTo: '/app/team/new', twoFactorRequired: false });
    const me = await api.as(cookieFrom(accepted)).get('/api/me');
    // A broker enrols an authenticator before founding the team.
    expect(me.json()).toMatchObject({
      user: { email: 'ray@example.com' },
      platformAdmin: false,
      broker: true,
      mfaEnrolled: false,
      mustEnrolMfa: true,
      team: null,
    });
    expect((await api.as(cookieFrom(accepted)).get('/api/admin/waitlist')).statusCode).toBe(404);
  });

  it('invites an already invited entry again with a fresh invitation', async () => {
    const first = await asAdmin.post(`/api/admin/waitlist/${ids['ivy@example.com']}/invite`);
    const second = await asAdmin.post(`/api/admin/waitlist/${ids['ivy@example.com']}/invite`);
    expect(first.statusCode).toBe(200);
    expect(second.statusCode).toBe(200);
    expect(second.json().entry.status).toBe('invited');
    const links = (await mailsTo('ivy@example.com')).map((m) => /invite#(\S+)/.exec(m.text)?.[1]);
    expect(links).toHaveLength(2);
    expect(new Set(links).size).toBe(2);
  });

  it('answers an unknown entry with 404 and a malformed id with 400, and queues nothing', async () => {
    const jobs = await api.db.$count(job);
    const unknown = await asAdmin.post('/api/admin/waitlist/5b0e2a8c-8f5d-4a9e-9a57-3f6f1c1b2d3e/invite');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'not_found', detail: 'There is no waitlist entry with this id' });
    const malformed = await asAdmin.post('/api/admin/waitlist/not-a-uuid/invite');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().errors).toEqual([{ field: 'id', message: 'Not a valid waitlist entry id' }]);
    expect(await api.db.$count(job)).toBe(jobs);
  });

  it('lists dead jobs with their last error, and retries one', async () => {
    const [dead] = await api.db
      .insert(job)
      .values({
        queue: MAIL_QUEUE,
        payload: { to: 'bounce@example.com', subject: 'Your invitation to Coverly', text: 'Hello' },
        status: 'dead',
        attempts: 3,
        maxAttempts: 3,
        lastError: '550 5.1.1 mailbox unavailable',
      })
      .returning();
    await api.db.insert(job).values({ queue: 'test.other', payload: { anything: true }, status: 'dead', attempts: 1, maxAttempts: 1, lastError: 'boom' });
    const id = dead?.id ?? 0;

    const listed = await asAdmin.get('/api/admin/jobs');
    expect(listed.statusCode).toBe(200);
    expect(listed.headers['cache-control']).toBe('no-store');
    const jobs = listed.json().jobs as FailedJob[];
    expect(jobs.find((j) => j.id === id)).toEqual({
      id,
      queue: MAIL_QUEUE,
      status: 'dead',
      recipient: 'bounce@example.com',
      subject: 'Your invitation to Coverly',
      attempts: 3,
      maxAttempts: 3,
      lastError: '550 5.1.1 mailbox unavailable',
      updatedAt: expect.any(String),
    });
    expect(jobs.find((j) => j.queue === 'test.other')).toMatchObject({ recipient: null, subject: null, lastError: 'boom' });
    expect(jobs.every((j) => j.status === 'dead')).toBe(true);
    expect(((await asAdmin.get('/api/admin/jobs?status=pending')).json().jobs as FailedJob[]).some((j) => j.id === id)).toBe(false);
    expect((await asAdmin.get('/api/admin/jobs?status=done')).statusCode).toBe(400);

    const before = nudges;
    const retried = await asAdmin.post(`/api/admin/jobs/${id}/retry`);
    expect(retried.statusCode).toBe(200);
    expect(retried.json()).toEqual({ id, status: 'pending' });
    expect(nudges).toBe(before + 1);
    const [row] = await api.db.select().from(job).where(eq(job.id, id));
    expect(row).toMatchObject({ status: 'pending', attempts: 0 });
    expect(((await asAdmin.get('/api/admin/jobs?status=pending')).json().jobs as FailedJob[]).some((j) => j.id === id)).toBe(true);
    expect(((await asAdmin.get('/api/admin/jobs')).json().jobs as FailedJob[]).some((j) => j.id === id)).toBe(false);

    // Only a dead job can be retried.
    expect((await asAdmin.post(`/api/admin/jobs/${id}/retry`)).statusCode).toBe(404);
    expect((await asAdmin.post('/api/admin/jobs/999999999/retry')).statusCode).toBe(404);
    expect((await asAdmin.post('/api/admin/jobs/abc/retry')).statusCode).toBe(400);
    expect((await asAdmin.post('/api/admin/jobs/1e3/retry')).statusCode).toBe(400);
  });

  it('answers a signed-in non-admin and an anonymous caller exactly like an unknown route', async () => {
    const routes = [
      ['GET', '/api/admin/waitlist?q=dana'],
      ['GET', '/api/admin/waitlist.csv'],
      ['POST', `/api/admin/waitlist/${ids['dana@keystone.test']}/invite`],
      ['GET', '/api/admin/jobs'],
      ['POST', '/api/admin/jobs/1/retry'],
    ] as const;
    const jobs = await api.db.$count(job);
    for (const [method, url] of routes) {
      const path = url.split('?')[0];
      for (const cookie of [member.cookie, '']) {
        const send = (target: string) => (method === 'GET' ? api.as(cookie).get(target) : api.as(cookie).post(target));
        const hidden = await send(url);
        const unknown = await send(`${path}-nothing-here`);
        const cell = `${method} ${url} ${cookie ? 'as member' : 'anonymously'}`;
        expect(hidden.statusCode, cell).toBe(404);
        expect(hidden.headers['content-type'], cell).toBe(unknown.headers['content-type']);
        expect(hidden.headers['cache-control'], cell).toBe(unknown.headers['cache-control']);
        expect(hidden.json(), cell).toEqual({ ...unknown.json(), detail: `No API route ${path}`, instance: path });
      }
    }
    expect(await api.db.$count(job)).toBe(jobs);
    const [dana] = await api.db
      .select()
      .from(waitlistEntry)
      .where(eq(waitlistEntry.id, ids['dana@keystone.test'] ?? ''));
    expect(dana?.status).toBe('new');
  });

  it('asks an admin without an authenticator to enrol one before the waitlist, its CSV and the audit log, then opens them', async () => {
    const { cookie: before } = await createAdmin(api, { email: 'fresh-admin@console.test', name: 'Fresh Admin', password: PASSWORD, mfa: false });
    const urls = ['/api/admin/waitlist', '/api/admin/waitlist.csv', '/api/admin/audit'];
    for (const url of urls) {
      const refused = await api.as(before).get(url);
      expect(refused.statusCode, url).toBe(401);
      expect(refused.json(), url).toMatchObject({ code: 'mfa_required', detail: 'Set up two-step verification to continue' });
      expect(refused.body, url).not.toContain('dana@keystone.test');
    }
    expect((await api.as(before).get('/api/me')).json()).toMatchObject({ platformAdmin: true, mfaEnrolled: false, mustEnrolMfa: true });

    const { cookie } = await enrolTotp(api.app, before, PASSWORD);
    expect((await api.as(cookie).get('/api/me')).json()).toMatchObject({ mfaEnrolled: true, mustEnrolMfa: false });
    const waitlist = await api.as(cookie).get('/api/admin/waitlist?q=keystone');
    expect(waitlist.statusCode).toBe(200);
    expect(emailsOf(waitlist.json() as ListWaitlistResult)).toEqual(['dana@keystone.test']);
    const csv = await api.as(cookie).get('/api/admin/waitlist.csv?q=keystone');
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain('"Dana Broker","dana@keystone.test",');
    const audit = await api.as(cookie).get('/api/admin/audit?action=mfa.enrolled');
    expect(audit.statusCode).toBe(200);
    expect((audit.json() as AuditPage).events[0]).toMatchObject({ action: 'mfa.enrolled', actorEmail: 'fresh-admin@console.test' });
  });

  it('caps the list at 1,000 rows and says so, while the CSV holds every match', async () => {
    await api.db.execute(sql`insert into waitlist_entry (full_name, email) select 'Bulk ' || g, 'bulk' || g || '@bulk.test' from generate_series(1, 1001) g`);
    const result = await list('?q=bulk.test');
    expect(result.entries).toHaveLength(1000);
    expect(result.total).toBe(1001);
    expect(result.truncated).toBe(true);
    const csv = await asAdmin.get('/api/admin/waitlist.csv?q=bulk.test');
    expect(csv.body.split('\r\n').filter(Boolean)).toHaveLength(1002);
  });
});
