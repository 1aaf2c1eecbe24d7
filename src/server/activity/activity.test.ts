import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { CreateLoanSchema, type ActivityPage, type LoanInput } from '../../shared/schemas/loans';
import { sampleLoan } from '../../test/sample-loan';
import { setupApi } from '../../test/api';
import { backends, createTestDatabase } from '../../test/databases';
import { addBorrower, createLoan, createTeamWithOwner, type Person, type Team } from '../../test/factories';
import { openDatabase } from '../db/client';
import { activity, loan, team } from '../db/schema';
import { loanColumnsOf } from '../loans/loan-record';
import { ACTIVITY_PAGE_SIZE, activityAfter, recordActivity } from './activity-log';

describe.each(backends)('the activity log on %s', (backend) => {
  const api = setupApi(backend);
  let harbor: Team;
  let loanId: string;
  let borrower: Person;

  beforeAll(async () => {
    harbor = await createTeamWithOwner(api, { name: 'Harbor Lending' });
    loanId = (await createLoan(api, harbor.teamId, harbor.owner)).id;
    borrower = await addBorrower(api, loanId);
  });

  it("numbers each loan's rows 1, 2, 3… and its shared rows apart, touching the loan's last activity", async () => {
    const other = (await createLoan(api, harbor.teamId, harbor.owner)).id;
    const before = await api.db.select({ seq: loan.activitySeq, shared: loan.sharedActivitySeq, at: loan.lastActivityAt }).from(loan).where(eq(loan.id, other));
    expect(before[0]).toMatchObject({ seq: 1, shared: 1 }); // loan.created, shared
    const seqs = await recordActivity(api.db, other, [
      { actorId: harbor.owner.userId, kind: 'loan.updated', visibility: 'internal', data: { changes: [] } },
      { actorId: harbor.owner.userId, kind: 'stage.changed', visibility: 'shared', data: { from: 'lead', to: 'application' } },
    ]);
    expect(seqs).toEqual([2, 3]);
    const rows = await api.db
      .select({ seq: activity.seq, shared: activity.sharedSeq, kind: activity.kind })
      .from(activity)
      .where(eq(activity.loanId, other))
      .orderBy(activity.seq);
    expect(rows).toEqual([
      { seq: 1, shared: 1, kind: 'loan.created' },
      { seq: 2, shared: null, kind: 'loan.updated' },
      { seq: 3, shared: 2, kind: 'stage.changed' },
    ]);
    const [after] = await api.db
      .select({ seq: loan.activitySeq, shared: loan.sharedActivitySeq, at: loan.lastActivityAt })
      .from(loan)
      .where(eq(loan.id, other));
    expect(after).toMatchObject({ seq: 3, shared: 2 });
    expect(after!.at.getTime()).toBeGreaterThanOrEqual(before[0]!.at.getTime());
    expect(await activityAfter(api.db, other, 'team', 1)).toMatchObject([{ cursor: 2 }, { cursor: 3 }]);
    expect(await activityAfter(api.db, other, 'borrowers', 1)).toMatchObject([{ cursor: 2, kind: 'stage.changed' }]);
  });

  it('refuses a shared row of a kind borrowers cannot read, which would leave a gap in their count', async () => {
    await expect(recordActivity(api.db, loanId, { actorId: null, kind: 'loan.updated', visibility: 'shared' })).rejects.toThrow(
      'borrower projection has no entry',
    );
  });

  it('writes nothing for a loan that does not exist', async () => {
    expect(await recordActivity(api.db, '00000000-0000-4000-8000-000000000000', { actorId: null, kind: 'loan.updated', visibility: 'internal' })).toEqual([]);
  });

  it("gives borrowers a gapless count of the shared rows, so internal ones leave no trace in their ids, and pages by each reader's own cursor", async () => {
    const id = (await createLoan(api, harbor.teamId, harbor.owner)).id;
    const guest = await addBorrower(api, id);
    // Internal and shared rows interleaved, more than two pages of them.
    for (let i = 0; i < ACTIVITY_PAGE_SIZE + 10; i++) {
      await recordActivity(api.db, id, [
        { actorId: harbor.owner.userId, kind: 'loan.updated', visibility: 'internal', data: { changes: [{ field: 'notes', from: null, to: `n${i}` }] } },
        { actorId: harbor.owner.userId, kind: 'stage.changed', visibility: 'shared', data: { from: 'lead', to: 'application', note: 'internal note' } },
      ]);
    }
    const read = async (who: Person) => {
      const ids: number[] = [];
      let url = `/api/loans/${id}/activity`;
      for (;;) {
        const response = await api.as(who).get(url);
        expect(response.statusCode, response.body).toBe(200);
        const page = response.json() as ActivityPage;
        ids.push(...page.items.map((item) => item.id));
        if (page.nextBefore === null) return { ids, last: page };
        url = `/api/loans/${id}/activity?before=${page.nextBefore}`;
      }
    };
    const team = await read(harbor.owner);
    const shared = await read(guest);
    const total = 2 + 2 * (ACTIVITY_PAGE_SIZE + 10); // created, joined, then the pairs
    expect(team.ids).toEqual(Array.from({ length: total }, (_, i) => total - i));
    const sharedTotal = 2 + ACTIVITY_PAGE_SIZE + 10;
    expect(shared.ids).toEqual(Array.from({ length: sharedTotal }, (_, i) => sharedTotal - i));
    expect(JSON.stringify(shared.last)).not.toContain('internal note');
  });

  it('refuses a cursor that is not a positive whole number, naming it', async () => {
    for (const before of ['0', '-1', 'abc', '1.5', '99999999999']) {
      const response = await api.as(borrower).get(`/api/loans/${loanId}/activity?before=${before}`);
      expect(response.statusCode, before).toBe(400);
      expect(response.json().errors?.[0]?.field ?? response.body, before).toContain('before');
    }
  });
});

// Several writers on their own connections, each holding its transaction open a little after taking its number,
// while a reader polls "after my cursor": with ids taken at insert a late commit would be skipped; with the
// per-loan sequence taken under the loan's row lock, the reader sees every row exactly once, in order.
describe.skipIf(!process.env.TEST_DATABASE_URL)('the activity cursor under concurrent writers on PostgreSQL', () => {
  it('never lets a reader polling after its cursor miss or repeat a row', async () => {
    const test = await createTestDatabase('postgres');
    const writers = await Promise.all([1, 2, 3, 4].map(() => openDatabase({ kind: 'postgres', url: test.url!, poolSize: 1 })));
    try {
      const [race] = await test.db.insert(team).values({ name: 'Race Lending' }).returning({ id: team.id });
      const fields = { ...loanColumnsOf(CreateLoanSchema.parse(sampleLoan()) as LoanInput), teamId: race!.id } as typeof loan.$inferInsert;
      const loans = (await test.db.insert(loan).values([fields, fields]).returning({ id: loan.id })).map((row) => row.id);
      const perWriter = 40;
      const seen = new Map(loans.map((id) => [id, [] as number[]]));
      const cursors = new Map(loans.map((id) => [id, 0]));
      let writing = true;
      const reader = (async () => {
        const poll = async () => {
          for (const id of loans) {
            const rows = await activityAfter(test.db, id, 'team', cursors.get(id)!);
            for (const row of rows) seen.get(id)!.push(row.cursor);
            if (rows.length) cursors.set(id, rows.at(-1)!.cursor);
          }
        };
        while (writing) await poll();
        await poll();
      })();
      await Promise.all(
        writers.map(async (writer, w) => {
          for (let i = 0; i < perWriter; i++) {
            const id = loans[(w + i) % loans.length]!;
            await writer.db.transaction(async (tx) => {
              await recordActivity(tx, id, {
                actorId: null,
                kind: i % 3 ? 'loan.updated' : 'stage.changed',
                visibility: i % 3 ? 'internal' : 'shared',
                data: { w, i },
              });
              // Hold the transaction open a moment after the row is written, as a slow request would.
              await tx.execute(sql`select pg_sleep(${(Math.random() * 4) / 1000})`);
            });
          }
        }),
      );
      writing = false;
      await reader;
      const written = (writers.length * perWriter) / loans.length;
      for (const id of loans) expect(seen.get(id)).toEqual(Array.from({ length: written }, (_, i) => i + 1));
    } finally {
      await Promise.all(writers.map((writer) => writer.close()));
      await test.destroy();
    }
  }, 60_000);
});
