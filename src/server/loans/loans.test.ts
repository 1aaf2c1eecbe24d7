import { beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../../test/databases';
import { formulaCells, readCsvAs } from '../../test/csv-reading';
import { setupApi } from '../../test/api';
import { addAssistant, addBorrower, createLoan, createTeamWithOwner, sampleLoan, type Person, type Team } from '../../test/factories';
import type { ActivityView, LoanDetail, LoanView, PipelinePage } from '../../shared/schemas/loans';

describe.each(backends)('loan files on %s', (backend) => {
  const api = setupApi(backend);
  let team: Team;
  let assistant: Person;
  let other: Team;

  beforeAll(async () => {
    team = await createTeamWithOwner(api, { name: 'Harbor Lending' });
    assistant = await addAssistant(api, team.teamId, { name: 'Asha Assistant' });
    other = await createTeamWithOwner(api, { name: 'Other Lending' });
  });

  const loansUrl = () => `/api/teams/${team.teamId}/loans`;

  it('creates a loan at Lead with its DSCR, history, activity and audit row', async () => {
    const response = await api.as(assistant).post(loansUrl(), sampleLoan({ assigneeId: team.owner.userId }));
    expect(response.statusCode).toBe(201);
    const loan = response.json<LoanDetail>();
    expect(loan).toMatchObject({ stage: 'lead', progress: 0, version: 1, loanAmountCents: 300_000_00, noteRatePercent: 7.25, termYears: 30 });
    // $300,000 at 7.25 % over 30 years: P&I $2,046.53; PITIA adds $500 taxes and $150 insurance a month.
    expect(loan.dscr.monthlyPrincipalAndInterestCents).toBe(2_046_53);
    expect(loan.dscr.pitiaCents).toBe(2_696_53);
    expect(loan.dscr.dscr).toBe(1.075);
    expect(loan.dscr.band).toBe('eligible');
    expect(loan.dscr.loanToValuePercent).toBe(75);
    expect(loan.assignee).toMatchObject({ id: team.owner.userId });
    expect(loan.stageHistory).toEqual([expect.objectContaining({ from: null, to: 'lead', by: expect.objectContaining({ id: assistant.userId }) })]);

    const audit = await api.as(team.owner).get(`/api/teams/${team.teamId}/audit?action=loan.created`);
    expect(audit.json<{ events: { data: { loanId: string } }[] }>().events.map((i) => i.data.loanId)).toContain(loan.id);

    // The assignee at creation is part of the creation line, not an event of its own.
    const activity = (await api.as(team.owner).get(`/api/loans/${loan.id}/activity`)).json<{ items: ActivityView[] }>().items;
    expect(activity).toEqual([
      expect.objectContaining({
        kind: 'loan.created',
        actor: { id: assistant.userId, name: 'Asha Assistant' },
        data: { stage: 'lead', assignee: { id: team.owner.userId, name: team.owner.name } },
      }),
    ]);
    // A later change of assignee is one.
    const reassigned = await api.as(assistant).patch(`/api/loans/${loan.id}`, { version: loan.version, assigneeId: assistant.userId });
    expect(reassigned.statusCode, reassigned.body).toBe(200);
    const after = (await api.as(team.owner).get(`/api/loans/${loan.id}/activity`)).json<{ items: ActivityView[] }>().items;
    expect(after.map((i) => i.kind)).toEqual(['loan.assigned', 'loan.updated', 'loan.created']);
    expect(after[0]?.data).toEqual({ to: 'Asha Assistant' });
  });

  it('opens a loan without an assignee with a creation line that names none', async () => {
    const response = await api.as(team.owner).post(loansUrl(), sampleLoan());
    expect(response.statusCode).toBe(201);
    const activity = (await api.as(team.owner).get(`/api/loans/${response.json<LoanDetail>().id}/activity`)).json<{ items: ActivityView[] }>().items;
    expect(activity.map((i) => [i.kind, i.data])).toEqual([['loan.created', { stage: 'lead' }]]);
  });

  it('refuses bad input with a 400 naming each bad field, and stores nothing', async () => {
    const before = (await api.as(team.owner).get(`${loansUrl()}?status=open`)).json<PipelinePage>().total;
    const response = await api
      .as(team.owner)
      .post(
        loansUrl(),
        sampleLoan({ propertyZip: '7870', noteRatePercent: 7.12345, loanAmountCents: 1.5, propertyState: 'XX' as never, targetClosingDate: '2027-02-30' }),
      );
    expect(response.statusCode).toBe(400);
    const fields = response.json<{ errors: { field: string }[] }>().errors.map((e) => e.field);
    expect(fields).toEqual(expect.arrayContaining(['propertyZip', 'noteRatePercent', 'loanAmountCents', 'propertyState', 'targetClosingDate']));

    const crossField = await api
      .as(team.owner)
      .post(loansUrl(), sampleLoan({ propertyType: 'two_to_four', unitCount: 3, unitRentsCents: [1_000_00], loanAmountCents: 500_000_00 }));
    expect(crossField.statusCode).toBe(400);
    expect(crossField.json<{ errors: { field: string }[] }>().errors.map((e) => e.field)).toEqual(
      expect.arrayContaining(['unitRentsCents', 'loanAmountCents']),
    );

    const notMember = await api.as(team.owner).post(loansUrl(), sampleLoan({ assigneeId: other.owner.userId }));
    expect(notMember.statusCode).toBe(400);
    expect(notMember.json<{ errors: { field: string }[] }>().errors[0]?.field).toBe('assigneeId');
    expect((await api.as(team.owner).get(`${loansUrl()}?status=open`)).json<PipelinePage>().total).toBe(before);
  });

  it('edits fields with a history of who changed what, from and to, and refuses a stale version', async () => {
    const loan = await createLoan(api, team.teamId, team.owner);
    const edited = await api.as(assistant).patch(`/api/loans/${loan.id}`, { version: loan.version, loanAmountCents: 280_000_00, lenderName: 'Acme Capital' });
    expect(edited.statusCode).toBe(200);
    expect(edited.json<LoanDetail>()).toMatchObject({ version: 2, loanAmountCents: 280_000_00, lenderName: 'Acme Capital' });

    const stale = await api.as(team.owner).patch(`/api/loans/${loan.id}`, { version: loan.version, loanAmountCents: 250_000_00 });
    expect(stale.statusCode).toBe(409);

    const invalid = await api.as(team.owner).patch(`/api/loans/${loan.id}`, { version: 2, loanAmountCents: 900_000_00 });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json<{ errors: { field: string }[] }>().errors[0]?.field).toBe('loanAmountCents');

    const activity = await api.as(team.owner).get(`/api/loans/${loan.id}/activity`);
    const updated = activity
      .json<{ items: { kind: string; actor: { id: string }; data: { changes?: unknown[] } }[] }>()
      .items.find((i) => i.kind === 'loan.updated');
    expect(updated?.actor.id).toBe(assistant.userId);
    expect(updated?.data.changes).toEqual([
      { field: 'loanAmountCents', from: 300_000_00, to: 280_000_00 },
      { field: 'lenderName', from: null, to: 'Acme Capital' },
    ]);
  });

  it('requires the version on every edit: six at once without it are six 400s naming it, six with the same version one 200 and five 409s', async () => {
    const loan = await createLoan(api, team.teamId, team.owner, { borrowerName: 'Vera Version' });
    const callers = [team.owner, assistant, team.owner, assistant, team.owner, assistant];
    const unversioned = await Promise.all(callers.map((who, i) => api.as(who).patch(`/api/loans/${loan.id}`, { lenderLoanNumber: `LN-${i}` })));
    for (const response of unversioned) {
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json<{ errors: { field: string }[] }>().errors.map((e) => e.field)).toEqual(['version']);
    }
    const stored = (await api.as(team.owner).get(`/api/loans/${loan.id}`)).json<LoanDetail>();
    expect(stored).toMatchObject({ version: loan.version, lenderLoanNumber: null });

    const versioned = await Promise.all(
      callers.map((who, i) => api.as(who).patch(`/api/loans/${loan.id}`, { version: loan.version, lenderLoanNumber: `LN-${i}` })),
    );
    expect(versioned.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    const winner = versioned.find((r) => r.statusCode === 200)?.json<LoanDetail>();
    const after = (await api.as(team.owner).get(`/api/loans/${loan.id}`)).json<LoanDetail>();
    expect(after).toMatchObject({ version: loan.version + 1, lenderLoanNumber: winner?.lenderLoanNumber });

    for (const version of [null, '1', 0, 1.5]) {
      const bad = await api.as(team.owner).patch(`/api/loans/${loan.id}`, { version, lenderLoanNumber: 'LN-x' });
      expect(bad.statusCode, String(version)).toBe(400);
      expect(bad.json<{ errors: { field: string }[] }>().errors.map((e) => e.field)).toEqual(['version']);
    }
  });

  it('moves through the stages with notes, exits with a reason, reopens to where it left', async () => {
    const loan = await createLoan(api, team.teamId, team.owner);
    const move = (from: string, to: string, note?: string) => api.as(team.owner).post(`/api/loans/${loan.id}/stage`, { from, to, ...(note ? { note } : {}) });

    const toApplication = await move('lead', 'application', 'Application received');
    expect(toApplication.statusCode).toBe(200);
    // 0.6 × 1 ÷ 10 of the stage, and none of the checklist's required items approved yet.
    expect(toApplication.json<LoanDetail>()).toMatchObject({ stage: 'application', progress: 6, daysInStage: 0 });

    expect((await move('application', 'declined')).statusCode).toBe(400);
    const declined = await move('application', 'declined', 'DSCR below 1.0');
    expect(declined.json<LoanDetail>()).toMatchObject({ stage: 'declined', leftFromStage: 'application', progress: 6 });
    expect((await move('declined', 'underwriting')).statusCode).toBe(400);
    const reopened = await move('declined', 'application');
    expect(reopened.json<LoanDetail>()).toMatchObject({ stage: 'application', leftFromStage: null });
    expect(reopened.json<LoanDetail>().stageHistory.map((h) => h.to)).toEqual(['lead', 'application', 'declined', 'application']);
    expect(reopened.json<LoanDetail>().stageHistory[2]).toMatchObject({ note: 'DSCR below 1.0', by: { id: team.owner.userId } });
  });

  it('gives two concurrent stage moves one success and one clear conflict', async () => {
    const loan = await createLoan(api, team.teamId, team.owner);
    const [a, b] = await Promise.all([
      api.as(team.owner).post(`/api/loans/${loan.id}/stage`, { from: 'lead', to: 'application' }),
      api.as(assistant).post(`/api/loans/${loan.id}/stage`, { from: 'lead', to: 'underwriting' }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    const loser = a.statusCode === 409 ? a : b;
    expect(loser.json<{ detail: string }>().detail).toMatch(/moved to (Application|Underwriting) by someone else/);
    const after = (await api.as(team.owner).get(`/api/loans/${loan.id}`)).json<LoanDetail>();
    expect(after.stageHistory).toHaveLength(2);
  });

  it('archives (off the pipeline, restorable) and deletes only for owners who type the address', async () => {
    const loan = await createLoan(api, team.teamId, team.owner, { borrowerName: 'Archie Archive' });
    expect((await api.as(assistant).post(`/api/loans/${loan.id}/archive`)).statusCode).toBe(200);
    const open = (await api.as(team.owner).get(`${loansUrl()}?q=archie`)).json<PipelinePage>();
    expect(open.total).toBe(0);
    const archived = (await api.as(team.owner).get(`${loansUrl()}?q=archie&status=archived`)).json<PipelinePage>();
    expect(archived.rows.map((r) => r.id)).toEqual([loan.id]);
    expect((await api.as(team.owner).post(`/api/loans/${loan.id}/stage`, { from: 'lead', to: 'application' })).statusCode).toBe(409);
    expect((await api.as(assistant).post(`/api/loans/${loan.id}/restore`)).json<LoanDetail>().archivedAt).toBeNull();

    expect((await api.as(assistant).delete(`/api/loans/${loan.id}`, { confirmAddress: loan.propertyStreet })).statusCode).toBe(404);
    const wrong = await api.as(team.owner).delete(`/api/loans/${loan.id}`, { confirmAddress: '1 Other St' });
    expect(wrong.statusCode).toBe(400);
    expect((await api.as(team.owner).delete(`/api/loans/${loan.id}`, { confirmAddress: `  ${loan.propertyStreet.toUpperCase()} ` })).statusCode).toBe(204);
    expect((await api.as(team.owner).get(`/api/loans/${loan.id}`)).statusCode).toBe(404);
    const audit = await api.as(team.owner).get(`/api/teams/${team.teamId}/audit?action=loan.deleted`);
    expect(audit.json<{ events: { data: { loanId: string } }[] }>().events.map((i) => i.data.loanId)).toContain(loan.id);
  });

  it('searches, filters, sorts and counts the pipeline, and exports the view as CSV', async () => {
    const t = await createTeamWithOwner(api, { name: 'Pipeline Co' });
    const a = await createLoan(api, t.teamId, t.owner, {
      borrowerName: 'Zed Alpha',
      entityName: "Zed;=cmd|' /C calc'!A0;",
      lenderLoanNumber: 'LN-777',
      loanAmountCents: 100_000_00,
      targetClosingDate: '2020-01-01',
    });
    const b = await createLoan(api, t.teamId, t.owner, {
      borrowerName: 'Amy Beta',
      borrowerEmail: 'amy@beta.test',
      loanAmountCents: 200_000_00,
      assigneeId: t.owner.userId,
    });
    const c = await createLoan(api, t.teamId, t.owner, {
      borrowerName: '=HYPERLINK("x")',
      propertyCity: 'Denver',
      propertyState: 'CO',
      loanAmountCents: 150_000_00,
    });
    await api.as(t.owner).post(`/api/loans/${b.id}/stage`, { from: 'lead', to: 'underwriting' });
    const get = async (query: string) => {
      const response = await api.as(t.owner).get(`/api/teams/${t.teamId}/loans?${query}`);
      expect(response.statusCode).toBe(200);
      return response.json<PipelinePage>();
    };
    expect((await get('')).total).toBe(3);
    expect((await get('q=ln-777')).rows.map((r) => r.id)).toEqual([a.id]);
    expect((await get('q=amy%40beta')).rows.map((r) => r.id)).toEqual([b.id]);
    expect((await get('q=denver')).rows.map((r) => r.id)).toEqual([c.id]);
    expect((await get('q=%25')).total).toBe(0);
    expect((await get('stage=underwriting')).rows.map((r) => r.id)).toEqual([b.id]);
    const counts = (await get('stage=underwriting')).stageCounts;
    expect(counts).toEqual({ lead: 2, underwriting: 1 });
    expect((await get(`assignee=${t.owner.userId}`)).rows.map((r) => r.id)).toEqual([b.id]);
    expect((await get('assignee=none')).total).toBe(2);
    expect((await get('closing=overdue')).rows.map((r) => r.id)).toEqual([a.id]);
    expect((await get('sort=amount&dir=asc')).rows.map((r) => r.id)).toEqual([a.id, c.id, b.id]);
    expect((await get('sort=borrower')).rows.map((r) => r.borrowerName)).toEqual(['=HYPERLINK("x")', 'Amy Beta', 'Zed Alpha']);
    expect((await get('sort=stage&dir=desc')).rows[0]?.id).toBe(b.id);
    expect((await get('size=1&page=2&sort=amount&dir=asc')).rows.map((r) => r.id)).toEqual([c.id]);

    const bad = await api.as(t.owner).get(`/api/teams/${t.teamId}/loans?stage=nope&sort=x&page=0`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ errors: { field: string }[] }>().errors.map((e) => e.field)).toEqual(expect.arrayContaining(['stage', 'sort', 'page']));

    const csv = await api.as(t.owner).get(`/api/teams/${t.teamId}/loans.csv?sort=amount&dir=asc`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines).toHaveLength(4);
    // Every cell quoted, formulas defused at the start of a cell and behind a separator in it (spreadsheets that split on ;).
    expect(lines[0]).toMatch(/^"Borrower","Borrower e-mail","Entity",/);
    expect(lines[1]).toMatch(
      /^"Zed Alpha","dana@borrower\.test","Zed;'=cmd\|' \/C calc'!A0;","1200 Barton Springs Rd, Austin, TX 78704","Purchase","100000\.00",/,
    );
    expect(lines[2]).toMatch(/^"'=HYPERLINK\(""x""\)",/);
  });

  it('exports no cell that starts a formula, read as a `,` or a `;` spreadsheet reads it, quotes honoured or not (issue 22)', async () => {
    const t = await createTeamWithOwner(api, { name: 'Semicolon Lending' });
    const hostile = "Zed;=cmd|' /C calc'!A0;";
    // The reader finds the cell when nothing defuses it.
    expect(formulaCells(`"${hostile}"\r\n`)).not.toEqual([]);
    await createLoan(api, t.teamId, t.owner, {
      borrowerName: hostile,
      borrowerEmail: 'zed@semicolon.test',
      entityName: '+SUM(1);@A1,-2',
      propertyStreet: '1 Main St;=HYPERLINK("http://evil.test")',
      lenderLoanNumber: '-LN;\t=1',
    });
    const csv = await api.as(t.owner).get(`/api/teams/${t.teamId}/loans.csv`);
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain("Zed;'=cmd|' /C calc'!A0;");
    expect(formulaCells(csv.body)).toEqual([]);
    // Every cell quoted: the quoted reader sees 14 cells a line, the borrower's name whole.
    const cells = readCsvAs(csv.body, ',', 'quoted');
    expect(cells).toHaveLength(28);
    expect(cells[14]).toBe("Zed;'=cmd|' /C calc'!A0;");
  });

  it('shows a borrower their loan through the projection and only the shared activity', async () => {
    const loan = await createLoan(api, team.teamId, team.owner, { internalNotes: 'Borrower is slow with docs', assigneeId: assistant.userId });
    await api.as(team.owner).patch(`/api/loans/${loan.id}`, { version: loan.version, lenderLoanNumber: 'SECRET-1' });
    await api.as(team.owner).post(`/api/loans/${loan.id}/stage`, { from: 'lead', to: 'application', note: 'internal: check credit' });
    const borrower = await addBorrower(api, loan.id, { name: 'Bea Borrower' });
    const coBorrower = await addBorrower(api, loan.id, { name: 'Cody Coborrower', role: 'co_borrower' });

    const view = await api.as(borrower).get(`/api/loans/${loan.id}`);
    expect(view.statusCode).toBe(200);
    const body = view.json<LoanView>();
    expect(body.viewer).toBe('borrower');
    const text = view.body;
    for (const secret of ['Borrower is slow', 'SECRET-1', 'internal: check credit', 'dscr', 'thresholds', 'monthlyRentCents', 'valueCents'])
      expect(text).not.toContain(secret);
    expect(body).toMatchObject({
      stage: 'application',
      progress: 6,
      team: { name: 'Harbor Lending' },
      contact: { name: 'Asha Assistant', email: assistant.email },
    });

    // The borrower's feed: who did what as the projection says (the team's name for the team, a participant's own name), no ids.
    const feed = await api.as(borrower).get(`/api/loans/${loan.id}/activity`);
    const activity = feed.json<{ items: ActivityView[] }>().items;
    expect(activity.map((i) => [i.kind, i.actor, i.data])).toEqual([
      ['participant.joined', { name: 'Cody Coborrower' }, { name: 'Cody Coborrower', role: 'co_borrower' }],
      ['participant.joined', { name: 'Bea Borrower' }, { name: 'Bea Borrower', role: 'borrower' }],
      ['stage.changed', { name: 'Harbor Lending' }, { from: 'lead', to: 'application' }],
      ['loan.created', { name: 'Harbor Lending' }, { stage: 'lead' }],
    ]);
    for (const item of activity) expect(Object.keys(item).sort()).toEqual(['actor', 'at', 'data', 'id', 'kind', 'visibility']);
    for (const secret of ['internal: check credit', team.owner.userId, assistant.userId, borrower.userId, coBorrower.userId, team.owner.name, team.teamId])
      expect(feed.body, secret).not.toContain(secret);

    for (const [method, url, body] of [
      ['patch', `/api/loans/${loan.id}`, { borrowerName: 'x' }],
      ['post', `/api/loans/${loan.id}/stage`, { from: 'application', to: 'funded' }],
      ['post', `/api/loans/${loan.id}/archive`, undefined],
      ['delete', `/api/loans/${loan.id}`, { confirmAddress: loan.propertyStreet }],
    ] as const) {
      const response = await api.as(borrower)[method](url, body);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await api.as(borrower).get(loansUrl())).statusCode).toBe(404);
  });

  it('answers 404 to other teams and to malformed or unknown loan ids, exactly like an unknown route', async () => {
    const loan = await createLoan(api, team.teamId, team.owner);
    const unknown = await api.as(other.owner).get('/api/no-such-route');
    for (const url of [`/api/loans/${loan.id}`, '/api/loans/not-a-uuid', '/api/loans/00000000-0000-4000-8000-000000000000', `/api/loans/${loan.id}/activity`]) {
      const response = await api.as(other.owner).get(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.json<{ detail: string }>().detail.replace(url, '')).toBe(unknown.json<{ detail: string }>().detail.replace('/api/no-such-route', ''));
    }
    expect((await api.as(undefined).get(`/api/loans/${loan.id}`)).statusCode).toBe(401);
  });
});
