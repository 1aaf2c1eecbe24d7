import { eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { EXIT_STAGES, loanProgress, MAIN_STAGES } from '../../shared/domain/loan-stages';
import type { ChecklistView } from '../../shared/schemas/checklist';
import type { CommentView, ReadCursorView } from '../../shared/schemas/comments';
import type { PipelinePage, PipelineRow } from '../../shared/schemas/loans';
import type { MyLoans } from '../../shared/schemas/participants';
import { setupApi } from '../../test/api';
import { backends } from '../../test/databases';
import { addAssistant, addBorrower, createLoan, createTeamWithOwner, type Person, type Team } from '../../test/factories';
import { refreshLoanDocumentCounts } from '../checklist/document-counts';
import { checklistItem, loan } from '../db/schema';
import { progressSortKey } from './loans.queries';

describe.each(backends)('the pipeline’s outstanding documents and progress on %s', (backend) => {
  const api = setupApi(backend);
  let team: Team;
  /** Loans by name: a and b fresh (a tie), c with two items waived, d with one removed, e with every required item waived. */
  const loans: Record<'a' | 'b' | 'c' | 'd' | 'e', string> = { a: '', b: '', c: '', d: '', e: '' };
  let required = 0;

  const get = async (query: string) => {
    const response = await api.as(team.owner).get(`/api/teams/${team.teamId}/loans?${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<PipelinePage>();
  };
  const requiredItems = async (loanId: string) =>
    (await api.as(team.owner).get(`/api/loans/${loanId}/checklist`)).json<ChecklistView>().items.filter((item) => item.required);
  const waive = (loanId: string, item: { id: string; version: number }) =>
    api.as(team.owner).post(`/api/loans/${loanId}/checklist/items/${item.id}/waive`, { version: item.version, reason: 'Not for this deal' });
  const byId = (dir: 'asc' | 'desc') => (x: PipelineRow, y: PipelineRow) => (dir === 'asc' ? x.id.localeCompare(y.id) : y.id.localeCompare(x.id));

  beforeAll(async () => {
    team = await createTeamWithOwner(api, { name: 'Sorting Co' });
    for (const name of Object.keys(loans) as (keyof typeof loans)[])
      loans[name] = (await createLoan(api, team.teamId, team.owner, { borrowerName: `Borrower ${name}` })).id;
    const items = await requiredItems(loans.c);
    required = items.length;
    for (const item of items.slice(0, 2)) expect((await waive(loans.c, item)).statusCode).toBe(200);
    const [removed] = await requiredItems(loans.d);
    expect((await api.as(team.owner).delete(`/api/loans/${loans.d}/checklist/items/${removed!.id}`, { version: removed!.version })).statusCode).toBe(204);
    for (const item of await requiredItems(loans.e)) expect((await waive(loans.e, item)).statusCode).toBe(200);
  });

  it('fills the column with the required items still open', async () => {
    const rows = (await get('')).rows;
    const outstanding = Object.fromEntries(rows.map((row) => [row.id, row.outstandingDocuments]));
    expect(required).toBeGreaterThan(5);
    expect(outstanding).toEqual({ [loans.a]: required, [loans.b]: required, [loans.c]: required - 2, [loans.d]: required - 1, [loans.e]: 0 });
    const e = rows.find((row) => row.id === loans.e)!;
    // Nothing left to ask for and nothing approved: progress is the stage's (Lead, 0).
    expect(e).toMatchObject({ requiredDocuments: 0, approvedDocuments: 0, outstandingDocuments: 0, progress: 0 });
  });

  it('sorts by outstanding documents either way, ties by id, and pages through the same order', async () => {
    const ties = (dir: 'asc' | 'desc') =>
      [loans.a, loans.b]
        .map((id) => ({ id }) as PipelineRow)
        .sort(byId(dir))
        .map((row) => row.id);
    const asc = (await get('sort=outstanding&dir=asc')).rows.map((row) => row.id);
    expect(asc).toEqual([loans.e, loans.c, loans.d, ...ties('asc')]);
    expect((await get('sort=outstanding')).rows.map((row) => row.id)).toEqual(asc); // ascending by default: fewest first
    const desc = (await get('sort=outstanding&dir=desc')).rows.map((row) => row.id);
    expect(desc).toEqual([...ties('desc'), loans.d, loans.c, loans.e]);
    for (const dir of ['asc', 'desc'] as const) {
      const paged: string[] = [];
      for (let page = 1; page <= 3; page++) paged.push(...(await get(`sort=outstanding&dir=${dir}&size=2&page=${page}`)).rows.map((row) => row.id));
      expect(paged).toEqual(dir === 'asc' ? asc : desc);
    }
  });

  it('sorts by the progress each row shows, documents included, ties by id', async () => {
    // a: three required items approved (by a review); b: at Underwriting with none approved.
    const approved = (await requiredItems(loans.a)).slice(0, 3);
    await api.db.transaction(async (tx) => {
      for (const item of approved) await tx.update(checklistItem).set({ status: 'approved' }).where(eq(checklistItem.id, item.id));
      await refreshLoanDocumentCounts(tx, loans.a);
    });
    expect((await api.as(team.owner).post(`/api/loans/${loans.b}/stage`, { from: 'lead', to: 'underwriting' })).statusCode).toBe(200);
    for (const dir of ['asc', 'desc'] as const) {
      const rows = (await get(`sort=progress&dir=${dir}`)).rows;
      const expected = [...rows].sort((x, y) =>
        x.progress === y.progress ? byId(dir)(x, y) : dir === 'asc' ? x.progress - y.progress : y.progress - x.progress,
      );
      expect(rows.map((row) => [row.id, row.progress])).toEqual(expected.map((row) => [row.id, row.progress]));
    }
    const progress = Object.fromEntries((await get('')).rows.map((row) => [row.id, row.progress]));
    expect(progress[loans.a]).toBe(loanProgress('lead', { requiredItems: required, approvedRequiredItems: 3 }));
    expect(progress[loans.a]).toBeGreaterThan(0);
    expect(progress[loans.b]).toBe(loanProgress('underwriting', { requiredItems: required, approvedRequiredItems: 0 }));
  });

  it('computes in SQL the same progress loanProgress computes, for every stage and count', async () => {
    const [probe] = await api.db.select({ id: loan.id }).from(loan).where(eq(loan.id, loans.d));
    const stage = fc.oneof(
      fc.constantFrom(...MAIN_STAGES).map((at) => ({ stage: at, leftFromStage: null })),
      fc.record({ stage: fc.constantFrom(...EXIT_STAGES), leftFromStage: fc.constantFrom(...MAIN_STAGES) }),
    );
    const counts = fc
      .integer({ min: 0, max: 60 })
      .chain((requiredItems) => fc.record({ requiredItems: fc.constant(requiredItems), approvedItems: fc.integer({ min: 0, max: requiredItems }) }));
    await fc.assert(
      fc.asyncProperty(stage, counts, async (at, count) => {
        const [row] = await api.db
          .update(loan)
          .set({ ...at, ...count, borrowerRequiredItems: 0, borrowerApprovedItems: 0 })
          .where(eq(loan.id, probe!.id))
          .returning({ key: sql<number>`${progressSortKey}` });
        expect(Number(row!.key)).toBe(
          loanProgress(at.stage, { leftFrom: at.leftFromStage, requiredItems: count.requiredItems, approvedRequiredItems: count.approvedItems }),
        );
      }),
      { numRuns: 200 },
    );
    // Back as it was, for the other tests.
    await api.db.update(loan).set({ stage: 'lead', leftFromStage: null }).where(eq(loan.id, probe!.id));
    await api.db.transaction((tx) => refreshLoanDocumentCounts(tx, probe!.id));
  });

  it('exports the column in the CSV', async () => {
    const csv = await api.as(team.owner).get(`/api/teams/${team.teamId}/loans.csv?sort=outstanding&dir=asc`);
    expect(csv.statusCode).toBe(200);
    const [header, ...lines] = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    const columns = header!.split(',');
    const at = columns.indexOf('"Outstanding docs"');
    expect(columns[at - 1]).toBe('"Progress %"');
    const rows = (await get('sort=outstanding&dir=asc')).rows;
    expect(lines.map((line) => line.split('","')[at]?.replace(/"/g, ''))).toEqual(rows.map((row) => String(row.outstandingDocuments)));
  });
});

describe.each(backends)('unread comment badges on the pipeline and on My loans on %s', (backend) => {
  const api = setupApi(backend);
  let team: Team;
  let assistant: Person;
  let borrower: Person;
  /** a: the borrower's loan, with a discussion; b: the team's notes only; c: no comments. */
  const loans: Record<'a' | 'b' | 'c', string> = { a: '', b: '', c: '' };

  const post = async (who: Person, loanId: string, body: object) => {
    const response = await api.as(who).post(`/api/loans/${loanId}/comments`, { body: 'A comment', ...body });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<CommentView>();
  };
  const readToEnd = async (who: Person, loanId: string) => {
    const { latestCursor } = (await api.as(who).get(`/api/loans/${loanId}/read-cursor`)).json<ReadCursorView>();
    expect((await api.as(who).put(`/api/loans/${loanId}/read-cursor`, { cursor: latestCursor })).statusCode).toBe(200);
  };
  /** Each loan's badge on the pipeline for `who`, read a page of one row at a time (the count belongs to its page's row). */
  const badges = async (who: Person) => {
    const counts: Record<string, number> = {};
    for (let page = 1; page <= 3; page++) {
      const response = await api.as(who).get(`/api/teams/${team.teamId}/loans?size=1&page=${page}&sort=borrower`);
      expect(response.statusCode, response.body).toBe(200);
      for (const row of response.json<PipelinePage>().rows) counts[row.id] = row.unreadComments;
    }
    return { a: counts[loans.a], b: counts[loans.b], c: counts[loans.c] };
  };
  const myLoans = async (who: Person) =>
    Object.fromEntries((await api.as(who).get('/api/my-loans')).json<MyLoans>().loans.map((card) => [card.id, card.unreadComments]));

  beforeAll(async () => {
    team = await createTeamWithOwner(api, { name: 'Badges Co' });
    assistant = await addAssistant(api, team.teamId, { name: 'Asha Assistant' });
    for (const name of Object.keys(loans) as (keyof typeof loans)[])
      loans[name] = (await createLoan(api, team.teamId, team.owner, { borrowerName: `Borrower ${name}` })).id;
    borrower = await addBorrower(api, loans.a, { name: 'Bea Borrower' });
  });

  it('counts, for each person, the comments by others after their read cursor: the team every one, a borrower the shared ones', async () => {
    expect(await badges(team.owner)).toEqual({ a: 0, b: 0, c: 0 });
    await post(assistant, loans.a, { body: 'Statements received, thanks' });
    await post(assistant, loans.a, { body: 'Lender wants 6 months of reserves', visibility: 'internal' });
    await post(assistant, loans.b, { body: 'Title shows an old HELOC', visibility: 'internal' });
    // Their own comments are no news to them.
    expect(await badges(team.owner)).toEqual({ a: 2, b: 1, c: 0 });
    expect(await badges(assistant)).toEqual({ a: 0, b: 0, c: 0 });
    // The borrower counts the shared one only: nothing internal shows, not even as a number.
    expect(await myLoans(borrower)).toEqual({ [loans.a]: 1 });

    const question = await post(borrower, loans.a, { body: 'Does the business account count?' });
    expect(await badges(team.owner)).toEqual({ a: 3, b: 1, c: 0 });
    expect(await badges(assistant)).toEqual({ a: 1, b: 0, c: 0 });
    expect(await myLoans(borrower)).toEqual({ [loans.a]: 1 });

    // Reading the loan clears its badge for that person only; a deleted comment is not counted.
    await readToEnd(team.owner, loans.a);
    expect(await badges(team.owner)).toEqual({ a: 0, b: 1, c: 0 });
    expect((await api.as(borrower).delete(`/api/loans/${loans.a}/comments/${question.id}`)).statusCode).toBe(204);
    expect(await badges(assistant)).toEqual({ a: 0, b: 0, c: 0 });

    await post(team.owner, loans.a, { body: 'Either counts' });
    expect(await badges(assistant)).toEqual({ a: 1, b: 0, c: 0 });
    expect(await myLoans(borrower)).toEqual({ [loans.a]: 2 });
    await readToEnd(borrower, loans.a);
    expect(await myLoans(borrower)).toEqual({ [loans.a]: 0 });
    // An internal note after the borrower's cursor moves nothing on their card.
    await post(assistant, loans.a, { body: 'Borrower is slow to answer', visibility: 'internal' });
    expect(await myLoans(borrower)).toEqual({ [loans.a]: 0 });
    // The owner read loan a before their own answer: the assistant's note is the one thing new.
    expect(await badges(team.owner)).toEqual({ a: 1, b: 1, c: 0 });
  });
});
