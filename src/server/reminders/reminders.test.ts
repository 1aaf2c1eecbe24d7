import { and, eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setupApi } from '../../test/api';
import { backends } from '../../test/databases';
import { addAssistant, addBorrower, createLoan, createTeamWithOwner, type Person, type Team } from '../../test/factories';
import { SmtpPeer, waitFor } from '../../test/smtp-peer';
import type { JobContext } from '../app-context';
import { openDatabase } from '../db/client';
import { activity, checklistItem, job, notification, type ChecklistItemRow } from '../db/schema';
import { enqueueJob } from '../platform/jobs/outbox';
import { JobWorker } from '../platform/jobs/worker';
import { MAIL_QUEUE, mailJobHandler } from '../platform/mail/mail-jobs';
import { createSmtpMailer } from '../platform/mail/mailer';
import { jobSetup } from '../runtime';
import { REMINDERS_QUEUE, remindersJobHandler } from './reminders.routes';
import { remindLoan, remindersView } from './reminders.service';

const silent = { info() {}, warn() {}, error() {} };
const ZONE = 'Pacific/Auckland';
/** A moment on the wall clock in Auckland (UTC+13 in December). */
const auckland = (stamp: string) => new Date(`${stamp}+13:00`);

/*
 * Reminders for owed documents, on both databases, with mail delivered to a
 * real SMTP server. Time is the clock the reminder job is given: the test
 * moves it through December 2026 in a team whose zone is far from UTC.
 */
describe.each(backends)('reminders on %s', (backend) => {
  const api = setupApi(backend);
  const smtp = new SmtpPeer();
  let harbor: Team;
  let assistant: Person;
  let loanId: string;
  let dana: Person;
  let cole: Person;
  let clock = auckland('2026-12-01T10:00:00');
  let worker: JobWorker;

  beforeAll(async () => {
    await smtp.start();
    harbor = await createTeamWithOwner(api, { name: 'Harbor Lending' });
    assistant = await addAssistant(api, harbor.teamId);
    const zone = await api.as(harbor.owner).patch(`/api/teams/${harbor.teamId}`, { timeZone: ZONE });
    expect(zone.statusCode, zone.body).toBe(200);
    loanId = (await createLoan(api, harbor.teamId, harbor.owner, { propertyStreet: '12 Pier Road' })).id;
    dana = await addBorrower(api, loanId, { name: 'Dana Borrower', email: 'dana.reminded@example.com' });
    cole = await addBorrower(api, loanId, { name: 'Cole Borrower', email: 'cole.reminded@example.com', role: 'co_borrower' });
    const mailer = createSmtpMailer({ url: smtp.url, from: api.config.mailFrom });
    const context: JobContext = { config: api.config, db: api.db, mailer, files: api.files, logger: silent };
    // Every queue's real handler; the mail goes to the SMTP peer and the reminder job reads the test's clock.
    const handlers = {
      ...jobSetup(context).handlers,
      [MAIL_QUEUE]: mailJobHandler(mailer),
      [REMINDERS_QUEUE]: remindersJobHandler(context, () => clock),
    };
    worker = new JobWorker({ db: api.db, handlers, logger: silent, baseBackoffMs: 1, maxBackoffMs: 1 });
  });
  afterAll(async () => {
    await smtp.stop();
  });
  beforeEach(async () => {
    // Each test starts from a loan without items, nothing queued, and no mail.
    await api.db.delete(checklistItem).where(eq(checklistItem.loanId, loanId));
    await api.db.delete(job);
    await api.db.delete(notification).where(eq(notification.kind, 'reminder'));
    await api.db.execute(sql`update loan set reminders_enabled = true where id = ${loanId}`);
    smtp.received.length = 0;
  });

  const addItem = async (values: Partial<ChecklistItemRow> & { label: string }) => {
    const [row] = await api.db
      .insert(checklistItem)
      .values({
        loanId,
        position: Math.floor(Math.random() * 1e6),
        category: 'property',
        required: true,
        provider: 'borrower',
        borrowerVisible: true,
        status: 'requested',
        requestedAt: auckland('2026-11-23T09:00:00'),
        ...values,
      })
      .returning();
    return row!;
  };
  const itemRow = async (id: string) => (await api.db.select().from(checklistItem).where(eq(checklistItem.id, id)))[0]!;
  const mailsTo = (address: string) => smtp.received.filter((mail) => mail.to.includes(address));
  /** A received mail with its quoted-printable soft breaks and escapes undone, so a long link reads whole. */
  const decoded = (raw: string) =>
    Buffer.from(
      raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
      'latin1',
    ).toString('utf8');
  /** The recurring job runs at `at` (queued as the worker queues it) and its mails go out. */
  async function runJobAt(at: Date) {
    clock = at;
    await enqueueJob(api.db, REMINDERS_QUEUE, {});
    while ((await worker.runOnce()) > 0);
  }
  const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

  it('reminds on the day before, the day of, then every 4 days, at most 5 times, once however often the job runs', async () => {
    const item = await addItem({ label: 'Hazard insurance quote', dueDate: '2026-12-03' });
    const days: string[] = [];
    for (let day = '2026-11-30'; day <= '2026-12-31'; day = nextDay(day)) {
      const before = mailsTo(dana.email).length;
      // At-least-once: the job runs, runs again at once, and again later that day.
      await runJobAt(auckland(`${day}T10:00:00`));
      await runJobAt(auckland(`${day}T10:00:00`));
      await runJobAt(auckland(`${day}T15:45:00`));
      if (mailsTo(dana.email).length > before) {
        expect(mailsTo(dana.email).length - before, day).toBe(1);
        days.push(day);
      }
    }
    // Dec 3 is a Thursday: Dec 2, Dec 3, then Mon Dec 7, Fri Dec 11, Tue Dec 15.
    expect(days).toEqual(['2026-12-02', '2026-12-03', '2026-12-07', '2026-12-11', '2026-12-15']);
    expect(mailsTo(cole.email)).toHaveLength(5);
    expect(await itemRow(item.id)).toMatchObject({ remindersSent: 5 });
    const mail = decoded(mailsTo(dana.email)[0]!.raw);
    expect(mail).toContain('Subject: Harbor Lending: a reminder to upload Hazard insurance quote');
    expect(mail).toContain('Hazard insurance quote');
    expect(mail).toContain(`/app/loans/${loanId}`);
    // Through notify: the one-click unsubscribe for reminders, and the footer.
    const unfolded = mail.replace(/\r?\n[ \t]+/g, ' ');
    expect(unfolded).toMatch(/^List-Unsubscribe: <http[^>]*\/unsubscribe\?token=[^>]*\.reminder\.[^>]*>/m);
    expect(unfolded).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click/m);
    expect(mail).toContain('not to this e-mail');
    // The team sees each reminder in the loan's activity; it is internal.
    const rows = await api.db.select().from(activity).where(eq(activity.kind, 'reminder.sent'));
    expect(rows.filter((row) => row.loanId === loanId)).toHaveLength(5);
    expect(rows.every((row) => row.visibility === 'internal')).toBe(true);
  });

  it('sends nothing on weekends or at night in the team’s zone, and folds what it missed into one reminder', async () => {
    // Asked for on Wednesday Dec 2 with no due date: first due Saturday Dec 5.
    await addItem({ label: 'Bank statements', dueDate: null, requestedAt: auckland('2026-12-02T11:00:00') });
    await runJobAt(auckland('2026-12-05T10:00:00')); // Saturday
    await runJobAt(auckland('2026-12-06T12:00:00')); // Sunday
    // Friday 20:00 UTC, a weekday afternoon there, is Saturday morning in Auckland.
    await runJobAt(new Date('2026-12-04T20:00:00Z'));
    await runJobAt(auckland('2026-12-07T07:59:00')); // Monday, before the office opens
    await runJobAt(auckland('2026-12-07T18:00:00')); // Monday, after it closes (for the day)
    expect(smtp.received).toHaveLength(0);
    await runJobAt(auckland('2026-12-08T08:00:00')); // Tuesday, as the office opens
    await waitFor(() => smtp.received.length === 2, { what: 'one reminder each' });
    expect(mailsTo(dana.email)).toHaveLength(1);
    await runJobAt(auckland('2026-12-08T17:00:00'));
    expect(smtp.received).toHaveLength(2);
  });

  it('skips a loan whose reminders the team turned off, and picks up again when turned on', async () => {
    await addItem({ label: 'Lease agreement', dueDate: '2026-12-08' });
    const off = await api.as(assistant).put(`/api/loans/${loanId}/reminders`, { enabled: false });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json()).toMatchObject({ enabled: false, timeZone: ZONE });
    await runJobAt(auckland('2026-12-08T10:00:00'));
    expect(smtp.received).toHaveLength(0);
    const on = await api.as(harbor.owner).put(`/api/loans/${loanId}/reminders`, { enabled: true });
    expect(on.json()).toMatchObject({ enabled: true });
    await runJobAt(auckland('2026-12-08T10:15:00'));
    expect(mailsTo(dana.email)).toHaveLength(1);
    const kinds = (await api.db.select({ kind: activity.kind }).from(activity).where(eq(activity.loanId, loanId))).map((row) => row.kind);
    expect(kinds).toEqual(expect.arrayContaining(['reminders.turned_off', 'reminders.turned_on']));
  });

  it('never lists an internal or a third party’s item to a borrower, and mails nobody when only those are owed', async () => {
    await addItem({ label: 'Underwriter worksheet', borrowerVisible: false, dueDate: '2026-12-02' });
    await addItem({ label: 'Title commitment', provider: 'third_party', dueDate: '2026-12-02' });
    await runJobAt(auckland('2026-12-03T10:00:00'));
    expect(smtp.received).toHaveLength(0);
    await addItem({ label: 'Photo ID', dueDate: '2026-12-02' });
    await runJobAt(auckland('2026-12-03T10:05:00'));
    await waitFor(() => smtp.received.length === 2, { what: 'the reminders' });
    for (const mail of smtp.received) {
      expect(mail.raw).toContain('Photo ID');
      expect(mail.raw).not.toContain('Underwriter worksheet');
      expect(mail.raw).not.toContain('Title commitment');
    }
  });

  it('lists every item the borrower owes on the loan in one mail per person', async () => {
    await addItem({ label: 'Photo ID', dueDate: '2026-12-02' });
    await addItem({ label: 'Operating agreement', status: 'needs_revision', dueDate: null, requestedAt: auckland('2026-12-01T09:00:00') });
    await addItem({ label: 'Approved thing', status: 'approved' });
    await runJobAt(auckland('2026-12-02T10:00:00'));
    expect(mailsTo(dana.email)).toHaveLength(1);
    const raw = mailsTo(dana.email)[0]!.raw;
    expect(raw).toContain('Photo ID');
    expect(raw).toContain('Operating agreement');
    expect(raw).not.toContain('Approved thing');
  });

  it('sends one now to everyone who owes, whatever the hour, counts it, and refuses a second within the minute', async () => {
    const item = await addItem({ label: 'Purchase contract', dueDate: null, requestedAt: new Date() });
    const sent = await api.as(harbor.owner).post(`/api/loans/${loanId}/reminders/send`);
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toEqual({ people: 2, items: 1 });
    const again = await api.as(harbor.owner).post(`/api/loans/${loanId}/reminders/send`);
    expect(again.statusCode).toBe(429);
    expect(again.json().detail).toMatch(/less than a minute ago/);
    while ((await worker.runOnce()) > 0);
    await waitFor(() => smtp.received.length === 2, { what: 'the reminders sent now' });
    expect(mailsTo(dana.email)).toHaveLength(1);
    expect(mailsTo(cole.email)).toHaveLength(1);
    expect(await itemRow(item.id)).toMatchObject({ remindersSent: 1 });
    const view = await api.as(assistant).get(`/api/loans/${loanId}/reminders`);
    expect(view.json()).toMatchObject({ enabled: true, recipients: 2, owed: [{ itemId: item.id, remindersSent: 1 }] });
    expect(view.json().lastRemindedAt).not.toBeNull();
    // The borrowers' activity feed says nothing of it.
    const feed = await api.as(dana).get(`/api/loans/${loanId}/activity`);
    expect(feed.statusCode).toBe(200);
    expect(feed.body).not.toContain('reminder');
  });

  it('allows 3 reminders sent by hand per loan in any 24 hours (REMINDERS_SENT_NOW_PER_DAY): the fourth is a 429 naming when the next can go, and the view says so', async () => {
    const deps = { db: api.db, config: api.config };
    const otherLoan = (await createLoan(api, harbor.teamId, harbor.owner, { propertyStreet: '9 Quay Street' })).id;
    const eve = await addBorrower(api, otherLoan, { name: 'Eve Borrower', email: 'eve.reminded@example.com' });
    const start = Date.now();
    const hoursAgo = (hours: number) => new Date(start - hours * 3_600_000);
    const sendBy = (at: Date) => remindLoan(deps, otherLoan, { kind: 'now', by: harbor.owner.userId }, at);
    // Its template's items are owed too: each mail lists them all.
    for (const hours of [5, 3, 1]) expect(await sendBy(hoursAgo(hours))).toMatchObject({ people: 1 });
    const first = hoursAgo(5);

    const refused = await api.as(harbor.owner).post(`/api/loans/${otherLoan}/reminders/send`);
    expect(refused.statusCode).toBe(429);
    // The first of the three turns 24 hours old 19 hours from now: then the next can go, in the team's clock (Auckland, UTC+13).
    const nextAt = new Date(first.getTime() + 24 * 3_600_000);
    const local = new Intl.DateTimeFormat('en-US', {
      timeZone: ZONE,
      weekday: 'short',
      month: 'short',
      day: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      timeZoneName: 'short',
    }).format(nextAt);
    expect(refused.json()).toMatchObject({
      code: 'rate_limited',
      detail: `Reminder limit reached: 3 reminders sent by hand on this loan in the last 24 hours, the most allowed. The next can be sent from ${local}.`,
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(18.9 * 3600);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(19 * 3600 + 1);
    const view = await api.as(assistant).get(`/api/loans/${otherLoan}/reminders`);
    expect(view.json().sendNow).toEqual({ perDay: 3, sentInLastDay: 3, nextAt: nextAt.toISOString() });
    // Another loan's presses are its own; the schedule is not counted.
    expect((await api.as(harbor.owner).get(`/api/loans/${loanId}/reminders`)).json().sendNow).toMatchObject({ perDay: 3, nextAt: null });

    // The refused press sent nothing: three reminders on the loan's activity (their mails, queued the same day, are one).
    const sentRows = async () =>
      (
        await api.db
          .select()
          .from(activity)
          .where(and(eq(activity.loanId, otherLoan), eq(activity.kind, 'reminder.sent')))
      ).length;
    expect(await sentRows()).toBe(3);
    while ((await worker.runOnce()) > 0);
    await waitFor(() => mailsTo(eve.email).length === 1, { what: 'the reminder sent by hand' });
    // Once the first is 24 hours old, one more may go (and then none until the second is).
    expect(await sendBy(nextAt)).toMatchObject({ people: 1 });
    await expect(sendBy(new Date(nextAt.getTime() + 5 * 60_000))).rejects.toThrow(/Reminder limit reached/);
    const later = await remindersView(deps, otherLoan, new Date(nextAt.getTime() + 60_000));
    expect(later.sendNow).toEqual({ perDay: 3, sentInLastDay: 3, nextAt: new Date(hoursAgo(3).getTime() + 24 * 3_600_000).toISOString() });
    expect(api.config.remindersSentNowPerDay).toBe(3); // the default
  });

  it('gives a borrower who chose reminders in-app only the inbox row and no mail, and each person one row', async () => {
    await addItem({ label: 'Flood certificate', dueDate: '2026-12-09' });
    const chose = await api.as(cole).put('/api/me/notification-preferences', { preferences: [{ kind: 'reminder', channel: 'in_app' }] });
    expect(chose.statusCode, chose.body).toBe(200);
    const rowsOf = (who: Person) =>
      api.db
        .select()
        .from(notification)
        .where(and(eq(notification.userId, who.userId), eq(notification.kind, 'reminder')));
    try {
      const sent = await api.as(harbor.owner).post(`/api/loans/${loanId}/reminders/send`);
      expect(sent.statusCode, sent.body).toBe(200);
      while ((await worker.runOnce()) > 0);
      await waitFor(() => mailsTo(dana.email).length === 1, { what: 'Dana’s reminder' });
      expect(mailsTo(cole.email)).toHaveLength(0);
      const coles = await rowsOf(cole);
      expect(coles).toHaveLength(1);
      expect(coles.at(-1)?.data).toMatchObject({
        title: expect.stringContaining('Reminder: Flood certificate for 12 Pier Road'),
        path: `/app/loans/${loanId}`,
      });
      expect(await rowsOf(dana)).toHaveLength(1);
      const inbox = await api.as(cole).get('/api/me/notifications');
      expect(inbox.json().notifications[0]).toMatchObject({ kind: 'reminder', title: expect.stringContaining('Reminder: Flood certificate for 12 Pier Road') });
    } finally {
      await api.as(cole).put('/api/me/notification-preferences', { preferences: [{ kind: 'reminder', channel: 'email' }] });
    }
  });

  it('keeps one inbox row per person for a loan’s reminders of one day, the newest, unread, when the day’s reminder goes twice', async () => {
    const deps = { db: api.db, config: api.config };
    const rowsOf = (who: Person) =>
      api.db
        .select()
        .from(notification)
        .where(and(eq(notification.userId, who.userId), eq(notification.kind, 'reminder'), eq(notification.loanId, loanId)));
    // The day's scheduled reminder (Wednesday Dec 2, the day before the due date), read by Dana.
    await addItem({ label: 'Appraisal invoice', dueDate: '2026-12-03' });
    expect(await remindLoan(deps, loanId, { kind: 'schedule' }, auckland('2026-12-02T09:00:00'))).toEqual({ people: 2, items: 1 });
    while ((await worker.runOnce()) > 0);
    await waitFor(() => mailsTo(dana.email).length === 1, { what: 'the scheduled reminder' });
    const [first] = await rowsOf(dana);
    const read = await api.as(dana).post(`/api/me/notifications/${first!.id}/read`);
    expect(read.statusCode, read.body).toBe(200);
    expect((await rowsOf(dana))[0]!.readAt).not.toBeNull();
    // Later that day the broker asks for a second item and sends one now: a second mail (the first went out), one row.
    await addItem({ label: 'Lease agreement', dueDate: null });
    const now = await remindLoan(deps, loanId, { kind: 'now', by: harbor.owner.userId }, auckland('2026-12-02T14:30:00'));
    expect(now).toEqual({ people: 2, items: 2 });
    while ((await worker.runOnce()) > 0);
    await waitFor(() => mailsTo(dana.email).length === 2, { what: 'the reminder sent now' });
    const rows = await rowsOf(dana);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.id).toBeGreaterThan(first!.id);
    expect(rows[0]!.readAt).toBeNull();
    expect(rows[0]!.data).toMatchObject({ title: 'Reminder: 2 documents for 12 Pier Road, Austin, TX 78704' });
    expect(await rowsOf(cole)).toHaveLength(1);
    // The inbox lists it once, unread.
    const inbox = await api.as(dana).get('/api/me/notifications');
    const reminders = inbox.json().notifications.filter((row: { kind: string }) => row.kind === 'reminder');
    expect(reminders).toHaveLength(1);
    expect(reminders[0]).toMatchObject({ title: 'Reminder: 2 documents for 12 Pier Road, Austin, TX 78704', readAt: null });
    // The next day's reminder is a row of its own.
    await remindLoan(deps, loanId, { kind: 'now', by: harbor.owner.userId }, auckland('2026-12-03T09:00:00'));
    expect(await rowsOf(dana)).toHaveLength(2);
  });

  it('refuses to send now when nothing is owed', async () => {
    await addItem({ label: 'Approved thing', status: 'approved' });
    const sent = await api.as(harbor.owner).post(`/api/loans/${loanId}/reminders/send`);
    expect(sent.statusCode).toBe(409);
    expect(sent.json().detail).toMatch(/owe no documents/);
  });

  it('mails once when two app instances run the job at the same moment', async () => {
    const item = await addItem({ label: 'Rent roll', dueDate: '2026-12-09' });
    const second = api.database.url ? await openDatabase({ kind: 'postgres', url: api.database.url, poolSize: 3 }) : null;
    const at = auckland('2026-12-08T10:00:00');
    const runs = await Promise.all([
      remindLoan({ db: api.db, config: api.config }, loanId, { kind: 'schedule' }, at),
      remindLoan({ db: second?.db ?? api.db, config: api.config }, loanId, { kind: 'schedule' }, at),
      remindLoan({ db: api.db, config: api.config }, loanId, { kind: 'schedule' }, at),
    ]);
    await second?.close();
    expect(runs.map((run) => run.people).sort()).toEqual([0, 0, 2]);
    while ((await worker.runOnce()) > 0);
    await waitFor(() => smtp.received.length === 2, { what: 'the reminders' });
    expect(mailsTo(dana.email)).toHaveLength(1);
    expect(await itemRow(item.id)).toMatchObject({ remindersSent: 1 });
  });

  it('starts an item’s reminders over when it is asked for again', async () => {
    const item = await addItem({ label: 'Appraisal', status: 'waived', remindersSent: 5, lastRemindedAt: auckland('2026-12-01T10:00:00') });
    const reopened = await api.as(harbor.owner).post(`/api/loans/${loanId}/checklist/items/${item.id}/reopen`, { version: item.version });
    expect(reopened.statusCode, reopened.body).toBe(200);
    const row = await itemRow(item.id);
    expect(row).toMatchObject({ status: 'requested', remindersSent: 0, lastRemindedAt: null });
    expect(row.requestedAt.getTime()).toBeGreaterThan(item.requestedAt.getTime());
  });

  it('gives an item whose due date moves a new schedule: its reminders may run to the cap again, not twice on one day', async () => {
    const item = await addItem({ label: 'Insurance binder', dueDate: '2026-12-03', remindersSent: 5, lastRemindedAt: auckland('2026-12-15T10:00:00') });
    const before = await api.as(assistant).get(`/api/loans/${loanId}/reminders`);
    expect(before.json().owed).toEqual([expect.objectContaining({ itemId: item.id, remindersSent: 5, nextReminderOn: null })]);
    // A label alone is no new schedule.
    const renamed = await api
      .as(assistant)
      .patch(`/api/loans/${loanId}/checklist/items/${item.id}`, { version: item.version, label: 'Insurance binder (hazard)' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(await itemRow(item.id)).toMatchObject({ remindersSent: 5 });
    const moved = await api.as(assistant).patch(`/api/loans/${loanId}/checklist/items/${item.id}`, { version: renamed.json().version, dueDate: '2026-12-22' });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(await itemRow(item.id)).toMatchObject({ remindersSent: 0, dueDate: '2026-12-22' });
    const after = await api.as(assistant).get(`/api/loans/${loanId}/reminders`);
    expect(after.json().owed).toEqual([expect.objectContaining({ itemId: item.id, remindersSent: 0, nextReminderOn: '2026-12-21' })]);
    // The job on the day of the last reminder sends nothing more that day; the day before the new date, it reminds.
    await runJobAt(auckland('2026-12-15T16:00:00'));
    expect(mailsTo(dana.email)).toHaveLength(0);
    await runJobAt(auckland('2026-12-21T10:00:00'));
    await waitFor(() => mailsTo(dana.email).length === 1, { what: 'the reminder of the new schedule' });
    expect(await itemRow(item.id)).toMatchObject({ remindersSent: 1 });
  });

  it('says when the next reminder goes, never a day already past, or why none will', async () => {
    const deps = { db: api.db, config: api.config };
    // Due in November and never reminded while the reminders were off: its schedule's day is long past.
    await addItem({ label: 'Rent roll', dueDate: '2026-11-10' });
    await api.db.execute(sql`update loan set reminders_enabled = false where id = ${loanId}`);
    expect((await remindersView(deps, loanId, auckland('2026-12-01T10:00:00'))).next).toEqual({ kind: 'none', why: 'off' });
    await api.db.execute(sql`update loan set reminders_enabled = true where id = ${loanId}`);
    // Tuesday 10:00 in Auckland: the next run; 19:00: tomorrow from the office's opening; Friday evening: Monday.
    expect((await remindersView(deps, loanId, auckland('2026-12-01T10:00:00'))).next).toEqual({ kind: 'scheduled', on: '2026-12-01', soon: true });
    expect((await remindersView(deps, loanId, auckland('2026-12-01T19:00:00'))).next).toEqual({ kind: 'scheduled', on: '2026-12-02', soon: false });
    expect((await remindersView(deps, loanId, auckland('2026-12-04T19:00:00'))).next).toEqual({ kind: 'scheduled', on: '2026-12-07', soon: false });
    // Through the API, at the real clock: today in the team's zone or later.
    const view = await api.as(assistant).get(`/api/loans/${loanId}/reminders`);
    expect(view.statusCode, view.body).toBe(200);
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: ZONE }).format(new Date());
    expect(view.json().next).toMatchObject({ kind: 'scheduled' });
    expect(view.json().next.on >= today).toBe(true);
    // Every owed item had its five: none will go. Nothing owed: none either.
    await api.db
      .update(checklistItem)
      .set({ remindersSent: 5, lastRemindedAt: auckland('2026-11-30T10:00:00') })
      .where(eq(checklistItem.loanId, loanId));
    expect((await remindersView(deps, loanId, auckland('2026-12-01T10:00:00'))).next).toEqual({ kind: 'none', why: 'all_sent' });
    await api.db.update(checklistItem).set({ status: 'approved' }).where(eq(checklistItem.loanId, loanId));
    expect((await remindersView(deps, loanId, auckland('2026-12-01T10:00:00'))).next).toEqual({ kind: 'none', why: 'nothing_owed' });
  });

  it('keeps the team’s time zone an IANA zone, set by its owner', async () => {
    const bad = await api.as(harbor.owner).patch(`/api/teams/${harbor.teamId}`, { timeZone: 'Mars/Olympus' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual([{ field: 'timeZone', message: 'Choose a time zone such as America/Chicago' }]);
    const byAssistant = await api.as(assistant).patch(`/api/teams/${harbor.teamId}`, { timeZone: 'UTC' });
    expect(byAssistant.statusCode).toBeGreaterThanOrEqual(400);
    const team = await api.as(assistant).get(`/api/teams/${harbor.teamId}`);
    expect(team.json().timeZone).toBe(ZONE);
  });

  it('never 5xxs the reminder and time-zone endpoints with bad bodies (property-based)', async () => {
    const bad = fc.oneof(
      fc.constantFrom('\u0000', '\ud800', '', ' ', 'true', 'UTC', 'Mars/Olympus', 'America/New_York\u0000', [], {}, null, true, false, -1, 0, 1e21),
      fc.string({ unit: 'binary', maxLength: 70 }),
      fc.jsonValue({ maxDepth: 2 }),
    );
    const body = fc.oneof(fc.dictionary(fc.constantFrom('enabled', 'timeZone', 'x'), bad, { maxKeys: 3 }), bad);
    const targets = [
      ['PUT', `/api/loans/${loanId}/reminders`],
      ['POST', `/api/loans/${loanId}/reminders/send`],
      ['PATCH', `/api/teams/${harbor.teamId}`],
    ] as const;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...targets), body, async ([method, url], payload) => {
        const response = await api.app.inject({
          method,
          url,
          payload: JSON.stringify(payload),
          headers: { cookie: harbor.owner.cookie, 'content-type': 'application/json' },
        });
        expect(response.statusCode, `${method} ${url} ${JSON.stringify(payload).slice(0, 200)} → ${response.body.slice(0, 200)}`).toBeLessThan(500);
      }),
      { numRuns: 150 },
    );
    // What the property sent to the team never left it an unknown zone.
    expect((await api.as(harbor.owner).get(`/api/teams/${harbor.teamId}`)).json().timeZone).toMatch(/^(Pacific\/Auckland|UTC|America\/New_York)$/);
    await api.as(harbor.owner).patch(`/api/teams/${harbor.teamId}`, { timeZone: ZONE });
  });
});
