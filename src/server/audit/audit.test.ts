import { desc, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AuditAction, AuditEvent, AuditPage } from '../../shared/schemas/audit';
import { auditEvent, job } from '../db/schema';
import { MAIL_QUEUE } from '../platform/mail/mail-jobs';
import type { MailMessage } from '../platform/mail/mailer';
import { setupApi, type Who } from '../../test/api';
import { backends } from '../../test/databases';
import { quickSignInPolicy } from '../../test/config';
import { createAccount, createBroker, sampleLoan, type Person } from '../../test/factories';
import { cookieFrom } from '../../test/http';
import { tinyPng } from '../../test/fixtures/images';
import { createPeople, invitationTokenFor, PEOPLE_PASSWORD, type People } from '../../test/people';
import { freshTotpCode, totpCode } from '../../test/totp';

/** A six-digit code that is not the authenticator's for the previous, current or next 30 s window. */
function wrongCode(secret: string): string {
  const valid = new Set([-1, 0, 1].map((step) => totpCode(secret, Date.now() + step * 30_000)));
  for (let n = 0; ; n++) {
    const candidate = String(n).padStart(6, '0');
    if (!valid.has(candidate)) return candidate;
  }
}

/** The message of an error and of every error that caused it (drizzle wraps the driver's error). */
const messagesOf = (error: unknown): string => (error instanceof Error ? `${error.message}\n${messagesOf(error.cause)}` : '');

describe.each(backends)('the audit log on %s', (backend) => {
  const api = setupApi(backend, { signInPolicy: quickSignInPolicy });
  // The team members join through the real invitations, whose acceptance the team's log records.
  let people: People;
  /** A broker with an authenticator, in no team yet. */
  let founder: Person;

  beforeAll(async () => {
    people = await createPeople(api.app, api.db, api.config, 'au');
    await createAccount(api, { email: 'loner@audit.test', name: 'Lee Loner' });
    await createAccount(api, { email: 'enroller@audit.test', name: 'Eve Enroller' });
    founder = await createBroker(api, { email: 'founder@audit.test', name: 'Fay Founder' });
  }, 60_000);

  /** Each request comes from its own address and browser, so the log can be checked for both. */
  let clients = 0;
  const client = () => {
    clients += 1;
    return { remoteAddress: `198.51.100.${clients}`, userAgent: `AuditTest/${clients} (Macintosh)` };
  };
  type Client = ReturnType<typeof client>;
  /** Requests from that client's address and browser, as `who`. */
  const via = (from: Client, who?: Who) => api.as(who, { remoteAddress: from.remoteAddress, headers: { 'user-agent': from.userAgent } });

  const auditPage = async (url: string, cookie: string) => {
    const response = await api.as(cookie).get(url);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    return response.json() as AuditPage;
  };
  /** The newest event of this kind, as a platform admin reads it. */
  const newest = async (action: AuditAction) => {
    const [event] = (await auditPage(`/api/admin/audit?action=${action}`, people.admin.cookie)).events;
    expect(event, action).toBeDefined();
    return event as AuditEvent;
  };
  const expectRecent = (event: AuditEvent, since: number) => {
    const at = Date.parse(event.at);
    expect(at).toBeGreaterThanOrEqual(since - 1_000);
    expect(at).toBeLessThanOrEqual(Date.now() + 1_000);
  };

  it('records password sign-ins and failed ones: who, what, when and from where', async () => {
    const since = Date.now();
    const from = client();
    const signedIn = await via(from).post('/api/auth/sign-in/email', { email: 'loner@audit.test', password: PEOPLE_PASSWORD });
    expect(signedIn.statusCode).toBe(200);
    const succeeded = await newest('sign_in.succeeded');
    expect(succeeded).toEqual({
      id: expect.any(Number),
      at: expect.any(String),
      action: 'sign_in.succeeded',
      actorEmail: 'loner@audit.test',
      subjectEmail: null,
      teamId: null,
      ip: from.remoteAddress,
      userAgent: from.userAgent,
      data: { method: 'password' },
    });
    expectRecent(succeeded, since);

    const wrongFrom = client();
    expect((await via(wrongFrom).post('/api/auth/sign-in/email', { email: 'Loner@Audit.test', password: 'not the password at all' })).statusCode).toBe(401);
    const failed = await newest('sign_in.failed');
    expect(failed).toMatchObject({
      actorEmail: null,
      subjectEmail: 'loner@audit.test',
      teamId: null,
      ip: wrongFrom.remoteAddress,
      userAgent: wrongFrom.userAgent,
      data: { reason: 'wrong e-mail or password' },
    });
    expectRecent(failed, since);

    // An address with no account is recorded as typed.
    expect((await via(client()).post('/api/auth/sign-in/email', { email: 'nobody@audit.test', password: 'not the password at all' })).statusCode).toBe(401);
    expect(await newest('sign_in.failed')).toMatchObject({ subjectEmail: 'nobody@audit.test', teamId: null });

    // A team member's failed sign-in lands in their team's log.
    expect((await via(client()).post('/api/auth/sign-in/email', { email: people.assistantA.email, password: 'not the password at all' })).statusCode).toBe(401);
    expect(await newest('sign_in.failed')).toMatchObject({ subjectEmail: people.assistantA.email, teamId: people.teamA });
  });

  it('records a sign-in completed with an authenticator code, and a wrong code', async () => {
    const from = client();
    const first = await via(from).post('/api/auth/sign-in/email', { email: people.ownerA.email, password: PEOPLE_PASSWORD });
    expect(first.json()).toMatchObject({ twoFactorRedirect: true });
    // The password alone is not a sign-in yet.
    const before = await newest('sign_in.succeeded');
    expect(before.actorEmail).not.toBe(people.ownerA.email);

    const wrong = await via(from, cookieFrom(first)).post('/api/auth/two-factor/verify-totp', { code: wrongCode(people.ownerA.secret ?? '') });
    expect(wrong.statusCode).toBe(401);
    // Whose password was right but code wrong: the team's owners see it.
    expect(await newest('sign_in.failed')).toMatchObject({
      actorEmail: null,
      subjectEmail: people.ownerA.email,
      teamId: people.teamA,
      ip: from.remoteAddress,
      userAgent: from.userAgent,
      data: { reason: 'right password, wrong authenticator code' },
    });

    // A code sent with no challenge at all is no sign-in attempt, and leaves no row behind.
    const rowsBefore = (await api.db.select().from(auditEvent)).length;
    const stray = await via(client()).post('/api/auth/two-factor/verify-totp', { code: '000000' });
    expect(stray.statusCode).toBe(401);
    // Nor is one with a forged challenge cookie.
    const forged = await via(client(), `coverly.two_factor=${encodeURIComponent(`2fa-forged.${'A'.repeat(43)}=`)}`).post('/api/auth/two-factor/verify-totp', {
      code: '000000',
    });
    expect(forged.statusCode).toBe(401);
    expect((await api.db.select().from(auditEvent)).length).toBe(rowsBefore);

    const right = await via(from, cookieFrom(first)).post('/api/auth/two-factor/verify-totp', { code: await freshTotpCode(people.ownerA.secret ?? '') });
    expect(right.statusCode, right.body).toBe(200);
    expect(await newest('sign_in.succeeded')).toMatchObject({
      actorEmail: people.ownerA.email,
      teamId: people.teamA,
      ip: from.remoteAddress,
      userAgent: from.userAgent,
      data: { method: 'password and authenticator code' },
    });
  });

  it('records enrolment, new backup codes and turning two-step verification off', async () => {
    const from = client();
    const cookie = cookieFrom(await via(from).post('/api/auth/sign-in/email', { email: 'enroller@audit.test', password: PEOPLE_PASSWORD }));
    const enabled = await via(from, cookie).post('/api/auth/two-factor/enable', { password: PEOPLE_PASSWORD });
    const secret = new URL((enabled.json() as { totpURI: string }).totpURI).searchParams.get('secret') ?? '';
    const failuresBefore = (await newest('sign_in.failed')).id;
    // A wrong code while enrolling is no failed sign-in: the person is signed in already.
    expect((await via(from, cookie).post('/api/auth/two-factor/verify-totp', { code: wrongCode(secret) })).statusCode).toBe(401);
    expect((await newest('sign_in.failed')).id).toBe(failuresBefore);

    const verified = await via(from, cookie).post('/api/auth/two-factor/verify-totp', { code: await freshTotpCode(secret) });
    expect(verified.statusCode).toBe(200);
    expect(await newest('mfa.enrolled')).toMatchObject({
      actorEmail: 'enroller@audit.test',
      subjectEmail: null,
      teamId: null,
      ip: from.remoteAddress,
      userAgent: from.userAgent,
      data: {},
    });
    const session = cookieFrom(verified);

    const other = client();
    const refused = await via(other, session).post('/api/auth/two-factor/generate-backup-codes', { password: 'not the password at all' });
    expect(refused.statusCode).toBe(400);
    const regenerated = await via(other, session).post('/api/auth/two-factor/generate-backup-codes', { password: PEOPLE_PASSWORD });
    expect(regenerated.statusCode, regenerated.body).toBe(200);
    expect((regenerated.json() as { backupCodes: string[] }).backupCodes).toHaveLength(10);
    const [event, previous] = (await auditPage('/api/admin/audit?action=mfa.backup_codes_regenerated', people.admin.cookie)).events;
    expect(event).toMatchObject({ actorEmail: 'enroller@audit.test', ip: other.remoteAddress, userAgent: other.userAgent });
    // The refused attempt left no row.
    expect(previous).toBeUndefined();

    const disabled = await via(other, session).post('/api/auth/two-factor/disable', { password: PEOPLE_PASSWORD });
    expect(disabled.statusCode, disabled.body).toBe(200);
    expect(await newest('mfa.disabled')).toMatchObject({ actorEmail: 'enroller@audit.test', ip: other.remoteAddress });
  });

  it('records a team’s life: founding, branding, invitations, roles and removal', async () => {
    const from = client();
    const cookie = founder.cookie;

    const created = await via(from, cookie).post('/api/teams', { name: 'Founders Lending' });
    expect(created.statusCode).toBe(201);
    const teamId = (created.json() as { id: string }).id;
    expect(await newest('team.created')).toMatchObject({
      actorEmail: 'founder@audit.test',
      teamId,
      ip: from.remoteAddress,
      userAgent: from.userAgent,
      data: { name: 'Founders Lending' },
    });

    expect((await via(from, cookie).patch(`/api/teams/${teamId}`, { name: 'Founders Capital', accentColor: '#0F766E' })).statusCode).toBe(200);
    expect(await newest('team.branding_updated')).toMatchObject({
      actorEmail: 'founder@audit.test',
      teamId,
      data: { name: 'Founders Capital', accentColor: '#0f766e' },
    });
    const png = tinyPng();
    expect((await via(from, cookie).put(`/api/teams/${teamId}/logo`, png, { headers: { 'content-type': 'image/png' } })).statusCode).toBe(200);
    expect((await newest('team.branding_updated')).data).toEqual({ logo: `image/png, ${png.length} bytes` });
    expect((await via(from, cookie).delete(`/api/teams/${teamId}/logo`)).statusCode).toBe(200);
    expect((await newest('team.branding_updated')).data).toEqual({ logo: 'removed' });

    expect((await via(from, cookie).post(`/api/teams/${teamId}/invitations`, { email: 'Helper@Audit.test' })).statusCode).toBe(201);
    expect(await newest('invitation.sent')).toMatchObject({
      actorEmail: 'founder@audit.test',
      subjectEmail: 'Helper@Audit.test',
      teamId,
      ip: from.remoteAddress,
      data: { role: 'assistant' },
    });
    // Inviting the same address again withdraws the first link, and says so.
    expect((await via(from, cookie).post(`/api/teams/${teamId}/invitations`, { email: 'helper@audit.test' })).statusCode).toBe(201);
    expect(await newest('invitation.revoked')).toMatchObject({
      actorEmail: 'founder@audit.test',
      subjectEmail: 'Helper@Audit.test',
      teamId,
      data: { reason: 'sent again' },
    });

    const dropped = await via(from, cookie).post(`/api/teams/${teamId}/invitations`, { email: 'dropped@audit.test' });
    const revokeFrom = client();
    expect((await via(revokeFrom, cookie).delete(`/api/teams/${teamId}/invitations/${(dropped.json() as { id: string }).id}`)).statusCode).toBe(204);
    expect(await newest('invitation.revoked')).toMatchObject({
      actorEmail: 'founder@audit.test',
      subjectEmail: 'dropped@audit.test',
      teamId,
      ip: revokeFrom.remoteAddress,
      userAgent: revokeFrom.userAgent,
    });

    const acceptFrom = client();
    const token = await invitationTokenFor(api.db, 'helper@audit.test');
    const accepted = await via(acceptFrom).post('/api/invitations/accept', { token, name: 'Hal Helper', password: PEOPLE_PASSWORD });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(await newest('invitation.accepted')).toMatchObject({
      actorEmail: 'helper@audit.test',
      teamId,
      ip: acceptFrom.remoteAddress,
      userAgent: acceptFrom.userAgent,
      data: { role: 'assistant', newAccount: true },
    });
    const helperId = ((await api.as(cookieFrom(accepted)).get('/api/me')).json() as { user: { id: string } }).user.id;

    expect((await via(from, cookie).patch(`/api/teams/${teamId}/members/${helperId}`, { role: 'owner' })).statusCode).toBe(204);
    expect(await newest('member.role_changed')).toMatchObject({
      actorEmail: 'founder@audit.test',
      subjectEmail: 'helper@audit.test',
      teamId,
      ip: from.remoteAddress,
      data: { from: 'assistant', to: 'owner' },
    });
    expect((await via(from, cookie).patch(`/api/teams/${teamId}/members/${helperId}`, { role: 'assistant' })).statusCode).toBe(204);
    expect((await newest('member.role_changed')).data).toEqual({ from: 'owner', to: 'assistant' });
    // Setting the role a member already has changes nothing and records nothing.
    const lastChange = (await newest('member.role_changed')).id;
    expect((await via(from, cookie).patch(`/api/teams/${teamId}/members/${helperId}`, { role: 'assistant' })).statusCode).toBe(204);
    expect((await newest('member.role_changed')).id).toBe(lastChange);

    const removeFrom = client();
    expect((await via(removeFrom, cookie).delete(`/api/teams/${teamId}/members/${helperId}`)).statusCode).toBe(204);
    expect(await newest('member.removed')).toMatchObject({
      actorEmail: 'founder@audit.test',
      subjectEmail: 'helper@audit.test',
      teamId,
      ip: removeFrom.remoteAddress,
      userAgent: removeFrom.userAgent,
      data: { role: 'assistant' },
    });

    // Founders Capital's owner reads all of it in the team's log, newest first.
    const log = await auditPage(`/api/teams/${teamId}/audit`, cookie);
    expect(log.events.map((e) => e.action)).toEqual([
      'member.removed',
      'member.role_changed',
      'member.role_changed',
      'invitation.accepted',
      'invitation.revoked',
      'invitation.sent',
      'invitation.sent',
      'invitation.revoked',
      'invitation.sent',
      'team.branding_updated',
      'team.branding_updated',
      'team.branding_updated',
      'team.created',
    ]);
    expect(log.nextBefore).toBeNull();
  });

  it('records a password reset made with the e-mailed link', async () => {
    const requested = await via(client()).post('/api/auth/request-password-reset', { email: 'loner@audit.test' });
    expect(requested.statusCode).toBe(200);
    await api.app.auth.backgroundTasks.settled();
    const [mail] = (await api.db.select({ payload: job.payload }).from(job).where(eq(job.queue, MAIL_QUEUE)).orderBy(desc(job.id)))
      .map((row) => row.payload as MailMessage)
      .filter((m) => m.to === 'loner@audit.test');
    const token = /\/reset-password#([A-Za-z0-9_-]+)/.exec(mail?.text ?? '')?.[1] ?? '';
    expect(token).not.toBe('');

    const from = client();
    const reset = await via(from).post('/api/auth/reset-password', { token, newPassword: 'a quiet new passphrase' });
    expect(reset.statusCode, reset.body).toBe(200);
    expect(await newest('password.reset')).toMatchObject({
      actorEmail: 'loner@audit.test',
      subjectEmail: null,
      teamId: null,
      ip: from.remoteAddress,
      userAgent: from.userAgent,
      data: {},
    });

    // A refused reset (the token is spent) records nothing.
    const resets = (await auditPage('/api/admin/audit?action=password.reset', people.admin.cookie)).events.length;
    expect((await via(client()).post('/api/auth/reset-password', { token, newPassword: 'another new passphrase' })).statusCode).toBe(400);
    expect((await auditPage('/api/admin/audit?action=password.reset', people.admin.cookie)).events).toHaveLength(resets);
  });

  it('shows owners their own team’s events only, and admins everything', async () => {
    const teamALog = await auditPage(`/api/teams/${people.teamA}/audit`, people.ownerA.cookie);
    expect(teamALog.events.length).toBeGreaterThan(0);
    expect(teamALog.events.every((e) => e.teamId === people.teamA)).toBe(true);
    expect(teamALog.events.some((e) => e.action === 'team.created')).toBe(true);
    expect(teamALog.events.some((e) => e.action === 'invitation.accepted' && e.actorEmail === people.assistantA.email)).toBe(true);

    const teamBLog = await auditPage(`/api/teams/${people.teamB}/audit`, people.ownerB.cookie);
    expect(teamBLog.events.length).toBeGreaterThan(0);
    expect(teamBLog.events.every((e) => e.teamId === people.teamB)).toBe(true);
    const teamAIds = new Set(teamALog.events.map((e) => e.id));
    expect(teamBLog.events.some((e) => teamAIds.has(e.id))).toBe(false);
    // Nor do platform-only rows (no team) reach a team's log.
    expect(JSON.stringify(teamBLog)).not.toContain('loner@audit.test');

    const platform = await auditPage('/api/admin/audit', people.admin.cookie);
    const teams = new Set(platform.events.map((e) => e.teamId));
    expect(teams.has(people.teamA)).toBe(true);
    expect(teams.has(null)).toBe(true);

    // Everyone else meets exactly what an unknown route answers.
    const hidden = async (url: string, cookie: string) => {
      const response = await api.as(cookie).get(url);
      const unknown = await api.as(cookie).get(`${url}-nothing-here`);
      expect(response.statusCode, url).toBe(404);
      expect(response.json(), url).toEqual({ ...unknown.json(), detail: `No API route ${url}`, instance: url });
    };
    await hidden(`/api/teams/${people.teamA}/audit`, people.assistantA.cookie);
    await hidden(`/api/teams/${people.teamA}/audit`, people.newAssistantA.cookie);
    await hidden(`/api/teams/${people.teamA}/audit`, people.ownerB.cookie);
    await hidden(`/api/teams/${people.teamA}/audit`, people.admin.cookie);
    for (const who of ['ownerA', 'ownerB', 'assistantA', 'borrower'] as const) await hidden('/api/admin/audit', people[who].cookie);
    await hidden('/api/admin/audit', '');
    expect((await api.as().get(`/api/teams/${people.teamA}/audit`)).statusCode).toBe(401);
  });

  it('keeps loan contents out of the platform log: admins see that a loan or participant event happened (action, team, time), the team’s owner sees it all', async () => {
    const owner = via(client(), people.ownerA.cookie);
    const created = await owner.post(`/api/teams/${people.teamA}/loans`, {
      ...sampleLoan(),
      borrowerName: 'Quinn Privateperson',
      borrowerEmail: 'quinn@private-borrower.test',
      propertyStreet: '77 Hidden Lane',
    });
    expect(created.statusCode, created.body).toBe(201);
    const loanId = created.json<{ id: string }>().id;
    for (const email of ['quinn@private-borrower.test', 'quinn@private-borrower.test', 'cosigner@private-borrower.test']) {
      const invited = await owner.post(`/api/loans/${loanId}/invitations`, { email, role: 'borrower' });
      expect(invited.statusCode, invited.body).toBe(201);
    }
    const token = await invitationTokenFor(api.db, 'quinn@private-borrower.test');
    const accepted = await api.as().post('/api/invitations/accept', { token, name: 'Quinn Privateperson', password: PEOPLE_PASSWORD });
    expect(accepted.statusCode, accepted.body).toBe(200);
    const quinn = (await api.as(cookieFrom(accepted)).get('/api/me')).json<{ user: { id: string } }>().user.id;
    expect((await owner.delete(`/api/loans/${loanId}/participants/${quinn}`)).statusCode).toBe(204);
    expect((await owner.delete(`/api/loans/${loanId}`, { confirmAddress: '77 Hidden Lane' })).statusCode).toBe(204);

    const secrets = ['Quinn', 'quinn@private-borrower.test', 'cosigner@private-borrower.test', '77 Hidden Lane', loanId, quinn];
    const loanActions: AuditAction[] = [
      'loan.created',
      'loan.deleted',
      'participant.invited',
      'participant.removed',
      'invitation.revoked',
      'invitation.accepted',
    ];
    const platformText = JSON.stringify(await auditPage('/api/admin/audit', people.admin.cookie));
    for (const secret of secrets) expect(platformText, secret).not.toContain(secret);
    for (const action of loanActions) {
      const page = await auditPage(`/api/admin/audit?action=${action}`, people.admin.cookie);
      // Invitations and acceptances of assistants stay whole: only those of the loan are reduced.
      const mine = page.events.filter((e) => e.teamId === people.teamA && (!action.startsWith('invitation.') || e.actorEmail === null));
      expect(mine.length, action).toBeGreaterThan(0);
      for (const event of mine) {
        expect(event, action).toEqual({
          id: expect.any(Number),
          at: expect.any(String),
          action,
          teamId: people.teamA,
          actorEmail: null,
          subjectEmail: null,
          ip: null,
          userAgent: null,
          data: {},
        });
      }
      for (const secret of secrets) expect(JSON.stringify(page), `${action}: ${secret}`).not.toContain(secret);
    }
    // The team's own log keeps the whole record for its owner.
    const teamText = JSON.stringify(await auditPage(`/api/teams/${people.teamA}/audit`, people.ownerA.cookie));
    for (const secret of secrets.slice(0, 5)) expect(teamText, secret).toContain(secret);
    // Account events that are not about a loan still show in full to admins.
    expect((await newest('invitation.sent'))?.subjectEmail).toBeTruthy();
  });

  it('pages newest first with before/nextBefore, filters by action, and refuses a bad query', async () => {
    const colours = ['#112233', '#445566'];
    for (let i = 0; i < 55; i++) {
      const response = await api.as(people.ownerA).patch(`/api/teams/${people.teamA}`, { accentColor: colours[i % 2] });
      expect(response.statusCode).toBe(200);
    }
    const stored = (await api.db.select({ id: auditEvent.id }).from(auditEvent).where(eq(auditEvent.teamId, people.teamA)).orderBy(desc(auditEvent.id))).map(
      (r) => r.id,
    );
    expect(stored.length).toBeGreaterThan(55);

    const seen: number[] = [];
    let pagesRead = 0;
    let url = `/api/teams/${people.teamA}/audit`;
    for (let pages = 0; pages < 10; pages++) {
      const page = await auditPage(url, people.ownerA.cookie);
      pagesRead += 1;
      expect(page.events.length).toBeLessThanOrEqual(50);
      seen.push(...page.events.map((e) => e.id));
      if (page.nextBefore === null) break;
      expect(page.events).toHaveLength(50);
      expect(page.nextBefore).toBe(page.events.at(-1)?.id);
      url = `/api/teams/${people.teamA}/audit?before=${page.nextBefore}`;
    }
    // Every row once, newest first, with no gap at the page edges.
    expect(pagesRead).toBe(Math.ceil(stored.length / 50));
    expect(seen).toEqual(stored);

    const branding = await auditPage(`/api/teams/${people.teamA}/audit?action=team.branding_updated`, people.ownerA.cookie);
    expect(branding.events).toHaveLength(50);
    expect(branding.events.every((e) => e.action === 'team.branding_updated')).toBe(true);
    const rest = await auditPage(`/api/teams/${people.teamA}/audit?action=team.branding_updated&before=${branding.nextBefore}`, people.ownerA.cookie);
    expect(rest.events.length).toBeGreaterThanOrEqual(5);
    expect(rest.events.every((e) => e.action === 'team.branding_updated' && e.id < (branding.nextBefore ?? 0))).toBe(true);
    expect(rest.nextBefore).toBeNull();
    expect((await auditPage(`/api/teams/${people.teamA}/audit?action=mfa.disabled`, people.ownerA.cookie)).events).toEqual([]);

    for (const [query, field] of [
      ['before=abc', 'before'],
      ['before=0', 'before'],
      ['before=-5', 'before'],
      ['before=1.5', 'before'],
      ['action=waitlist.joined', 'action'],
      ['teamId=x', 'teamId'],
    ] as const) {
      for (const url of [`/api/teams/${people.teamA}/audit?${query}`, `/api/admin/audit?${query}`]) {
        const cookie = url.startsWith('/api/admin') ? people.admin.cookie : people.ownerA.cookie;
        const response = await api.as(cookie).get(url);
        expect(response.statusCode, url).toBe(400);
        expect(
          response.json().errors.map((e: { field: string }) => e.field),
          url,
        ).toEqual([field]);
      }
    }
  });

  it('is append-only: the database refuses UPDATE, DELETE and TRUNCATE', async () => {
    const count = await api.db.$count(auditEvent);
    const [last] = await api.db.select().from(auditEvent).orderBy(desc(auditEvent.id)).limit(1);
    for (const statement of [
      sql`update audit_event set action = 'tampered', actor_email = 'someone-else@audit.test'`,
      sql`update audit_event set ip = null where id = ${last?.id ?? 0}`,
      sql`delete from audit_event`,
      sql`delete from audit_event where id = ${last?.id ?? 0}`,
      sql`truncate audit_event`,
    ]) {
      const refused = await api.db.execute(statement).then(
        () => 'accepted',
        (error: unknown) => messagesOf(error),
      );
      expect(refused).toMatch(/audit_event is append-only \((UPDATE|DELETE|TRUNCATE) refused\)/);
    }
    expect(await api.db.$count(auditEvent)).toBe(count);
    const [after] = await api.db
      .select()
      .from(auditEvent)
      .where(eq(auditEvent.id, last?.id ?? 0));
    expect(after).toEqual(last);
    // Appending still works.
    await api.db.insert(auditEvent).values({ action: 'sign_in.failed', data: { reason: 'test' } });
    expect(await api.db.$count(auditEvent)).toBe(count + 1);
  });
});
