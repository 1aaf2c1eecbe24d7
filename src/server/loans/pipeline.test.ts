import { eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { EXIT_STAGES, loanProgress, MAIN_STAGES } from '../../shared/domain/loan-stages';
import type { ChecklistView } from '../../shared/schemas/checklist';
import type { PipelinePage, PipelineRow } from '../../shared/schemas/loans';
import { setupApi } from '../../test/api';
import { backends } from '../../test/databases';
import { createLoan, createTeamWithOwner, type Team } from '../../test/factories';
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
