import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { isDocumentExpired } from '../../shared/domain/checklist-status';
import type { ChecklistItemView, ChecklistView } from '../../shared/schemas/checklist';
import type { VersionView } from '../../shared/schemas/documents';
import type { ActivityPage } from '../../shared/schemas/loans';
import { setupApi } from '../../test/api';
import { backends } from '../../test/databases';
import { uploadVersion } from '../../test/documents';
import { addAssistant, addBorrower, createLoan, createTeamWithOwner, type Person, type Team } from '../../test/factories';
import { testJobWorker } from '../../test/jobs';
import { samplePdf } from '../../test/sample-files';
import { checklistItem, job, loan } from '../db/schema';
import { DAY_MS } from '../platform/jobs/worker';
import { EXPIRY_QUEUE, expireDocuments, todayUtc } from './expiry';

/** `days` after (or before, when negative) `date`, YYYY-MM-DD. */
function addDays(date: string, days: number) {
  const day = new Date(`${date}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() + days);
  return day.toISOString().slice(0, 10);
}

describe.each(backends)('expired documents on %s', (backend) => {
  const api = setupApi(backend);
  let harbor: Team;
  let assistant: Person;
  let borrower: Person;
  let statement: Buffer;
  const today = todayUtc();

  const base = (loanId: string, itemId: string) => `/api/loans/${loanId}/checklist/items/${itemId}`;
  const items = async (loanId: string, who: Person = harbor.owner) =>
    (await api.as(who).get(`/api/loans/${loanId}/checklist`)).json<ChecklistView>().items as ChecklistItemView[];
  const itemByKey = async (loanId: string, key: string) => (await items(loanId)).find((item) => item.key === key)!;

  /** Uploads a version to the item and approves it with `documentDate`; the approval's answer. */
  async function approveWith(loanId: string, key: string, documentDate: string) {
    const item = await itemByKey(loanId, key);
    const version: VersionView = await uploadVersion(api, harbor.owner, loanId, item.id, [{ name: `${key}.pdf`, bytes: statement }]);
    const fresh = await itemByKey(loanId, key);
    const approved = await api.as(assistant).post(`${base(loanId, item.id)}/versions/${version.id}/approve`, { version: fresh.version, documentDate });
    expect(approved.statusCode, approved.body).toBe(200);
    return { itemId: item.id, answer: approved.json<{ status: string; version: number; notice: string | null }>() };
  }

  const expiredRows = (loanId: string) =>
    api.db.execute(
      sql`select kind, visibility, data from activity where loan_id = ${loanId} and kind = 'checklist.item_expired' order by seq`,
    ) as unknown as Promise<{
      rows: { kind: string; visibility: string; data: Record<string, unknown> }[];
    }>;

  beforeAll(async () => {
    harbor = await createTeamWithOwner(api, { name: 'Harbor Lending' });
    assistant = await addAssistant(api, harbor.teamId);
    statement = await samplePdf('Checking account statement');
  });

  it('says in SQL what isDocumentExpired says in TypeScript, for every date, validity and closing around the edges', async () => {
    const cases: { documentDate: string; validityDays: number; mustBeGoodOn: string }[] = [];
    for (const documentDate of ['2024-02-28', '2024-02-29', '2025-12-31', '2026-03-01'])
      for (const validityDays of [0, 1, 30, 60, 90, 365])
        for (const offset of [-1, 0, 1, 2]) cases.push({ documentDate, validityDays, mustBeGoodOn: addDays(documentDate, validityDays + offset) });
    const values = sql.join(
      cases.map((c) => sql`(${c.documentDate}::date, ${c.validityDays}::integer, ${c.mustBeGoodOn}::date)`),
      sql`, `,
    );
    const result = (await api.db.execute(sql`select (d + v < g) as expired from (values ${values}) as t(d, v, g)`)) as unknown as {
      rows: { expired: boolean }[];
    };
    expect(result.rows.map((row) => row.expired)).toEqual(cases.map((c) => isDocumentExpired(c, c.mustBeGoodOn)));
  });

  it('approves a document already too old for the closing, then expires it at once and says why', async () => {
    const closing = addDays(today, 30);
    const loanId = (await createLoan(api, harbor.teamId, harbor.owner, { targetClosingDate: closing })).id;
    borrower = await addBorrower(api, loanId, { name: 'Dana Borrower' });
    // Bank statements are good for 60 days: one dated 40 days ago runs out 10 days before the closing.
    const documentDate = addDays(today, -40);
    const { itemId, answer } = await approveWith(loanId, 'bank-statements', documentDate);
    expect(answer.status).toBe('expired');
    expect(answer.notice).toBe(
      `Approved, but this document is good only through ${addDays(documentDate, 60)}, before the closing on ${closing}: it is expired. Ask for a newer one.`,
    );
    const item = await itemByKey(loanId, 'bank-statements');
    const reason = `This document, dated ${documentDate}, is good only through ${addDays(documentDate, 60)}, before the closing on ${closing}. A newer one is needed.`;
    expect(item).toMatchObject({ status: 'expired', documentDate, version: answer.version, reason });
    // Its line says why, for the borrower too (issue 22: it read Expired with no reason).
    expect((await items(loanId, borrower)).find((entry) => entry.id === itemId)).toMatchObject({ status: 'expired', reason });

    // The borrower reads both steps, the expiry without anybody's name.
    const page = (await api.as(borrower).get(`/api/loans/${loanId}/activity`)).json<ActivityPage>();
    const [expired, approved] = page.items;
    expect(approved).toMatchObject({ kind: 'document.approved' });
    expect(expired).toMatchObject({
      kind: 'checklist.item_expired',
      data: { itemId, label: item.label, documentDate, validThrough: addDays(documentDate, 60), mustBeGoodOn: closing },
    });
    // An expired item takes a newer document.
    const v2 = await uploadVersion(api, borrower, loanId, itemId, [{ name: 'newer.pdf', bytes: statement }]);
    expect(v2.number).toBe(2);
    expect(await itemByKey(loanId, 'bank-statements')).toMatchObject({ status: 'uploaded', reason: null });
  });

  it('keeps a document approved while it lasts past the closing, and expires it when the closing moves past its end', async () => {
    const created = await createLoan(api, harbor.teamId, harbor.owner, { targetClosingDate: addDays(today, 20) });
    const documentDate = addDays(today, -30); // good through today + 30
    const { answer } = await approveWith(created.id, 'bank-statements', documentDate);
    expect(answer).toMatchObject({ status: 'approved', notice: null });

    const current = (await api.as(harbor.owner).get(`/api/loans/${created.id}`)).json<{ version: number }>();
    const later = addDays(today, 45);
    const moved = await api.as(harbor.owner).patch(`/api/loans/${created.id}`, { version: current.version, targetClosingDate: later });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(await itemByKey(created.id, 'bank-statements')).toMatchObject({
      status: 'expired',
      reason: `This document, dated ${documentDate}, is good only through ${addDays(documentDate, 60)}, before the closing on ${later}. A newer one is needed.`,
    });
    const { rows } = await expiredRows(created.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.data).toMatchObject({ validThrough: addDays(documentDate, 60), mustBeGoodOn: later });
  });

  it('sweeps every loan at once, numbering each loan’s activity without gaps, and leaves closed, archived and open-ended ones alone', async () => {
    const loans = await Promise.all(
      ['open', 'second', 'funded', 'archived'].map(async () => (await createLoan(api, harbor.teamId, harbor.owner, { targetClosingDate: null })).id),
    );
    const [open, second, funded, archived] = loans as [string, string, string, string];
    for (const loanId of loans) {
      await approveWith(loanId, 'bank-statements', addDays(today, -10));
      await approveWith(loanId, 'flood-certificate', addDays(today, -10));
    }
    // The loan application (1003) has no validity: it never expires.
    await approveWith(open, 'application-1003', '2020-01-01');
    await api.db.update(loan).set({ stage: 'funded' }).where(eq(loan.id, funded));
    await api.db.update(loan).set({ archivedAt: new Date() }).where(eq(loan.id, archived));

    // Nothing has run out yet; in 60 days both statements have (90-day flood certificates have not).
    expect(await expireDocuments(api.db, today)).toEqual([]);
    const statements = await expireDocuments(api.db, addDays(today, 51));
    expect(statements.map((item) => item.loanId).sort()).toEqual([open, second].sort());
    const more = await expireDocuments(api.db, addDays(today, 81));
    expect(more.map((item) => [item.loanId, item.label]).sort()).toEqual(
      [
        [open, 'Flood certificate'],
        [second, 'Flood certificate'],
      ].sort(),
    );
    expect(await expireDocuments(api.db, addDays(today, 81))).toEqual([]);

    for (const loanId of [open, second]) {
      const { rows } = await expiredRows(loanId);
      expect(rows.map((row) => [row.data.label, row.visibility])).toEqual([
        ['Bank statements, last 2–3 months (reserves)', 'shared'],
        ['Flood certificate', 'internal'],
      ]);
      // Numbered without a gap or a repeat, after what the approvals wrote.
      const seqs = (await api.db.execute(sql`select seq from activity where loan_id = ${loanId} order by seq`)) as unknown as { rows: { seq: number }[] };
      expect(seqs.rows.map((row) => Number(row.seq))).toEqual(seqs.rows.map((_row, i) => i + 1));
    }
    const statusOf = async (loanId: string, label: string) =>
      (
        await api.db
          .select()
          .from(checklistItem)
          .where(and(eq(checklistItem.loanId, loanId), eq(checklistItem.label, label)))
      )[0]!.status;
    expect(await statusOf(open, 'Loan application (1003)')).toBe('approved');
    expect(await statusOf(funded, 'Bank statements, last 2–3 months (reserves)')).toBe('approved');
    expect(await statusOf(archived, 'Bank statements, last 2–3 months (reserves)')).toBe('approved');
  });

  it('runs once a day as the checklist’s recurring job, expiring what has run out by then', async () => {
    const run = await testJobWorker(api);
    const pending = () =>
      api.db
        .select()
        .from(job)
        .where(and(eq(job.queue, EXPIRY_QUEUE), eq(job.status, 'pending')));
    expect(await run.worker.scheduleOnce()).toContain(EXPIRY_QUEUE);
    const [queued] = await pending();
    expect(queued!.runAt.getTime() - Date.now()).toBeGreaterThan(DAY_MS - 60_000);

    // Its day comes: a document approved back then has run out by now.
    const loanId = (await createLoan(api, harbor.teamId, harbor.owner)).id;
    await approveWith(loanId, 'bank-statements', addDays(today, -5));
    await api.db
      .update(checklistItem)
      .set({ documentDate: addDays(today, -61) })
      .where(and(eq(checklistItem.loanId, loanId), eq(checklistItem.key, 'bank-statements')));
    await api.db.update(job).set({ runAt: new Date() }).where(eq(job.id, queued!.id));
    await run.drain();
    expect((await api.db.select().from(job).where(eq(job.id, queued!.id)))[0]!.status).toBe('done');
    expect((await itemByKey(loanId, 'bank-statements')).status).toBe('expired');
    // The next run is queued a day on, and only one.
    expect(await run.worker.scheduleOnce()).toContain(EXPIRY_QUEUE);
    expect(await run.worker.scheduleOnce()).not.toContain(EXPIRY_QUEUE);
    expect(await pending()).toHaveLength(1);
  });
});
