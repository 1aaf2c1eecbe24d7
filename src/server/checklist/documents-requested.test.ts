import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ChecklistItemView, ChecklistView } from '../../shared/schemas/checklist';
import { setupApi } from '../../test/api';
import { backends } from '../../test/databases';
import { addBorrower, createLoan, createTeamWithOwner, type Person, type Team } from '../../test/factories';
import { job, loanParticipant } from '../db/schema';
import { JobWorker } from '../platform/jobs/worker';
import { MAIL_QUEUE, mailJobHandler } from '../platform/mail/mail-jobs';
import { createFileMailer } from '../platform/mail/mailer';
import { DOCUMENTS_REQUESTED_QUEUE, documentsRequestedJob, REQUEST_MAIL_DELAY_MS } from './documents-requested';

const silent = { info() {}, warn() {}, error() {} };

/*
 * "Documents requested": at most one mail per borrower per loan within 15
 * minutes of the last request, later requests joining it, written from the
 * checklist as it is when it goes. Time moves by the jobs' run_at: the test
 * makes a waiting job due instead of waiting 15 minutes.
 */
describe.each(backends)('the documents-requested mail on %s', (backend) => {
  const api = setupApi(backend);
  let harbor: Team;
  let loanId: string;
  let dana: Person;
  let cole: Person;
  let dir: string;
  let worker: JobWorker;

  beforeAll(async () => {
    harbor = await createTeamWithOwner(api, { name: 'Harbor Lending' });
    loanId = (await createLoan(api, harbor.teamId, harbor.owner, { propertyStreet: '12 Pier Road' })).id;
    dana = await addBorrower(api, loanId, { name: 'Dana Borrower', email: 'dana.requested@example.com' });
    cole = await addBorrower(api, loanId, { name: 'Cole Borrower', email: 'cole.requested@example.com', role: 'co_borrower' });
    dir = await mkdtemp(path.join(tmpdir(), 'coverly-requested-'));
    const mailer = createFileMailer({ dir, from: api.config.mailFrom, logger: silent });
    const handlers = { [MAIL_QUEUE]: mailJobHandler(mailer), [DOCUMENTS_REQUESTED_QUEUE]: documentsRequestedJob({ db: api.db, config: api.config }) };
    worker = new JobWorker({ db: api.db, handlers, logger: silent });
  });
  beforeEach(async () => {
    // Each test starts with nothing waiting and an empty mail drop.
    while ((await worker.runOnce()) > 0);
    await api.db.delete(job).where(eq(job.queue, DOCUMENTS_REQUESTED_QUEUE));
    await rm(dir, { recursive: true, force: true });
  });

  const addItem = async (label: string, extra: Record<string, unknown> = {}) => {
    const added = await api.as(harbor.owner).post(`/api/loans/${loanId}/checklist/items`, { label, category: 'property', ...extra });
    expect(added.statusCode, added.body).toBe(201);
    return added.json<ChecklistItemView>();
  };
  const waiting = () =>
    api.db
      .select()
      .from(job)
      .where(and(eq(job.queue, DOCUMENTS_REQUESTED_QUEUE), eq(job.status, 'pending')));
  /** The 15 minutes pass: every waiting mail is due. */
  const timePasses = () =>
    api.db
      .update(job)
      .set({ runAt: sql`now()` })
      .where(and(eq(job.queue, DOCUMENTS_REQUESTED_QUEUE), eq(job.status, 'pending')));
  async function mailsTo(email: string) {
    while ((await worker.runOnce()) > 0);
    const files = await readdir(dir).catch(() => [] as string[]);
    const found: { subject: string; text: string }[] = [];
    for (const file of files.filter((f) => f.endsWith('.txt')).sort()) {
      const txt = await readFile(path.join(dir, file), 'utf8');
      if (!txt.startsWith(`To: ${email}\n`)) continue;
      const [head = '', body = ''] = txt.split(/\n\n([\s\S]*)/);
      found.push({ subject: /^Subject: (.*)$/m.exec(head)?.[1] ?? '', text: body });
    }
    return found;
  }

  it('joins three requests made minutes apart into one mail per borrower, sent 15 minutes after the last', async () => {
    /** Some minutes pass: the waiting mails are that much nearer. */
    const minutesPass = (minutes: number) =>
      api.db
        .update(job)
        .set({ runAt: sql`${job.runAt} - ${`${minutes} minutes`}::interval` })
        .where(and(eq(job.queue, DOCUMENTS_REQUESTED_QUEUE), eq(job.status, 'pending')));
    const lease = await addItem('Lease for unit A');
    await minutesPass(6);
    const roll = await addItem('Rent roll, December', { dueDate: '2026-12-01' });
    await minutesPass(6);
    const insurance = await addItem('Flood insurance declaration');
    await minutesPass(6);
    // 18 minutes after the first request, 6 after the last: nothing has gone yet.
    expect(await mailsTo('dana.requested@example.com')).toEqual([]);
    // Nothing for what borrowers do not provide or do not see.
    await addItem('Survey', { provider: 'third_party' });
    await addItem('Underwriter notes', { borrowerVisible: false });

    const jobs = await waiting();
    expect(jobs.map((j) => j.dedupKey).sort()).toEqual([`${loanId}:${cole.userId}`, `${loanId}:${dana.userId}`].sort());
    for (const pending of jobs) {
      expect((pending.payload as { itemIds: string[] }).itemIds).toEqual([lease.id, roll.id, insurance.id]);
      // Each request moved the mail to 15 minutes after itself: it goes 9 minutes from now.
      expect(Math.abs(pending.runAt.getTime() - Date.now() - (REQUEST_MAIL_DELAY_MS - 6 * 60_000))).toBeLessThan(30_000);
    }

    await timePasses();
    const [mail, ...more] = await mailsTo('dana.requested@example.com');
    expect(more).toEqual([]);
    expect(mail?.subject).toBe('Harbor Lending: 3 documents requested');
    expect(mail?.text).toContain('Harbor Lending needs 3 documents from you for your loan for 12 Pier Road, Austin, TX 78704:');
    expect(mail?.text).toContain('• Lease for unit A\n• Rent roll, December (due December 1, 2026)\n• Flood insurance declaration');
    expect(mail?.text).toContain(`${api.config.publicUrl}/app/loans/${loanId}`);
    for (const internal of ['Survey', 'Underwriter notes']) expect(mail?.text).not.toContain(internal);
    expect(await mailsTo('cole.requested@example.com')).toHaveLength(1);
  });

  it('writes the mail from the checklist as it is when it goes: an item waived meanwhile is left out, none left sends nothing', async () => {
    const one = await addItem('Voided check');
    await addItem('Utility bill');
    const waived = await api.as(harbor.owner).post(`/api/loans/${loanId}/checklist/items/${one.id}/waive`, { version: one.version, reason: 'Not needed' });
    expect(waived.statusCode, waived.body).toBe(200);
    await timePasses();
    const [mail] = await mailsTo('dana.requested@example.com');
    expect(mail?.subject).toBe('Harbor Lending: please upload Utility bill');
    expect(mail?.text).not.toContain('Voided check');

    const three = await addItem('Tax bill');
    await api.as(harbor.owner).delete(`/api/loans/${loanId}/checklist/items/${three.id}`, { version: three.version });
    await timePasses();
    expect(await mailsTo('dana.requested@example.com')).toHaveLength(1);
  });

  it('sends a new mail for a request after the window, for items asked for again (reopened, "not applicable" sent back)', async () => {
    const item = await addItem('Articles of incorporation');
    await timePasses();
    expect(await mailsTo('dana.requested@example.com')).toHaveLength(1);

    const current = (await api.as(harbor.owner).get(`/api/loans/${loanId}/checklist`))
      .json<ChecklistView<ChecklistItemView>>()
      .items.find((i) => i.id === item.id)!;
    const claimed = await api
      .as(dana)
      .post(`/api/loans/${loanId}/checklist/items/${item.id}/not-applicable`, { version: current.version, reason: 'No entity' });
    expect(claimed.statusCode, claimed.body).toBe(200);
    expect(await waiting()).toEqual([]);
    const sentBack = await api
      .as(harbor.owner)
      .post(`/api/loans/${loanId}/checklist/items/${item.id}/not-applicable/reject`, { version: claimed.json().version });
    expect(sentBack.statusCode, sentBack.body).toBe(200);
    await timePasses();
    const mails = await mailsTo('dana.requested@example.com');
    expect(mails).toHaveLength(2);
    expect(mails[1]?.text).toContain('Articles of incorporation');

    const waived = await api
      .as(harbor.owner)
      .post(`/api/loans/${loanId}/checklist/items/${item.id}/waive`, { version: sentBack.json().version, reason: 'Later' });
    const reopened = await api.as(harbor.owner).post(`/api/loans/${loanId}/checklist/items/${item.id}/reopen`, { version: waived.json().version });
    expect(reopened.statusCode, reopened.body).toBe(200);
    await timePasses();
    expect(await mailsTo('dana.requested@example.com')).toHaveLength(3);
  });

  it('sends nothing to a borrower removed from the loan before the mail went', async () => {
    await addItem('Insurance binder');
    await api.db.delete(loanParticipant).where(and(eq(loanParticipant.loanId, loanId), eq(loanParticipant.userId, cole.userId)));
    await timePasses();
    expect(await mailsTo('cole.requested@example.com')).toEqual([]);
    expect(await mailsTo('dana.requested@example.com')).toHaveLength(1);
  });
});
