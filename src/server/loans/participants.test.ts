import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { setupApi } from '../../test/api';
import { backends } from '../../test/databases';
import { addAssistant, addBorrower, createLoan, createTeamWithOwner, type Person, type Team } from '../../test/factories';
import { cookieFrom } from '../../test/http';
import type { LoanDetail, LoanView } from '../../shared/schemas/loans';
import type { LoanInvitationView, LoanParticipants, MyLoans } from '../../shared/schemas/participants';
import { invitation, job } from '../db/schema';
import type { MailMessage } from '../platform/mail/mailer';

const STRONG = 'lantern orchard quietly 42';
const tokenOf = (text: string) => /\/invite#([A-Za-z0-9_-]{43})/.exec(text)?.[1] ?? '';

describe.each(backends)('borrowers on their loan on %s', (backend) => {
  const api = setupApi(backend);
  let team: Team;
  let assistant: Person;
  let other: Team;
  let loan: LoanDetail;
  let sibling: LoanDetail;

  const mailsTo = async (email: string) =>
    (await api.db.select().from(job)).map((row) => row.payload as MailMessage).filter((mail) => mail.to?.toString().toLowerCase() === email.toLowerCase());

  const invite = (by: Person, loanId: string, email: string, role: 'borrower' | 'co_borrower' = 'borrower') =>
    api.as(by).post(`/api/loans/${loanId}/invitations`, { email, role });

  const accept = (token: string, body: { name?: string; password?: string } = {}) =>
    api.as().post('/api/invitations/accept', { token, password: STRONG, ...body });

  beforeAll(async () => {
    team = await createTeamWithOwner(api, { name: 'Harbor Lending' });
    await api.as(team.owner).patch(`/api/teams/${team.teamId}`, { accentColor: '#0f766e' });
    assistant = await addAssistant(api, team.teamId, { name: 'Asha Assistant' });
    other = await createTeamWithOwner(api, { name: 'Other Lending' });
    loan = await createLoan(api, team.teamId, team.owner, { propertyStreet: '12 Harbor Way', assigneeId: assistant.userId });
    sibling = await createLoan(api, team.teamId, team.owner, { propertyStreet: '99 Sibling St' });
  });

  it('invites a borrower: the link is mailed in the team’s branding with the property, and a new account gets exactly that loan', async () => {
    const sent = await invite(assistant, loan.id, 'Nora@Borrower.test');
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json<LoanInvitationView>()).toMatchObject({ email: 'Nora@Borrower.test', role: 'borrower', expired: false });

    const [mail] = await mailsTo('nora@borrower.test');
    expect(mail?.subject).toContain('Harbor Lending');
    expect(mail?.text).toContain('12 Harbor Way');
    expect(mail?.text).toContain('Asha Assistant');
    expect(mail?.html).toContain('#0f766e');
    expect(mail?.html).toContain('Harbor Lending');
    const token = tokenOf(mail?.text ?? '');
    expect(token).toHaveLength(43);
    // Only the hash is stored; the loan and its team are on the row.
    const [row] = await api.db.select().from(invitation).where(eq(invitation.email, 'Nora@Borrower.test'));
    expect(row).toMatchObject({ loanId: loan.id, teamId: team.teamId, role: 'borrower' });
    expect(row?.tokenHash).not.toContain(token);
    expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBeGreaterThan(7 * 86_400_000 - 60_000);

    const lookup = await api.as().post('/api/invitations/lookup', { token });
    expect(lookup.json()).toMatchObject({
      role: 'borrower',
      teamName: 'Harbor Lending',
      loanProperty: expect.stringContaining('12 Harbor Way'),
      hasAccount: false,
    });

    const accepted = await accept(token, { name: 'Nora Borrower' });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toEqual({ redirectTo: `/app/loans/${loan.id}`, twoFactorRequired: false });
    const nora = api.as(cookieFrom(accepted));

    const view = await nora.get(`/api/loans/${loan.id}`);
    expect(view.statusCode).toBe(200);
    expect(view.json<LoanView>()).toMatchObject({ viewer: 'borrower', role: 'borrower', contact: { name: 'Asha Assistant' } });
    expect((await nora.get(`/api/loans/${sibling.id}`)).statusCode).toBe(404);
    expect((await nora.get(`/api/teams/${team.teamId}/loans`)).statusCode).toBe(404);
    expect((await nora.get(`/api/loans/${loan.id}/participants`)).statusCode).toBe(404);
    // Two-step verification is offered, never required of a borrower.
    const me = (await nora.get('/api/me')).json();
    expect(me).toMatchObject({ mustEnrolMfa: false, team: null, participantLoans: 1 });

    const mine = (await nora.get('/api/my-loans')).json<MyLoans>();
    expect(mine.loans).toEqual([
      expect.objectContaining({
        id: loan.id,
        role: 'borrower',
        propertyStreet: '12 Harbor Way',
        team: { name: 'Harbor Lending', accentColor: '#0f766e', logoUrl: null },
      }),
    ]);

    const list = (await api.as(team.owner).get(`/api/loans/${loan.id}/participants`)).json<LoanParticipants>();
    expect(list.participants).toEqual([expect.objectContaining({ name: 'Nora Borrower', email: 'nora@borrower.test', role: 'borrower' })]);
    expect(list.invitations).toEqual([]);

    // Recorded: internal activity, the team's audit log; the stage is left to the team.
    const activity = (await api.as(team.owner).get(`/api/loans/${loan.id}/activity`)).json<{ items: { kind: string; visibility: string }[] }>();
    expect(activity.items).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'participant.invited', visibility: 'internal' })]));
    const borrowerFeed = (await nora.get(`/api/loans/${loan.id}/activity`)).json<{ items: { kind: string }[] }>();
    expect(borrowerFeed.items.map((i) => i.kind)).not.toContain('participant.invited');
    const audit = await api.as(team.owner).get(`/api/teams/${team.teamId}/audit?action=participant.invited`);
    expect(audit.json<{ events: { data: { loanId: string } }[] }>().events.map((e) => e.data.loanId)).toContain(loan.id);
    expect((await api.as(team.owner).get(`/api/loans/${loan.id}`)).json<LoanDetail>().stage).toBe('lead');
  });

  it('lets an existing account accept with its password: a borrower of another team’s loan now sees both', async () => {
    const elsewhere = await createLoan(api, other.teamId, other.owner, { propertyStreet: '7 Elsewhere Rd' });
    const ken = await addBorrower(api, elsewhere.id, { name: 'Ken Investor', email: 'ken@investor.test', password: STRONG });
    await invite(team.owner, loan.id, 'ken@investor.test', 'co_borrower');
    const token = tokenOf((await mailsTo('ken@investor.test'))[0]?.text ?? '');
    expect((await api.as().post('/api/invitations/lookup', { token })).json()).toMatchObject({ hasAccount: true, role: 'co_borrower' });

    const wrong = await accept(token, { password: 'not the password at all' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors[0].field).toBe('password');
    const accepted = await accept(token);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json().redirectTo).toBe(`/app/loans/${loan.id}`);

    const mine = (await api.as(ken).get('/api/my-loans')).json<MyLoans>();
    expect(mine.loans.map((l) => [l.id, l.role, l.team.name]).sort()).toEqual(
      [
        [loan.id, 'co_borrower', 'Harbor Lending'],
        [elsewhere.id, 'borrower', 'Other Lending'],
      ].sort(),
    );
    expect((await api.as(ken).get('/api/me')).json()).toMatchObject({ participantLoans: 2, mustEnrolMfa: false });
  });

  it('refuses expired, used and withdrawn links, and withdraws the old link when the same address is invited again', async () => {
    await invite(team.owner, loan.id, 'late@borrower.test');
    const lateToken = tokenOf((await mailsTo('late@borrower.test'))[0]?.text ?? '');
    await api.db
      .update(invitation)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(invitation.email, 'late@borrower.test'));
    expect((await accept(lateToken, { name: 'Late' })).statusCode).toBe(410);

    await invite(team.owner, loan.id, 'twice@borrower.test');
    await invite(assistant, loan.id, 'TWICE@borrower.test', 'co_borrower');
    const [first, second] = (await mailsTo('twice@borrower.test')).map((m) => tokenOf(m.text ?? ''));
    const withdrawn = await accept(first!, { name: 'Twice' });
    expect(withdrawn.statusCode).toBe(410);
    expect(withdrawn.json().detail).toMatch(/withdrawn/);
    const pending = (await api.as(assistant).get(`/api/loans/${loan.id}/participants`)).json<LoanParticipants>().invitations;
    expect(pending.filter((i) => i.email.toLowerCase() === 'twice@borrower.test')).toEqual([expect.objectContaining({ role: 'co_borrower' })]);
    expect((await accept(second!, { name: 'Twice' })).statusCode).toBe(200);
    expect((await accept(second!, { name: 'Twice' })).statusCode).toBe(410);

    const sent = await invite(team.owner, loan.id, 'gone@borrower.test');
    const id = sent.json<LoanInvitationView>().id;
    expect((await api.as(assistant).delete(`/api/loans/${loan.id}/invitations/${id}`)).statusCode).toBe(204);
    expect((await api.as(assistant).delete(`/api/loans/${loan.id}/invitations/${id}`)).statusCode).toBe(404);
    const goneToken = tokenOf((await mailsTo('gone@borrower.test'))[0]?.text ?? '');
    expect((await accept(goneToken, { name: 'Gone' })).statusCode).toBe(410);
  });

  it('names the bad field, refuses team members and people already on the loan, and hides the routes from borrowers and other teams', async () => {
    const bad = await invite(team.owner, loan.id, 'not an address');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].field).toBe('email');
    const badRole = await api.as(team.owner).post(`/api/loans/${loan.id}/invitations`, { email: 'x@y.test', role: 'owner' });
    expect(badRole.json().errors[0].field).toBe('role');
    expect((await invite(team.owner, loan.id, assistant.email)).statusCode).toBe(409);
    expect((await invite(team.owner, loan.id, 'nora@borrower.test')).statusCode).toBe(409);

    const borrower = await addBorrower(api, sibling.id);
    expect((await invite(borrower, sibling.id, 'friend@borrower.test')).statusCode).toBe(404);
    expect((await api.as(borrower).get(`/api/loans/${sibling.id}/participants`)).statusCode).toBe(404);
    expect((await invite(other.owner, loan.id, 'spam@borrower.test')).statusCode).toBe(404);
    expect((await api.as(other.owner).delete(`/api/loans/${loan.id}/participants/${borrower.userId}`)).statusCode).toBe(404);
    expect((await api.as(team.owner).delete(`/api/loans/${loan.id}/participants/${borrower.userId}`)).statusCode).toBe(404);
    expect((await api.as(team.owner).delete(`/api/loans/${loan.id}/invitations/not-a-uuid`)).statusCode).toBe(400);
    expect((await api.as().get('/api/my-loans')).statusCode).toBe(401);
    expect((await api.as(team.owner).get('/api/my-loans')).json()).toEqual({ loans: [] });
  });

  it('ends a removed borrower’s access on their very next request, with the same session', async () => {
    const target = await createLoan(api, team.teamId, team.owner, { propertyStreet: '5 Removal Ave' });
    const bea = await addBorrower(api, target.id, { name: 'Bea Removed' });
    expect((await api.as(bea).get(`/api/loans/${target.id}`)).statusCode).toBe(200);

    expect((await api.as(assistant).delete(`/api/loans/${target.id}/participants/${bea.userId}`)).statusCode).toBe(204);
    expect((await api.as(bea).get(`/api/loans/${target.id}`)).statusCode).toBe(404);
    expect((await api.as(bea).get(`/api/loans/${target.id}/activity`)).statusCode).toBe(404);
    expect((await api.as(bea).get('/api/my-loans')).json()).toEqual({ loans: [] });
    expect((await api.as(bea).get('/api/me')).json()).toMatchObject({ participantLoans: 0 });

    const activity = (await api.as(team.owner).get(`/api/loans/${target.id}/activity`)).json<{ items: { kind: string; visibility: string }[] }>();
    expect(activity.items[0]).toMatchObject({ kind: 'participant.removed', visibility: 'internal' });
    const audit = await api.as(team.owner).get(`/api/teams/${team.teamId}/audit?action=participant.removed`);
    expect(audit.json<{ events: { subjectEmail: string }[] }>().events.map((e) => e.subjectEmail)).toContain(bea.email);
  });

  it('mails a stage change to that loan’s borrowers only, in the team’s branding, without the note', async () => {
    const target = await createLoan(api, team.teamId, team.owner, { propertyStreet: '31 Mail Loop' });
    const main = await addBorrower(api, target.id, { name: 'Mia Main', email: 'mia@stage.test' });
    await addBorrower(api, target.id, { name: 'Cole Co', email: 'cole@stage.test', role: 'co_borrower' });
    await addBorrower(api, sibling.id, { name: 'Sid Sibling', email: 'sid@stage.test' });

    const moved = await api
      .as(assistant)
      .post(`/api/loans/${target.id}/stage`, { from: 'lead', to: 'documents_collecting', note: 'SECRET: lender wants a higher rate' });
    expect(moved.statusCode, moved.body).toBe(200);
    for (const email of ['mia@stage.test', 'cole@stage.test']) {
      const mails = await mailsTo(email);
      expect(mails, email).toHaveLength(1);
      expect(mails[0]?.subject).toBe('Harbor Lending: your loan for 31 Mail Loop: Documents collecting');
      expect(mails[0]?.text).toContain(`/app/loans/${target.id}`);
      expect(mails[0]?.text).toContain('collecting the documents');
      expect(mails[0]?.html).toContain('Harbor Lending');
      expect(mails[0]?.html).toContain('#0f766e');
      expect(`${mails[0]?.text}${mails[0]?.html}`).not.toContain('SECRET');
    }
    expect(await mailsTo('sid@stage.test')).toHaveLength(0);

    // A step back (a correction) and an exit are not mailed; a reopen is.
    await api.as(team.owner).post(`/api/loans/${target.id}/stage`, { from: 'documents_collecting', to: 'application' });
    await api.as(team.owner).post(`/api/loans/${target.id}/stage`, { from: 'application', to: 'withdrawn', note: 'Borrower paused' });
    expect(await mailsTo('mia@stage.test')).toHaveLength(1);
    await api.as(team.owner).post(`/api/loans/${target.id}/stage`, { from: 'withdrawn', to: 'application' });
    expect(await mailsTo('mia@stage.test')).toHaveLength(2);

    // The borrower's view shows the new stage, never the note.
    const view = (await api.as(main).get(`/api/loans/${target.id}`)).json<LoanView>();
    expect(view).toMatchObject({ viewer: 'borrower', stage: 'application' });
    expect(JSON.stringify(view)).not.toContain('SECRET');
  });

  it('stores a team member’s work phone and shows it to the borrowers of the loans assigned to them', async () => {
    const bad = await api.as(assistant).patch('/api/me', { name: 'Asha Assistant', phone: 'call me' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].field).toBe('phone');
    const saved = await api.as(assistant).patch('/api/me', { name: 'Asha Assistant', phone: ' (512) 555-0100 ' });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ workPhone: '(512) 555-0100' });

    const borrower = await addBorrower(api, loan.id);
    expect((await api.as(borrower).get(`/api/loans/${loan.id}`)).json<LoanView>()).toMatchObject({
      contact: { name: 'Asha Assistant', email: assistant.email, phone: '(512) 555-0100' },
    });
    const notMember = await api.as(borrower).patch('/api/me', { name: 'Bea', phone: '512 555 0100' });
    expect(notMember.statusCode).toBe(400);
    expect(notMember.json().errors[0].field).toBe('phone');
    expect((await api.as(assistant).patch('/api/me', { name: 'Asha Assistant', phone: '' })).json()).toMatchObject({ workPhone: null });
  });

  it('counts a loan’s invitations per loan whatever the letter case of its id: 20 an hour, then 429', async () => {
    const target = await createLoan(api, team.teamId, team.owner, { propertyStreet: '5 Flood Ct' });
    const spellings = [target.id, target.id.toUpperCase(), target.id.replace(/[a-f]/, (c) => c.toUpperCase())];
    for (let i = 0; i < 20; i++) {
      const sent = await invite(team.owner, spellings[i % spellings.length]!, 'inbox@flood.test');
      expect(sent.statusCode, `${i}: ${sent.body}`).toBe(201);
    }
    for (const spelling of spellings) {
      const refused = await invite(team.owner, spelling, 'inbox@flood.test');
      expect(refused.statusCode, spelling).toBe(429);
      expect(refused.json<{ code: string }>().code).toBe('rate_limited');
    }
    expect(await mailsTo('inbox@flood.test')).toHaveLength(20);
    // Another loan has its own budget.
    expect((await invite(team.owner, sibling.id.toUpperCase(), 'inbox@flood.test')).statusCode).toBe(201);
  });

  it('never 5xxs bad invitations, removals or profile phones (property-based)', async () => {
    const target = await createLoan(api, team.teamId, team.owner, { propertyStreet: '1 Fuzz Ct' });
    const bad: fc.Arbitrary<unknown> = fc.oneof(
      fc.constantFrom('\u0000', '\ud800', '', ' ', 'a@b', 'borrower', 'co_borrower', null, true, [], {}),
      fc.double(),
      fc.string({ unit: 'binary', maxLength: 300 }),
      fc.jsonValue({ maxDepth: 2 }),
    );
    const in4xx = (response: { statusCode: number; body: string }, what: string) => {
      expect(response.statusCode, `${what} → ${response.body.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
      expect(response.statusCode, `${what} → ${response.body.slice(0, 200)}`).toBeLessThan(500);
    };
    await fc.assert(
      fc.asyncProperty(fc.record({ email: bad, role: bad, extra: bad }, { requiredKeys: [] }), async (body) => {
        const response = await api.as(team.owner).post(`/api/loans/${target.id}/invitations`, body);
        if (response.statusCode !== 201) in4xx(response, JSON.stringify(body));
      }),
      { numRuns: 60 },
    );
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'binary', minLength: 1, maxLength: 80 }), async (id) => {
        in4xx(await api.as(team.owner).delete(`/api/loans/${target.id}/participants/${encodeURIComponent(id)}`), `remove ${id}`);
        in4xx(await api.as(team.owner).delete(`/api/loans/${target.id}/invitations/${encodeURIComponent(id)}`), `withdraw ${id}`);
      }),
      { numRuns: 40 },
    );
    await fc.assert(
      fc.asyncProperty(bad, async (phone) => {
        const response = await api.as(assistant).patch('/api/me', { name: 'Asha Assistant', phone });
        if (response.statusCode !== 200) in4xx(response, JSON.stringify(phone));
      }),
      { numRuns: 40 },
    );
  });
});
