import { createHash } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ActivityPage, LoanDetail } from '../../shared/schemas/loans';
import type { Me } from '../../shared/schemas/me';
import { LOGO_MAX_BYTES, type TeamMembers, type TeamView } from '../../shared/schemas/teams';
import { buildApp } from '../app';
import { auditEvent, invitation, job, team } from '../db/schema';
import { claimInvitation } from '../accounts/accounts.queries';
import { MAIL_QUEUE } from '../platform/mail/mail-jobs';
import type { MailMessage } from '../platform/mail/mailer';
import { setupApi, type Caller, type Who } from '../../test/api';
import { backends } from '../../test/databases';
import { addAssistant, createAccount, createBroker, createCast, createLoan, createTeamWithOwner, enrolAuthenticator, sampleLoan } from '../../test/factories';
import { gifBytes, jpegBytes, pngOfSize, svgBytes, tinyPng, webpBytes } from '../../test/fixtures/images';
import { cookieFrom } from '../../test/http';
import { enrolTotp, invitationTokenFor, PEOPLE_PASSWORD, type People } from '../../test/people';
import { freshTotpCode } from '../../test/totp';

const LAST_OWNER = 'A team needs at least one owner: make someone else an owner first';
const NO_SUCH_USER = 'no-such-user';
const NO_SUCH_UUID = '5b0e2a8c-8f5d-4a9e-9a57-3f6f1c1b2d3e';

/** The version in a logo's URL: the first 16 hex digits of its bytes' SHA-256. */
const versionOf = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex').slice(0, 16);

describe.each(backends)('teams and their members on %s', (backend) => {
  const api = setupApi(backend);
  let people: People;
  /** Members who join during the tests. */
  const joined: Record<string, { userId: string; email: string; cookie: string; secret?: string }> = {};

  beforeAll(async () => {
    people = await createCast(api, 'tm');
  });

  const putLogo = (who: Who, teamId: string, bytes: Buffer, contentType = 'image/png') =>
    api.as(who).put(`/api/teams/${teamId}/logo`, bytes, { headers: { 'content-type': contentType } });
  const teamOf = async (cookie: string, teamId: string) => {
    const response = await api.as(cookie).get(`/api/teams/${teamId}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as TeamView;
  };
  const meOf = async (cookie: string) => (await api.as(cookie).get('/api/me')).json() as Me;
  const membersOf = async (cookie: string, teamId: string) => {
    const response = await api.as(cookie).get(`/api/teams/${teamId}/members`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as TeamMembers;
  };
  const mailsTo = async (email: string) =>
    (await api.db.select({ payload: job.payload }).from(job).where(eq(job.queue, MAIL_QUEUE)).orderBy(job.id))
      .map((row) => row.payload as MailMessage)
      .filter((mail) => mail.to.toLowerCase() === email.toLowerCase());
  const invite = async (cookie: string, teamId: string, email: string) => {
    const response = await api.as(cookie).post(`/api/teams/${teamId}/invitations`, { email });
    expect(response.statusCode, response.body).toBe(201);
    return { ...(response.json() as { id: string; email: string }), token: await invitationTokenFor(api.db, email) };
  };
  const accept = (payload: { token: string; name?: string; password?: string }) =>
    api.as().post('/api/invitations/accept', { password: PEOPLE_PASSWORD, ...payload });
  const lookup = (token: string) => api.as().post('/api/invitations/lookup', { token });

  /** Answered exactly like a route that does not exist. */
  const expectHidden = async (response: LightMyRequestResponse, label: string) => {
    const path = new URL(response.raw.req.url ?? '', 'http://x').pathname;
    const unknown = await api.as().get('/api/__no_such_route__');
    expect(response.statusCode, label).toBe(404);
    expect(response.headers['content-type'], label).toBe(unknown.headers['content-type']);
    expect(response.json(), label).toEqual({ ...unknown.json(), detail: `No API route ${path}`, instance: path });
  };

  describe('founding', () => {
    it('asks a broker to enrol an authenticator first, then makes them the owner of one team', async () => {
      const { userId, cookie } = await createBroker(api, { email: 'founder@teams.test', name: 'Fran Founder', mfa: false });
      const teamsBefore = await api.db.$count(team);

      const early = await api.as(cookie).post('/api/teams', { name: 'Founders Capital' });
      expect(early.statusCode).toBe(401);
      expect(early.json()).toMatchObject({ code: 'mfa_required' });
      expect(await api.db.$count(team)).toBe(teamsBefore);

      const enrolled = await enrolTotp(api.app, cookie);
      const blank = await api.as(enrolled).post('/api/teams', { name: '   ' });
      expect(blank.statusCode).toBe(400);
      expect(blank.json().errors).toEqual([{ field: 'name', message: 'Team name is required' }]);
      const extra = await api.as(enrolled).post('/api/teams', { name: 'Founders Capital', ownerId: people.ownerB.userId });
      expect(extra.statusCode).toBe(400);
      expect(extra.json().errors).toEqual([{ field: 'ownerId', message: 'Unknown field' }]);

      const created = await api.as(enrolled).post('/api/teams', { name: ' Founders Capital ' });
      expect(created.statusCode, created.body).toBe(201);
      const view = created.json() as TeamView;
      expect(view).toEqual({
        id: expect.any(String),
        name: 'Founders Capital',
        accentColor: '#1d4ed8',
        logoUrl: null,
        role: 'owner',
        dscrThresholds: { strong: 1.25, eligible: 1 },
        timeZone: 'America/New_York',
      });
      expect((await meOf(enrolled.cookie)).team).toEqual(view);
      expect((await membersOf(enrolled.cookie, view.id)).members).toEqual([
        { userId, name: 'Fran Founder', email: 'founder@teams.test', role: 'owner', mfaEnrolled: true, joinedAt: expect.any(String) },
      ]);

      const second = await api.as(enrolled).post('/api/teams', { name: 'Another One' });
      expect(second.statusCode).toBe(409);
      expect(second.json().detail).toBe('You already belong to Founders Capital');
      expect(await api.db.$count(team)).toBe(teamsBefore + 1);
    });

    it('founds one team when two tabs ask at the same moment: the other gets 409, never a 500', async () => {
      const { cookie } = await createBroker(api, { email: 'twotabs@teams.test', name: 'Tab Twice' });
      const answers = await Promise.all([1, 2, 3].map((n) => api.as(cookie).post('/api/teams', { name: `Tab ${n}` })));
      expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409, 409]);
    });

    it('hides founding from everyone who is not a broker', async () => {
      await expectHidden(await api.as(people.borrower).post('/api/teams', { name: 'Sneaky' }), 'borrower');
      await expectHidden(await api.as(people.assistantA).post('/api/teams', { name: 'Sneaky' }), 'assistant');
      await expectHidden(await api.as(people.admin).post('/api/teams', { name: 'Sneaky' }), 'admin');
      expect((await api.as().post('/api/teams', { name: 'Sneaky' })).statusCode).toBe(401);
      // A broker who already owns a team cannot found a second one.
      expect((await api.as(people.ownerA).post('/api/teams', { name: 'Sneaky' })).statusCode).toBe(409);
    });
  });

  describe('branding', () => {
    it('renames the team and sets its accent colour, lower-cased', async () => {
      const updated = await api.as(people.ownerA).patch(`/api/teams/${people.teamA}`, { name: '  Harbor Lending ', accentColor: '#0F766E' });
      expect(updated.statusCode, updated.body).toBe(200);
      expect(updated.json()).toEqual({
        id: people.teamA,
        name: 'Harbor Lending',
        accentColor: '#0f766e',
        logoUrl: null,
        role: 'owner',
        dscrThresholds: { strong: 1.25, eligible: 1 },
        timeZone: 'America/New_York',
      });
      // Every member sees it at once, in their own role.
      expect(await teamOf(people.assistantA.cookie, people.teamA)).toEqual({
        id: people.teamA,
        name: 'Harbor Lending',
        accentColor: '#0f766e',
        logoUrl: null,
        role: 'assistant',
        dscrThresholds: { strong: 1.25, eligible: 1 },
        timeZone: 'America/New_York',
      });
      // One field at a time works too.
      expect((await api.as(people.ownerA).patch(`/api/teams/${people.teamA}`, { accentColor: '#0e7490' })).json()).toMatchObject({
        name: 'Harbor Lending',
        accentColor: '#0e7490',
      });
      expect((await api.as(people.ownerA).patch(`/api/teams/${people.teamA}`, { accentColor: '#0f766e' })).statusCode).toBe(200);
    });

    it('refuses a bad colour, a bad name, an unknown field or nothing to change, and changes nothing', async () => {
      for (const accentColor of ['teal', '#fff', '#12345g', '#0f766e; background:url(x)', 'rgb(0,0,0)', 42]) {
        const response = await api.as(people.ownerA).patch(`/api/teams/${people.teamA}`, { accentColor });
        expect(response.statusCode, String(accentColor)).toBe(400);
        expect(
          response.json().errors.map((e: { field: string }) => e.field),
          String(accentColor),
        ).toEqual(['accentColor']);
      }
      const long = await api.as(people.ownerA).patch(`/api/teams/${people.teamA}`, { name: 'x'.repeat(81) });
      expect(long.json().errors).toEqual([{ field: 'name', message: 'Team name must be at most 80 characters' }]);
      const empty = await api.as(people.ownerA).patch(`/api/teams/${people.teamA}`, {});
      expect(empty.statusCode).toBe(400);
      expect(empty.json().errors).toEqual([{ field: '(body)', message: 'Send a name, an accent colour, DSCR thresholds or a time zone' }]);
      const unknown = await api.as(people.ownerA).patch(`/api/teams/${people.teamA}`, { logoUrl: 'https://evil.example/x.png' });
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json().errors).toContainEqual({ field: 'logoUrl', message: 'Unknown field' });
      expect(await teamOf(people.ownerA.cookie, people.teamA)).toMatchObject({ name: 'Harbor Lending', accentColor: '#0f766e', logoUrl: null });
    });

    it('lets the owner set the DSCR bands, one or both, checked like the loan thresholds; loans are judged against them', async () => {
      const patch = (body: Record<string, unknown>, who = people.ownerA) => api.as(who).patch(`/api/teams/${people.teamA}`, body);
      const both = await patch({ dscrStrong: 1.3, dscrEligible: 1.05 });
      expect(both.statusCode, both.body).toBe(200);
      expect(both.json().dscrThresholds).toEqual({ strong: 1.3, eligible: 1.05 });
      expect((await teamOf(people.assistantA.cookie, people.teamA)).dscrThresholds).toEqual({ strong: 1.3, eligible: 1.05 });
      expect((await meOf(people.assistantA.cookie)).team?.dscrThresholds).toEqual({ strong: 1.3, eligible: 1.05 });

      // One alone is checked against the stored other.
      const above = await patch({ dscrEligible: 1.4 });
      expect(above.statusCode).toBe(400);
      expect(above.json().errors).toEqual([{ field: 'dscrEligible', message: 'Eligible can’t be above Strong (1.30)' }]);
      const crossed = await patch({ dscrStrong: 1.1, dscrEligible: 1.2 });
      expect(crossed.json().errors).toEqual([{ field: 'dscrEligible', message: 'Eligible can’t be above Strong' }]);
      for (const [body, field, message] of [
        [{ dscrStrong: 3.5 }, 'dscrStrong', 'Strong threshold must be at most 3.00'],
        [{ dscrEligible: 0.2 }, 'dscrEligible', 'Eligible threshold must be at least 0.50'],
        [{ dscrStrong: 1.255 }, 'dscrStrong', 'Strong threshold takes at most 2 decimals'],
        [{ dscrStrong: '1.25' }, 'dscrStrong', 'Strong threshold must be a number'],
      ] as const) {
        const response = await patch(body);
        expect(response.statusCode, JSON.stringify(body)).toBe(400);
        expect(response.json().errors, JSON.stringify(body)).toEqual([{ field, message }]);
      }
      // Assistants may not.
      expect((await patch({ dscrStrong: 2 }, people.assistantA)).statusCode).toBe(404);

      const lowered = await patch({ dscrStrong: 1.2 });
      expect(lowered.json().dscrThresholds).toEqual({ strong: 1.2, eligible: 1.05 });
      const audit = await api.as(people.ownerA).get(`/api/teams/${people.teamA}/audit`);
      expect(JSON.stringify(audit.json())).toContain('"dscrStrong":1.2');

      // A loan of the team is judged against the new bands.
      const loan = await api.as(people.ownerA).post(`/api/teams/${people.teamA}/loans`, sampleLoan());
      expect(loan.statusCode, loan.body).toBe(201);
      expect(loan.json().thresholds).toEqual({ strong: 1.2, eligible: 1.05 });
      expect((await patch({ dscrStrong: 1.25, dscrEligible: 1 })).statusCode).toBe(200);
    });

    it('takes a logo as the raw image body, whose bytes decide its type, and serves it publicly for good', async () => {
      const png = tinyPng();
      const uploaded = await putLogo(people.ownerA.cookie, people.teamA, png);
      expect(uploaded.statusCode, uploaded.body).toBe(200);
      const pngUrl = `/api/team-logos/${people.teamA}/${versionOf(png)}`;
      expect(uploaded.json()).toMatchObject({ id: people.teamA, logoUrl: pngUrl });
      expect((await teamOf(people.assistantA.cookie, people.teamA)).logoUrl).toBe(pngUrl);

      // No cookie: mail clients fetch it.
      const served = await api.as().get(pngUrl);
      expect(served.statusCode).toBe(200);
      expect(served.rawPayload.equals(png)).toBe(true);
      expect(served.headers['content-type']).toBe('image/png');
      expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(served.headers['cross-origin-resource-policy']).toBe('cross-origin');
      expect(served.headers['x-content-type-options']).toBe('nosniff');
      expect(served.headers['set-cookie']).toBeUndefined();

      // New bytes, new URL; a JPEG declared as a PNG is stored and served as what it is.
      const jpeg = jpegBytes();
      const replaced = await putLogo(people.ownerA.cookie, people.teamA, jpeg, 'image/png');
      expect(replaced.statusCode, replaced.body).toBe(200);
      const jpegUrl = `/api/team-logos/${people.teamA}/${versionOf(jpeg)}`;
      expect(replaced.json().logoUrl).toBe(jpegUrl);
      const servedJpeg = await api.as().get(jpegUrl);
      expect(servedJpeg.headers['content-type']).toBe('image/jpeg');
      expect(servedJpeg.rawPayload.equals(jpeg)).toBe(true);
      expect(servedJpeg.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      // An old URL (in an e-mail already sent) shows the current logo, cached only briefly.
      const stale = await api.as().get(pngUrl);
      expect(stale.statusCode).toBe(200);
      expect(stale.headers['content-type']).toBe('image/jpeg');
      expect(stale.headers['cache-control']).toBe('public, max-age=300');

      const webp = webpBytes();
      const asOctets = await putLogo(people.ownerA.cookie, people.teamA, webp, 'application/octet-stream');
      expect(asOctets.statusCode, asOctets.body).toBe(200);
      expect(asOctets.json().logoUrl).toBe(`/api/team-logos/${people.teamA}/${versionOf(webp)}`);
      const servedWebp = await api.as().get(asOctets.json().logoUrl);
      expect(servedWebp.headers['content-type']).toBe('image/webp');
      expect(servedWebp.rawPayload.equals(webp)).toBe(true);

      // The largest logo allowed is accepted.
      const largest = pngOfSize(LOGO_MAX_BYTES, [1, 2, 3, 255]);
      expect(largest.length).toBe(LOGO_MAX_BYTES);
      expect((await putLogo(people.ownerA.cookie, people.teamA, largest)).statusCode).toBe(200);
      expect((await putLogo(people.ownerA.cookie, people.teamA, png)).json().logoUrl).toBe(pngUrl);
    });

    it('refuses anything but a PNG, JPEG or WebP within 256 KB, and keeps the logo it had', async () => {
      const current = (await teamOf(people.ownerA.cookie, people.teamA)).logoUrl;
      expect(current).not.toBeNull();
      const refusals: [string, Buffer, string, number][] = [
        ['a GIF declared as PNG', gifBytes(), 'image/png', 415],
        ['an SVG declared as PNG', svgBytes(), 'image/png', 415],
        ['text declared as PNG', Buffer.from('hello, this is not an image'), 'image/png', 415],
        ['a GIF as itself', gifBytes(), 'image/gif', 415],
        ['an SVG as itself', svgBytes(), 'image/svg+xml', 415],
        ['a text body', Buffer.from('hello'), 'text/plain', 415],
        ['JSON', Buffer.from('{"logo":"x"}'), 'application/json', 415],
        ['one byte over 256 KB', pngOfSize(LOGO_MAX_BYTES + 1), 'image/png', 413],
      ];
      for (const [label, bytes, contentType, status] of refusals) {
        const response = await putLogo(people.ownerA.cookie, people.teamA, bytes, contentType);
        expect(response.statusCode, label).toBe(status);
        expect(response.json().code, label).toBe(status === 413 ? 'payload_too_large' : 'unsupported_media_type');
      }
      const empty = await putLogo(people.ownerA.cookie, people.teamA, Buffer.alloc(0));
      expect(empty.statusCode).toBe(400);
      expect(empty.json().errors).toEqual([{ field: 'logo', message: 'Choose an image file' }]);
      expect((await teamOf(people.ownerA.cookie, people.teamA)).logoUrl).toBe(current);
    });

    it('refuses a PNG header followed by HTML, and stores nothing', async () => {
      const stored = () => api.db.select({ logo: team.logo, logoType: team.logoType, logoSha256: team.logoSha256 }).from(team).where(eq(team.id, people.teamA));
      const current = (await teamOf(people.ownerA.cookie, people.teamA)).logoUrl;
      const before = await stored();
      expect(before[0]?.logo).not.toBeNull();
      const audited = await api.db.$count(auditEvent, eq(auditEvent.teamId, people.teamA));
      // The signature and IHDR of a real PNG (what a first-bytes sniff reads), then a page with script.
      const polyglot = Buffer.concat([tinyPng().subarray(0, 33), Buffer.from('<html><script>alert(1)</script>')]);
      const response = await putLogo(people.ownerA.cookie, people.teamA, polyglot);
      expect(response.statusCode).toBe(415);
      expect(response.json()).toMatchObject({ code: 'unsupported_media_type', detail: 'The logo must be a PNG, JPEG or WebP image' });
      expect(await stored()).toEqual(before);
      expect(await api.db.$count(auditEvent, eq(auditEvent.teamId, people.teamA))).toBe(audited);
      expect((await teamOf(people.ownerA.cookie, people.teamA)).logoUrl).toBe(current);
      // Its would-be URL serves the logo the team already had, never these bytes.
      const served = await api.as().get(`/api/team-logos/${people.teamA}/${versionOf(polyglot)}`);
      expect(served.rawPayload.equals(before[0]?.logo ?? Buffer.alloc(0))).toBe(true);
    });

    it('removes the logo, after which its public URL answers 404', async () => {
      const before = (await teamOf(people.ownerA.cookie, people.teamA)).logoUrl ?? '';
      const removed = await api.as(people.ownerA).delete(`/api/teams/${people.teamA}/logo`);
      expect(removed.statusCode).toBe(200);
      expect(removed.json()).toMatchObject({ id: people.teamA, logoUrl: null });
      expect((await teamOf(people.assistantA.cookie, people.teamA)).logoUrl).toBeNull();
      const gone = await api.as().get(before);
      expect(gone.statusCode).toBe(404);
      expect(gone.json().detail).toBe('This team has no logo');
      expect((await api.as().get(`/api/team-logos/${people.teamA}/not-a-version`)).statusCode).toBe(400);
      expect((await api.as().get(`/api/team-logos/${NO_SUCH_UUID}/${versionOf(tinyPng())}`)).statusCode).toBe(404);
      // Removing it again is harmless.
      expect((await api.as(people.ownerA).delete(`/api/teams/${people.teamA}/logo`)).statusCode).toBe(200);
    });

    it('hides the owner-only routes from assistants, as if they did not exist', async () => {
      const teamUrl = `/api/teams/${people.teamA}`;
      await expectHidden(await api.as(people.assistantA).patch(teamUrl, { name: 'Mine now' }), 'PATCH team');
      await expectHidden(await putLogo(people.assistantA.cookie, people.teamA, tinyPng()), 'PUT logo');
      await expectHidden(await api.as(people.assistantA).delete(`${teamUrl}/logo`), 'DELETE logo');
      await expectHidden(await api.as(people.assistantA).post(`${teamUrl}/invitations`, { email: 'friend@teams.test' }), 'POST invitation');
      await expectHidden(await api.as(people.assistantA).delete(`${teamUrl}/invitations/${NO_SUCH_UUID}`), 'DELETE invitation');
      await expectHidden(await api.as(people.assistantA).patch(`${teamUrl}/members/${people.assistantA.userId}`, { role: 'owner' }), 'PATCH member');
      await expectHidden(await api.as(people.assistantA).delete(`${teamUrl}/members/${people.ownerA.userId}`), 'DELETE member');
      await expectHidden(await api.as(people.assistantA).get(`${teamUrl}/audit`), 'GET audit');
      expect(await teamOf(people.ownerA.cookie, people.teamA)).toMatchObject({ name: 'Harbor Lending', logoUrl: null });
      expect((await meOf(people.assistantA.cookie)).team?.role).toBe('assistant');
      expect((await mailsTo('friend@teams.test')).length).toBe(0);
    });
  });

  describe('invitations', () => {
    it('mails an invitation headed with the team’s name, colour and logo, from the inviter', async () => {
      // The owner's name heads the subject.
      expect((await api.as(people.ownerA).patch('/api/me', { name: 'Olive Owner' })).statusCode).toBe(200);
      const logoUrl = (await putLogo(people.ownerA.cookie, people.teamA, tinyPng())).json().logoUrl as string;

      const response = await api.as(people.ownerA).post(`/api/teams/${people.teamA}/invitations`, { email: ' ivy@teams.test ' });
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json()).toEqual({
        id: expect.any(String),
        email: 'ivy@teams.test',
        createdAt: expect.any(String),
        expiresAt: expect.any(String),
        expired: false,
      });

      const [mail, ...more] = await mailsTo('ivy@teams.test');
      expect(more).toHaveLength(0);
      expect(mail?.subject).toBe('Olive Owner invited you to Harbor Lending');
      expect(mail?.text).toContain('Olive Owner invited you to join Harbor Lending on Coverly as an assistant');
      expect(mail?.text).toMatch(/http:\/\/localhost:3000\/invite#[A-Za-z0-9_-]{43}/);
      expect(mail?.html).toContain('Harbor Lending');
      expect(mail?.html).toContain('border-top:4px solid #0f766e');
      expect(mail?.html).toContain(`<img src="http://localhost:3000${logoUrl}"`);

      const token = await invitationTokenFor(api.db, 'ivy@teams.test');
      const found = await lookup(token);
      expect(found.statusCode).toBe(200);
      expect(found.json()).toEqual({
        email: 'ivy@teams.test',
        role: 'assistant',
        teamName: 'Harbor Lending',
        loanProperty: null,
        expiresAt: expect.any(String),
        hasAccount: false,
      });
    });

    it('withdraws the earlier link when the same address is invited again', async () => {
      const first = await invitationTokenFor(api.db, 'ivy@teams.test');
      const again = await api.as(people.ownerA).post(`/api/teams/${people.teamA}/invitations`, { email: 'IVY@teams.test' });
      expect(again.statusCode).toBe(201);
      const second = await invitationTokenFor(api.db, 'ivy@teams.test');
      expect(second).not.toBe(first);

      const withdrawn = await accept({ token: first, name: 'Ivy Early' });
      expect(withdrawn.statusCode).toBe(410);
      expect(withdrawn.json().detail).toBe('This invitation was withdrawn; ask for a new one');
      expect((await lookup(first)).statusCode).toBe(410);
      expect((await lookup(second)).statusCode).toBe(200);
      const open = (await membersOf(people.ownerA.cookie, people.teamA)).invitations.filter((i) => i.email.toLowerCase() === 'ivy@teams.test');
      expect(open).toHaveLength(1);
      expect(open[0]?.id).toBe((again.json() as { id: string }).id);
    });

    it('refuses to invite a member again, or a malformed address', async () => {
      for (const email of [people.assistantA.email.toUpperCase(), people.ownerA.email, people.newAssistantA.email]) {
        const response = await api.as(people.ownerA).post(`/api/teams/${people.teamA}/invitations`, { email });
        expect(response.statusCode, email).toBe(409);
        expect(response.json().detail, email).toBe(`${email} is already a member of Harbor Lending`);
      }
      const bad = await api.as(people.ownerA).post(`/api/teams/${people.teamA}/invitations`, { email: 'not an address' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().errors).toEqual([{ field: 'email', message: 'Enter a valid email address' }]);
      const withRole = await api.as(people.ownerA).post(`/api/teams/${people.teamA}/invitations`, { email: 'x@teams.test', role: 'owner' });
      expect(withRole.json().errors).toEqual([{ field: 'role', message: 'Unknown field' }]);
    });

    it('withdraws an invitation by id, after which its link is dead', async () => {
      const wren = await invite(people.ownerA.cookie, people.teamA, 'wren@teams.test');
      const withdrawn = await api.as(people.ownerA).delete(`/api/teams/${people.teamA}/invitations/${wren.id}`);
      expect(withdrawn.statusCode).toBe(204);
      expect((await accept({ token: wren.token, name: 'Wren' })).statusCode).toBe(410);
      expect((await lookup(wren.token)).statusCode).toBe(410);
      expect((await membersOf(people.ownerA.cookie, people.teamA)).invitations.some((i) => i.id === wren.id)).toBe(false);

      const twice = await api.as(people.ownerA).delete(`/api/teams/${people.teamA}/invitations/${wren.id}`);
      expect(twice.statusCode).toBe(404);
      expect(twice.json().detail).toBe('No open invitation with this id in your team');
      expect((await api.as(people.ownerA).delete(`/api/teams/${people.teamA}/invitations/${NO_SUCH_UUID}`)).statusCode).toBe(404);
      const malformed = await api.as(people.ownerA).delete(`/api/teams/${people.teamA}/invitations/not-a-uuid`);
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json().errors).toEqual([{ field: 'invitationId', message: 'Not an invitation id' }]);

      // Team B's owner cannot withdraw team A's invitation through team B's URL.
      const robin = await invite(people.ownerA.cookie, people.teamA, 'robin@teams.test');
      expect((await api.as(people.ownerB).delete(`/api/teams/${people.teamB}/invitations/${robin.id}`)).statusCode).toBe(404);
      expect((await lookup(robin.token)).statusCode).toBe(200);
    });

    it('makes a new account an assistant, who must enrol an authenticator before seeing the team', async () => {
      const token = await invitationTokenFor(api.db, 'ivy@teams.test');
      const accepted = await accept({ token, name: 'Ivy Assistant' });
      expect(accepted.statusCode, accepted.body).toBe(200);
      expect(accepted.json()).toEqual({ redirectTo: '/app/team', twoFactorRequired: false });
      const cookie = cookieFrom(accepted);

      const me = await meOf(cookie);
      expect(me).toMatchObject({
        user: { name: 'Ivy Assistant', email: 'ivy@teams.test' },
        broker: false,
        mfaEnrolled: false,
        mustEnrolMfa: true,
        team: { id: people.teamA, name: 'Harbor Lending', role: 'assistant' },
      });
      const closed = await api.as(cookie).get(`/api/teams/${people.teamA}/members`);
      expect(closed.statusCode).toBe(401);
      expect(closed.json().code).toBe('mfa_required');

      const enrolled = await enrolTotp(api.app, cookie);
      expect(await meOf(enrolled.cookie)).toMatchObject({ mfaEnrolled: true, mustEnrolMfa: false, team: { id: people.teamA, role: 'assistant' } });
      expect(await teamOf(enrolled.cookie, people.teamA)).toMatchObject({ name: 'Harbor Lending', role: 'assistant' });
      const ivy = (await membersOf(enrolled.cookie, people.teamA)).members.find((m) => m.email === 'ivy@teams.test');
      expect(ivy).toMatchObject({ name: 'Ivy Assistant', role: 'assistant', mfaEnrolled: true });
      joined.ivy = { userId: me.user.id, email: 'ivy@teams.test', cookie: enrolled.cookie, secret: enrolled.secret };

      expect((await accept({ token, name: 'Ivy Again' })).statusCode).toBe(410);
    });

    it('refuses an account that already works in another team, and leaves the invitation open', async () => {
      const { token, id } = await invite(people.ownerA.cookie, people.teamA, people.ownerB.email);
      expect((await lookup(token)).json()).toMatchObject({ hasAccount: true, teamName: 'Harbor Lending' });

      const refused = await accept({ token });
      expect(refused.statusCode).toBe(409);
      expect(refused.json().detail).toBe("This account already belongs to owner-b's team; one account works in one team");
      expect(refused.headers['set-cookie']).toBeUndefined();

      expect((await meOf(people.ownerB.cookie)).team).toMatchObject({ id: people.teamB, role: 'owner' });
      const teamA = await membersOf(people.ownerA.cookie, people.teamA);
      expect(teamA.members.some((m) => m.userId === people.ownerB.userId)).toBe(false);
      // Nothing was claimed: the link still works, should that person leave their team.
      expect((await lookup(token)).statusCode).toBe(200);
      expect(teamA.invitations.some((i) => i.id === id)).toBe(true);
      const [row] = await api.db.select().from(invitation).where(eq(invitation.id, id));
      expect(row).toMatchObject({ acceptedAt: null, acceptedBy: null, revokedAt: null });
      // A wrong password is no conflict: it is just refused.
      expect((await accept({ token, password: 'not the password of owner b' })).statusCode).toBe(400);
      expect((await api.as(people.ownerA).delete(`/api/teams/${people.teamA}/invitations/${id}`)).statusCode).toBe(204);
    });

    it('counts a wrong password given while accepting against the sign-in throttle, and audits it', async () => {
      await createAccount(api, { email: 'throttled@teams.test', name: 'Theo Throttled' });
      const { token } = await invite(people.ownerA.cookie, people.teamA, 'throttled@teams.test');
      const attempt = (password: string) => api.as().post('/api/invitations/accept', { token, password }, { remoteAddress: '198.51.100.77' });
      for (let i = 0; i < 8; i++) expect((await attempt('not the password of theo')).statusCode).toBe(400);
      // Refused now even with the right password, as a sign-in would be.
      const refused = await attempt(PEOPLE_PASSWORD);
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      const failures = await api.db
        .select()
        .from(auditEvent)
        .where(and(eq(auditEvent.action, 'sign_in.failed'), eq(auditEvent.subjectEmail, 'throttled@teams.test')));
      expect(failures).toHaveLength(8);
      expect(failures[0]).toMatchObject({ ip: '198.51.100.77', data: { reason: 'wrong password, accepting an invitation' } });
    });

    it('never claims a withdrawn invitation, even one that was open when the accept began', async () => {
      const { id } = await invite(people.ownerA.cookie, people.teamA, 'raced@teams.test');
      expect((await api.as(people.ownerA).delete(`/api/teams/${people.teamA}/invitations/${id}`)).statusCode).toBe(204);
      expect(await claimInvitation(api.db, id, people.borrower.userId)).toBeNull();
    });

    it('signs an existing account with two-step verification in only after its code', async () => {
      const mia = await enrolAuthenticator(api, await createAccount(api, { email: 'mia@teams.test', name: 'Mia Existing' }));
      const { token } = await invite(people.ownerA.cookie, people.teamA, 'mia@teams.test');

      const accepted = await accept({ token });
      expect(accepted.statusCode, accepted.body).toBe(200);
      expect(accepted.json()).toEqual({ redirectTo: '/app/team', twoFactorRequired: true });
      // Cookies set, not expired: better-auth expires the session cookie it would otherwise have set.
      const setCookies = ([] as string[])
        .concat(accepted.headers['set-cookie'] ?? [])
        .filter((c) => !/max-age=0\b/i.test(c))
        .map((c) => c.slice(0, c.indexOf('=')));
      expect(setCookies).not.toContain('coverly.session_token');
      expect(setCookies).toContain('coverly.two_factor');
      const pending = cookieFrom(accepted);
      expect((await api.as(pending).get('/api/me')).statusCode).toBe(401);

      const verified = await api.as(pending).post('/api/auth/two-factor/verify-totp', { code: await freshTotpCode(mia.secret) });
      expect(verified.statusCode, verified.body).toBe(200);
      const cookie = cookieFrom(verified);
      expect(await teamOf(cookie, people.teamA)).toMatchObject({ id: people.teamA, name: 'Harbor Lending', role: 'assistant' });
      expect((await meOf(cookie)).team).toMatchObject({ id: people.teamA, role: 'assistant' });
      joined.mia = { userId: (await meOf(cookie)).user.id, email: 'mia@teams.test', cookie };
    });
  });

  describe('members', () => {
    it('lists the members with their authenticator status, and open invitations with whether they expired', async () => {
      const late = await invite(people.ownerA.cookie, people.teamA, 'late@teams.test');
      await api.db
        .update(invitation)
        .set({ expiresAt: new Date(Date.now() - 60_000) })
        .where(and(eq(invitation.id, late.id), eq(invitation.teamId, people.teamA)));

      const response = await api.as(people.ownerA).get(`/api/teams/${people.teamA}/members`);
      expect(response.headers['cache-control']).toBe('no-store');
      const { members, invitations } = response.json() as TeamMembers;
      // Assistants see the same members, but invitations are the owners' business.
      const asAssistant = await membersOf(people.assistantA.cookie, people.teamA);
      expect(asAssistant.members).toEqual(members);
      expect(asAssistant.invitations).toEqual([]);
      expect(members.map(({ email, role, mfaEnrolled }) => ({ email, role, mfaEnrolled }))).toEqual([
        { email: people.ownerA.email, role: 'owner', mfaEnrolled: true },
        { email: people.assistantA.email, role: 'assistant', mfaEnrolled: true },
        { email: people.newAssistantA.email, role: 'assistant', mfaEnrolled: false },
        { email: 'ivy@teams.test', role: 'assistant', mfaEnrolled: true },
        { email: 'mia@teams.test', role: 'assistant', mfaEnrolled: true },
      ]);
      expect(members[0]).toEqual({
        userId: people.ownerA.userId,
        name: 'Olive Owner',
        email: people.ownerA.email,
        role: 'owner',
        mfaEnrolled: true,
        joinedAt: expect.any(String),
      });
      expect(Number.isNaN(Date.parse(members[0]?.joinedAt ?? ''))).toBe(false);

      // Newest first; used and withdrawn ones are gone, expired ones say so.
      expect(invitations.map(({ email, expired }) => ({ email, expired }))).toEqual([
        { email: 'late@teams.test', expired: true },
        { email: 'throttled@teams.test', expired: false },
        { email: 'robin@teams.test', expired: false },
      ]);
      const robin = invitations.find((i) => i.email === 'robin@teams.test');
      const days = (Date.parse(robin?.expiresAt ?? '') - Date.now()) / 86_400_000;
      expect(days).toBeGreaterThan(6.9);
      expect(days).toBeLessThanOrEqual(7);

      // An expired link cannot be used.
      expect((await accept({ token: late.token, name: 'Late' })).statusCode).toBe(410);
      // Team B's list has none of it.
      const teamB = await membersOf(people.ownerB.cookie, people.teamB);
      expect(teamB.members.map((m) => m.email)).toEqual([people.ownerB.email]);
      expect(teamB.invitations).toEqual([]);
    });

    it('changes roles but never leaves the team without an owner', async () => {
      const memberUrl = (userId: string) => `/api/teams/${people.teamA}/members/${userId}`;
      const demoteSelf = await api.as(people.ownerA).patch(memberUrl(people.ownerA.userId), { role: 'assistant' });
      expect(demoteSelf.statusCode).toBe(409);
      expect(demoteSelf.json().detail).toBe(LAST_OWNER);
      const leave = await api.as(people.ownerA).delete(memberUrl(people.ownerA.userId));
      expect(leave.statusCode).toBe(409);
      expect(leave.json().detail).toBe(LAST_OWNER);
      expect((await meOf(people.ownerA.cookie)).team?.role).toBe('owner');

      const badRole = await api.as(people.ownerA).patch(memberUrl(people.assistantA.userId), { role: 'admin' });
      expect(badRole.statusCode).toBe(400);
      expect(badRole.json().errors).toEqual([{ field: 'role', message: 'Use owner or assistant' }]);

      const promoted = await api.as(people.ownerA).patch(memberUrl(people.assistantA.userId), { role: 'owner' });
      expect(promoted.statusCode).toBe(204);
      expect(promoted.body).toBe('');
      expect((await meOf(people.assistantA.cookie)).team?.role).toBe('owner');
      // The new owner may use the owner's routes at once, with the session they had.
      expect((await api.as(people.assistantA).patch(`/api/teams/${people.teamA}`, { accentColor: '#0f766e' })).statusCode).toBe(200);

      // With two owners, one may leave.
      const left = await api.as(people.assistantA).delete(memberUrl(people.assistantA.userId));
      expect(left.statusCode).toBe(204);
      expect((await meOf(people.assistantA.cookie)).team).toBeNull();
      expect((await api.as(people.ownerA).delete(memberUrl(people.ownerA.userId))).statusCode).toBe(409);

      for (const method of ['PATCH', 'DELETE'] as const) {
        const act = (url: string) => (method === 'PATCH' ? api.as(people.ownerA).patch(url, { role: 'owner' }) : api.as(people.ownerA).delete(url));
        const unknown = await act(memberUrl(NO_SUCH_USER));
        expect(unknown.statusCode, method).toBe(404);
        expect(unknown.json().detail, method).toBe('No member with this id in your team');
        // Someone who left is unknown too.
        expect((await act(memberUrl(people.assistantA.userId))).statusCode).toBe(404);
      }
      expect((await api.as(people.ownerA).delete(memberUrl('x'.repeat(65)))).statusCode).toBe(400);
    });

    it('removes a member with effect on their very next request, in the same session', async () => {
      const ivy = joined.ivy;
      if (!ivy) throw new Error('Ivy joined in an earlier test');
      expect((await api.as(ivy).get(`/api/teams/${people.teamA}`)).statusCode).toBe(200);
      expect((await api.as(ivy).get(`/api/teams/${people.teamA}/members`)).statusCode).toBe(200);

      const removed = await api.as(people.ownerA).delete(`/api/teams/${people.teamA}/members/${ivy.userId}`);
      expect(removed.statusCode).toBe(204);

      await expectHidden(await api.as(ivy).get(`/api/teams/${people.teamA}`), 'team after removal');
      await expectHidden(await api.as(ivy).get(`/api/teams/${people.teamA}/members`), 'members after removal');
      const me = await api.as(ivy).get('/api/me');
      expect(me.statusCode).toBe(200);
      expect(me.json()).toMatchObject({ user: { email: 'ivy@teams.test' }, team: null, mustEnrolMfa: false });
      expect((await membersOf(people.ownerA.cookie, people.teamA)).members.some((m) => m.userId === ivy.userId)).toBe(false);
      expect((await api.as(people.ownerA).delete(`/api/teams/${people.teamA}/members/${ivy.userId}`)).statusCode).toBe(404);
    });

    it('takes a removed member off the loans assigned to them in the same transaction: left unassigned, or handed to the member the owner names', async () => {
      const harbor = await createTeamWithOwner(api, { name: 'Handover Lending' });
      const [quinn, rosa, sam] = await Promise.all(['Quinn Leaving', 'Rosa Staying', 'Sam Leaving'].map((name) => addAssistant(api, harbor.teamId, { name })));
      const quinns = [
        await createLoan(api, harbor.teamId, harbor.owner, { assigneeId: quinn!.userId }),
        await createLoan(api, harbor.teamId, harbor.owner, { assigneeId: quinn!.userId }),
      ];
      const rosas = await createLoan(api, harbor.teamId, harbor.owner, { assigneeId: rosa!.userId });
      const sams = await createLoan(api, harbor.teamId, harbor.owner, { assigneeId: sam!.userId });
      const loanOf = async (id: string) => (await api.as(harbor.owner).get(`/api/loans/${id}`)).json<LoanDetail>();
      const assignedRows = async (id: string) =>
        (await api.as(harbor.owner).get(`/api/loans/${id}/activity`)).json<ActivityPage>().items.filter((row) => row.kind === 'loan.assigned');
      const remove = (userId: string, body?: object) => api.as(harbor.owner).delete(`/api/teams/${harbor.teamId}/members/${userId}`, body);

      // Handing over to someone who is not on the team (another team's owner, nobody, the person leaving) is refused, naming the field, and removes nobody.
      for (const handOverTo of [people.ownerB.userId, NO_SUCH_USER, quinn!.userId]) {
        const refused = await remove(quinn!.userId, { handOverTo });
        expect(refused.statusCode, handOverTo).toBe(400);
        expect(refused.json().errors[0].field).toBe('handOverTo');
      }
      expect((await loanOf(quinns[0]!.id)).assigneeId).toBe(quinn!.userId);
      expect((await membersOf(harbor.owner.cookie, harbor.teamId)).members.some((m) => m.userId === quinn!.userId)).toBe(true);

      const handed = await remove(quinn!.userId, { handOverTo: rosa!.userId });
      expect(handed.statusCode, handed.body).toBe(204);
      for (const before of quinns) {
        const now = await loanOf(before.id);
        expect(now).toMatchObject({ assigneeId: rosa!.userId, version: before.version + 1 });
        expect((await assignedRows(before.id))[0]?.data).toEqual({ to: 'Rosa Staying' });
      }
      expect((await loanOf(rosas.id)).version).toBe(rosas.version);

      // Without one, the loans are left to nobody, and say who took them off.
      expect((await remove(sam!.userId)).statusCode).toBe(204);
      expect(await loanOf(sams.id)).toMatchObject({ assigneeId: null, assignee: null, version: sams.version + 1 });
      expect((await assignedRows(sams.id))[0]).toMatchObject({ actor: { id: harbor.owner.userId }, data: { to: null } });
      expect((await loanOf(rosas.id)).assigneeId).toBe(rosa!.userId);
    });
  });

  describe('between teams', () => {
    it('hides every team A route from team B’s owner, exactly like an unknown route, and changes nothing', async () => {
      const pending = (await membersOf(people.ownerA.cookie, people.teamA)).invitations.find((i) => i.email === 'robin@teams.test');
      const before = { team: await teamOf(people.ownerA.cookie, people.teamA), members: await membersOf(people.ownerA.cookie, people.teamA) };
      const a = `/api/teams/${people.teamA}`;
      const requests: [string, (ownerB: Caller) => Promise<LightMyRequestResponse>][] = [
        ['GET team', (b) => b.get(a)],
        ['PATCH team', (b) => b.patch(a, { name: 'Taken over' })],
        ['PUT logo', (b) => b.put(`${a}/logo`, tinyPng([255, 0, 0, 255]), { headers: { 'content-type': 'image/png' } })],
        ['DELETE logo', (b) => b.delete(`${a}/logo`)],
        ['GET members', (b) => b.get(`${a}/members`)],
        ['POST invitation', (b) => b.post(`${a}/invitations`, { email: 'spy@teams.test' })],
        ['DELETE invitation', (b) => b.delete(`${a}/invitations/${pending?.id}`)],
        ['PATCH member', (b) => b.patch(`${a}/members/${people.newAssistantA.userId}`, { role: 'owner' })],
        ['DELETE member', (b) => b.delete(`${a}/members/${people.newAssistantA.userId}`)],
        ['GET audit', (b) => b.get(`${a}/audit`)],
      ];
      for (const [label, request] of requests) await expectHidden(await request(api.as(people.ownerB)), label);
      expect({ team: await teamOf(people.ownerA.cookie, people.teamA), members: await membersOf(people.ownerA.cookie, people.teamA) }).toEqual(before);
      expect(await mailsTo('spy@teams.test')).toEqual([]);
    });

    it('does not let team A’s owner reach a member of team B, whichever team the URL names', async () => {
      const b = `/api/teams/${people.teamB}/members/${people.ownerB.userId}`;
      await expectHidden(await api.as(people.ownerA).patch(b, { role: 'assistant' }), 'PATCH via team B');
      await expectHidden(await api.as(people.ownerA).delete(b), 'DELETE via team B');
      const viaA = `/api/teams/${people.teamA}/members/${people.ownerB.userId}`;
      const patched = await api.as(people.ownerA).patch(viaA, { role: 'assistant' });
      expect(patched.statusCode).toBe(404);
      expect(patched.json().detail).toBe('No member with this id in your team');
      expect((await api.as(people.ownerA).delete(viaA)).statusCode).toBe(404);
      expect((await meOf(people.ownerB.cookie)).team).toMatchObject({ id: people.teamB, role: 'owner' });
    });
  });

  describe('invitation rate limit', () => {
    it('allows 30 invitations an hour per team, then answers 429 with Retry-After', async () => {
      // A second instance on the same database: its rate-limit counters start at zero.
      const fresh = await buildApp({ config: api.config, database: api.database, distDir: '/nonexistent' });
      try {
        const inviteTo = (cookie: string, teamId: string, email: string) =>
          fresh.inject({ method: 'POST', url: `/api/teams/${teamId}/invitations`, headers: { cookie }, payload: { email } });

        // Callers who may not invite for team B do not spend its budget.
        for (let i = 0; i < 5; i++) {
          expect((await inviteTo(people.ownerA.cookie, people.teamB, `stranger${i}@teams.test`)).statusCode).toBe(404);
          expect((await inviteTo('', people.teamB, `stranger${i}@teams.test`)).statusCode).toBe(401);
        }

        const statuses: number[] = [];
        for (let i = 0; i < 30; i++) statuses.push((await inviteTo(people.ownerB.cookie, people.teamB, `b${i}@teams.test`)).statusCode);
        expect(statuses).toEqual(Array(30).fill(201));

        const limited = await inviteTo(people.ownerB.cookie, people.teamB, 'one-too-many@teams.test');
        expect(limited.statusCode).toBe(429);
        expect(limited.json()).toMatchObject({ code: 'rate_limited' });
        const retryAfter = Number(limited.headers['retry-after']);
        expect(retryAfter).toBeGreaterThan(0);
        expect(retryAfter).toBeLessThanOrEqual(3600);
        expect(await mailsTo('one-too-many@teams.test')).toEqual([]);

        // The budget is the team's: team A's owner still invites.
        expect((await inviteTo(people.ownerA.cookie, people.teamA, 'still-fine@teams.test')).statusCode).toBe(201);
      } finally {
        await fresh.close();
      }
    });
  });
});
