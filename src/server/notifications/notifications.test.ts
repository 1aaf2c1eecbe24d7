import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ChecklistView } from '../../shared/schemas/checklist';
import type { NotificationPage, NotificationPreferences } from '../../shared/schemas/notifications';
import { setupApi } from '../../test/api';
import { backends } from '../../test/databases';
import { uploadVersion } from '../../test/documents';
import {
  addAssistant,
  addBorrower,
  createAccount,
  createLoan,
  createTeamWithOwner,
  enrolAuthenticator,
  signedIn,
  type Person,
  type Team,
} from '../../test/factories';
import { samplePng } from '../../test/sample-files';
import { SmtpPeer } from '../../test/smtp-peer';
import { noticePaths } from '../../shared/domain/notifications';
import { insertMember } from '../accounts/accounts.queries';
import { joinLoan } from '../accounts/loan-participants';
import { activity, comment, job, loan, loanParticipant, loanReadCursor, notification, notificationPreference } from '../db/schema';
import { JobWorker } from '../platform/jobs/worker';
import { createSmtpMailer } from '../platform/mail/mailer';
import { jobSetup } from '../runtime';
import { COMMENT_DIGEST_QUEUE } from './comment-notifications';
import { notify } from './notify';
import { unreadNotificationCount } from './unread-count';
import { unsubscribeToken } from './unsubscribe-token';

const silent = { info() {}, warn() {}, error() {} };

/** A received message: its header fields (unfolded) and its text, quoted-printable decoded. */
function parseMail(raw: string) {
  const split = raw.search(/\r?\n\r?\n/);
  const head = raw.slice(0, split).replace(/\r?\n[ \t]+/g, ' ');
  const decoded = raw
    .slice(split)
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'mi').exec(head)?.[1]?.trim();
  return { head, body: decoded, header };
}

describe.each(backends)('notifications on %s', (backend) => {
  const api = setupApi(backend);
  const peer = new SmtpPeer();
  let worker: JobWorker;
  let harbor: Team;
  let asha: Person;
  let loanId: string;
  let dana: Person;
  let cole: Person;

  beforeAll(async () => {
    await peer.start();
    const mailer = createSmtpMailer({ url: peer.url, from: api.config.mailFrom });
    const { handlers } = jobSetup({ config: api.config, db: api.db, mailer, files: api.files, logger: silent });
    worker = new JobWorker({ db: api.db, handlers, logger: silent, baseBackoffMs: 1, maxBackoffMs: 1 });
    harbor = await createTeamWithOwner(api, { name: 'Harbor Lending', owner: { name: 'Owen Owner' } });
    asha = await addAssistant(api, harbor.teamId, { name: 'Asha Assistant' });
    loanId = (await createLoan(api, harbor.teamId, harbor.owner, { propertyStreet: '12 Pier Road', assigneeId: asha.userId })).id;
    dana = await addBorrower(api, loanId, { name: 'Dana Borrower', email: `dana-${backend}@notify.test` });
    cole = await addBorrower(api, loanId, { name: 'Cole Borrower', role: 'co_borrower', email: `cole-${backend}@notify.test` });
  });
  afterAll(async () => {
    await peer.stop();
  });
  beforeEach(async () => {
    await runJobs();
    peer.received.length = 0;
  });

  async function runJobs() {
    while ((await worker.runOnce()) > 0);
  }
  const mailsTo = (email: string) => peer.received.filter((mail) => mail.to.includes(email)).map((mail) => parseMail(mail.raw));
  const inbox = async (who: Person) => {
    const response = await api.as(who).get('/api/me/notifications');
    expect(response.statusCode, response.body).toBe(200);
    return response.json<NotificationPage>();
  };
  const form = (token: string, extra: Record<string, string> = {}, payload = 'List-Unsubscribe=One-Click') =>
    api.app.inject({
      method: 'POST',
      url: `/unsubscribe?token=${encodeURIComponent(token)}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...extra },
      payload,
    });
  const emails = async (userId: string, kind: string) => {
    const [row] = await api.db
      .select()
      .from(notificationPreference)
      .where(and(eq(notificationPreference.userId, userId), sql`${notificationPreference.kind} = ${kind}`));
    return row?.email ?? true;
  };

  it('writes the inbox row and queues the mail while the person wants the kind by e-mail, and the inbox row only after they chose in-app', async () => {
    const before = (await inbox(dana)).unread;
    const notice = {
      userId: dana.userId,
      email: dana.email,
      kind: 'approved' as const,
      loanId,
      audience: 'shared' as const,
      inbox: { title: 'Bank statements approved', path: `/app/loans/${loanId}` },
      mail: { subject: 'Harbor Lending: Bank statements approved', paragraphs: ['Hi Dana,', 'Approved.'], brand: { name: 'Harbor Lending' } },
    };
    await api.db.transaction((tx) => notify(tx, notice, api.config));
    await runJobs();
    const [mail] = mailsTo(dana.email);
    expect(mail?.header('Subject')).toBe('Harbor Lending: Bank statements approved');
    expect(mail?.body).toContain('Reply in Coverly, not to this e-mail');
    expect(mail?.body).toContain(`http://localhost:3000/app/loans/${loanId}`);
    expect((await inbox(dana)).unread).toBe(before + 1);

    const chose = await api.as(dana).put('/api/me/notification-preferences', { preferences: [{ kind: 'approved', channel: 'in_app' }] });
    expect(chose.statusCode, chose.body).toBe(200);
    await api.db.transaction((tx) => notify(tx, notice, api.config));
    await runJobs();
    expect(mailsTo(dana.email)).toHaveLength(1);
    expect((await inbox(dana)).unread).toBe(before + 2);
    await api.as(dana).put('/api/me/notification-preferences', { preferences: [{ kind: 'approved', channel: 'email' }] });
  });

  it('rolls the inbox row and the mail back with the action that caused them', async () => {
    const before = await api.db.$count(notification);
    const jobs = await api.db.$count(job);
    await expect(
      api.db.transaction(async (tx) => {
        await notify(
          tx,
          {
            userId: dana.userId,
            email: dana.email,
            kind: 'approved',
            loanId,
            audience: 'shared',
            inbox: { title: 'x', path: '/app' },
            mail: { subject: 's', paragraphs: ['p'], brand: 'Coverly' },
          },
          api.config,
        );
        throw new Error('the action failed');
      }),
    ).rejects.toThrow('the action failed');
    expect(await api.db.$count(notification)).toBe(before);
    expect(await api.db.$count(job)).toBe(jobs);
  });

  it('mails a stage change with both unsubscribe headers, and the one-click POST turns that kind off without a cookie or Origin, idempotently', async () => {
    const moved = await api.as(harbor.owner).post(`/api/loans/${loanId}/stage`, { from: 'lead', to: 'application' });
    expect(moved.statusCode, moved.body).toBe(200);
    await runJobs();
    const [mail] = mailsTo(dana.email);
    expect(mail, 'the stage mail').toBeDefined();
    expect(mail!.header('List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    const url = /^<(https?:\/\/[^>]+)>$/.exec(mail!.header('List-Unsubscribe') ?? '')?.[1];
    expect(url).toMatch(/^http:\/\/localhost:3000\/unsubscribe\?token=/);
    expect(mail!.body).toContain(url!);
    expect(mail!.body).toContain('Reply in Coverly');
    const token = new URL(url!).searchParams.get('token')!;
    expect(token).toBe(unsubscribeToken(api.config.authSecret!, dana.userId, 'stage_change'));
    expect((await inbox(dana)).notifications[0]).toMatchObject({ kind: 'stage_change', title: 'Your loan for 12 Pier Road is at Application' });

    // A link scanner's GET changes nothing.
    await api.app.inject({ method: 'GET', url: `/unsubscribe?token=${encodeURIComponent(token)}` });
    expect(await emails(dana.userId, 'stage_change')).toBe(true);

    // The mail provider posts it: another site's Origin, cross-site, no cookie.
    const first = await form(token, { origin: 'https://mail.example.net', 'sec-fetch-site': 'cross-site' });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.headers.location).toBeUndefined();
    expect(first.headers['content-type']).toMatch(/^text\/plain/);
    expect(first.body).toContain('no more e-mails about your loan moving to its next stage');
    expect(await emails(dana.userId, 'stage_change')).toBe(false);
    const again = await form(token);
    expect(again.statusCode).toBe(200);
    expect(await emails(dana.userId, 'stage_change')).toBe(false);
    // Another kind, and another person, keep theirs.
    expect(await emails(dana.userId, 'approved')).toBe(true);
    expect(await emails(cole.userId, 'stage_change')).toBe(true);

    // The next move reaches her inbox, not her mail; Cole still gets both.
    await api.as(harbor.owner).post(`/api/loans/${loanId}/stage`, { from: 'application', to: 'borrower_invited' });
    await runJobs();
    expect(mailsTo(dana.email)).toHaveLength(1);
    expect(mailsTo(cole.email)).toHaveLength(2);
    expect((await inbox(dana)).notifications[0]).toMatchObject({ kind: 'stage_change', title: 'Your loan for 12 Pier Road is at Borrower invited' });
    await api.as(dana).put('/api/me/notification-preferences', { preferences: [{ kind: 'stage_change', channel: 'email' }] });
  });

  it('refuses a bad token, a missing or JSON body, and an invitation token with a 400, changing nothing', async () => {
    const token = unsubscribeToken(api.config.authSecret!, cole.userId, 'approved');
    const altered = `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`;
    const otherSecret = unsubscribeToken('another-secret-another-secret-another', cole.userId, 'approved');
    const otherKind = token.replace('.approved.', '.comment.');
    for (const bad of [altered, otherSecret, otherKind, '', 'x', 'a.b.c', `${token}x`, unsubscribeToken(api.config.authSecret!, cole.userId, 'invitation')]) {
      const response = await form(bad);
      expect(response.statusCode, bad).toBe(400);
      expect(response.headers['content-type']).toMatch(/problem\+json/);
    }
    expect((await api.app.inject({ method: 'POST', url: `/unsubscribe?token=${token}` })).statusCode).toBe(400);
    expect((await form(token, {}, 'List-Unsubscribe=Other')).statusCode).toBe(400);
    const json = await api.app.inject({ method: 'POST', url: `/unsubscribe?token=${token}`, payload: { 'List-Unsubscribe': 'One-Click' } });
    expect(json.statusCode).toBe(400);
    const text = await api.app.inject({ method: 'POST', url: `/unsubscribe?token=${token}`, headers: { 'content-type': 'text/plain' }, payload: 'x' });
    expect(text.statusCode).toBe(415);
    expect(await emails(cole.userId, 'approved')).toBe(true);
    // A valid token of a person who no longer exists changes nothing, and says so no differently.
    expect((await form(unsubscribeToken(api.config.authSecret!, 'no-such-person', 'approved'))).statusCode).toBe(200);
  });

  it('lists every kind with its choice, refuses turning invitations off, and names the bad field', async () => {
    const read = await api.as(cole).get('/api/me/notification-preferences');
    const { preferences } = read.json<NotificationPreferences>();
    expect(preferences).toHaveLength(9);
    expect(preferences.every((p) => p.channel === 'email')).toBe(true);
    expect(preferences.find((p) => p.kind === 'invitation')).toEqual({ kind: 'invitation', channel: 'email', fixed: true });
    const set = await api.as(cole).put('/api/me/notification-preferences', {
      preferences: [
        { kind: 'comment', channel: 'in_app' },
        { kind: 'mention', channel: 'email' },
      ],
    });
    expect(set.json<NotificationPreferences>().preferences.find((p) => p.kind === 'comment')?.channel).toBe('in_app');
    const invitation = await api.as(cole).put('/api/me/notification-preferences', { preferences: [{ kind: 'invitation', channel: 'in_app' }] });
    expect(invitation.statusCode).toBe(400);
    expect(invitation.json().errors[0].field).toBe('preferences.0.channel');
    const unknown = await api.as(cole).put('/api/me/notification-preferences', { preferences: [{ kind: 'everything', channel: 'in_app' }] });
    expect(unknown.statusCode).toBe(400);
    const twice = await api.as(cole).put('/api/me/notification-preferences', {
      preferences: [
        { kind: 'comment', channel: 'in_app' },
        { kind: 'comment', channel: 'email' },
      ],
    });
    expect(twice.statusCode).toBe(400);
    await api.as(cole).put('/api/me/notification-preferences', { preferences: [{ kind: 'comment', channel: 'email' }] });
  });

  it('pages the inbox newest first, counts and marks rows read (one, or all), each person their own', async () => {
    const owner = harbor.owner;
    await api.as(owner).post('/api/me/notifications/read-all');
    await api.db.transaction(async (tx) => {
      for (let i = 1; i <= 5; i++)
        await notify(
          tx,
          {
            userId: owner.userId,
            email: owner.email,
            kind: 'document_uploaded',
            loanId,
            audience: 'team',
            inbox: { title: `Upload ${i}`, path: `/app/loans/${loanId}` },
            mail: null,
          },
          api.config,
        );
    });
    const count = await api.as(owner).get('/api/me/notifications/unread-count');
    expect(count.json()).toEqual({ unread: 5 });
    const first = (await api.as(owner).get('/api/me/notifications?limit=2')).json<NotificationPage>();
    expect(first.notifications.map((n) => n.title)).toEqual(['Upload 5', 'Upload 4']);
    const second = (await api.as(owner).get(`/api/me/notifications?limit=2&before=${first.nextBefore}`)).json<NotificationPage>();
    expect(second.notifications.map((n) => n.title)).toEqual(['Upload 3', 'Upload 2']);

    const read = await api.as(owner).post(`/api/me/notifications/${first.notifications[0]!.id}/read`);
    expect(read.json()).toEqual({ unread: 4 });
    expect((await api.as(owner).post(`/api/me/notifications/${first.notifications[0]!.id}/read`)).json()).toEqual({ unread: 4 });
    // Someone else's row is not theirs to read: as if it did not exist.
    expect((await api.as(asha).post(`/api/me/notifications/${first.notifications[1]!.id}/read`)).statusCode).toBe(404);
    expect((await api.as(asha).get('/api/me/notifications')).body).not.toContain('Upload 4');
    expect((await api.as(owner).post('/api/me/notifications/read-all')).json()).toEqual({ unread: 0 });
    expect((await inbox(owner)).notifications.every((n) => n.readAt !== null)).toBe(true);
  });

  it('asks a team member who must enrol an authenticator to enrol before reading their inbox', async () => {
    const fresh = await addAssistant(api, harbor.teamId, { mfa: false });
    const response = await api.as(fresh).get('/api/me/notifications');
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe('mfa_required');
    expect((await api.as().get('/api/me/notifications/unread-count')).statusCode).toBe(401);
  });

  it('still mails the assignee an upload and the borrower its review, with the reason, and tells a borrower nothing of an item made internal', async () => {
    const checklist = (await api.as(harbor.owner).get(`/api/loans/${loanId}/checklist`)).json<ChecklistView>();
    const [item, other] = checklist.items.filter((i) => i.borrowerVisible && i.provider === 'borrower');
    const version = await uploadVersion(api, dana, loanId, item!.id, [{ name: 'id.png', bytes: samplePng() }]);
    await runJobs();
    const [uploaded] = mailsTo(asha.email);
    expect(uploaded?.header('Subject')).toContain(`${item!.label} uploaded`);
    expect(uploaded?.body).toContain('Dana Borrower uploaded version 1');
    expect(uploaded?.header('List-Unsubscribe')).toContain('/unsubscribe?token=');
    expect((await inbox(asha)).notifications[0]).toMatchObject({ kind: 'document_uploaded', path: `/app/loans/${loanId}#item-${item!.id}` });

    await api.as(harbor.owner).post(`/api/loans/${loanId}/checklist/items/${item!.id}/versions/${version.id}/open`, { version: 2 });
    const current = (await api.as(harbor.owner).get(`/api/loans/${loanId}/checklist`)).json<ChecklistView>().items.find((i) => i.id === item!.id)!;
    const sentBack = await api.as(harbor.owner).post(`/api/loans/${loanId}/checklist/items/${item!.id}/versions/${version.id}/needs-revision`, {
      version: current.version,
      reason: 'The photo is blurry',
    });
    expect(sentBack.statusCode, sentBack.body).toBe(200);
    await runJobs();
    const [review] = mailsTo(dana.email);
    expect(review?.header('Subject')).toContain('needs a new version');
    expect(review?.body).toContain('The photo is blurry');
    expect((await inbox(dana)).notifications[0]).toMatchObject({ kind: 'needs_revision', body: 'The photo is blurry' });

    // The second item is made internal after Dana uploaded to it: its review tells her nothing.
    const secondVersion = await uploadVersion(api, dana, loanId, other!.id, [{ name: 'lease.png', bytes: samplePng() }]);
    const danaRows = (await inbox(dana)).notifications.length;
    const fresh = (await api.as(harbor.owner).get(`/api/loans/${loanId}/checklist`)).json<ChecklistView>().items.find((i) => i.id === other!.id)!;
    const hidden = await api.as(harbor.owner).patch(`/api/loans/${loanId}/checklist/items/${other!.id}`, { version: fresh.version, borrowerVisible: false });
    expect(hidden.statusCode, hidden.body).toBe(200);
    await api.as(harbor.owner).post(`/api/loans/${loanId}/checklist/items/${other!.id}/versions/${secondVersion.id}/open`, { version: hidden.json().version });
    const now = (await api.as(harbor.owner).get(`/api/loans/${loanId}/checklist`)).json<ChecklistView>().items.find((i) => i.id === other!.id)!;
    const approved = await api.as(harbor.owner).post(`/api/loans/${loanId}/checklist/items/${other!.id}/versions/${secondVersion.id}/approve`, {
      version: now.version,
      documentDate: new Date().toISOString().slice(0, 10),
    });
    expect(approved.statusCode, approved.body).toBe(200);
    peer.received.length = 0;
    await runJobs();
    expect(mailsTo(dana.email)).toHaveLength(0);
    expect((await inbox(dana)).notifications).toHaveLength(danaRows);
  });

  it('shows a borrower removed from the loan none of its rows any more', async () => {
    const leaving = await addBorrower(api, loanId, { name: 'Lee Leaving' });
    await api.db.transaction((tx) =>
      notify(
        tx,
        {
          userId: leaving.userId,
          email: leaving.email,
          kind: 'stage_change',
          loanId,
          audience: 'shared',
          inbox: { title: 'Your loan moved', path: '/app' },
          mail: null,
        },
        api.config,
      ),
    );
    expect((await inbox(leaving)).unread).toBe(1);
    await api.db.delete(loanParticipant).where(and(eq(loanParticipant.loanId, loanId), eq(loanParticipant.userId, leaving.userId)));
    const after = await inbox(leaving);
    expect(after.notifications).toHaveLength(0);
    expect(after.unread).toBe(0);
  });

  it('mails a team member only while they are on the team: what was queued before their removal is not sent, and the loans assigned to them are theirs no more', async () => {
    const max = await addAssistant(api, harbor.teamId, { name: 'Max Leaving', email: `max-${backend}@notify.test` });
    // Opened by the owner and assigned to Max: his assignment mail waits in the outbox.
    const quay = await createLoan(api, harbor.teamId, harbor.owner, { propertyStreet: '3 Quay Street', assigneeId: max.userId });
    const pat = await addBorrower(api, quay.id, { name: 'Pat Borrower' });
    const items = (await api.as(harbor.owner).get(`/api/loans/${quay.id}/checklist`)).json<ChecklistView>().items;
    const [first, second] = items.filter((i) => i.borrowerVisible && i.provider === 'borrower');
    // Pat uploads: the assignee's mail is queued with the upload.
    await uploadVersion(api, pat, quay.id, first!.id, [{ name: 'id.png', bytes: samplePng() }]);
    expect((await api.db.select().from(job).where(eq(job.status, 'pending'))).some((j) => JSON.stringify(j.payload).includes(max.email))).toBe(true);

    // The owner removes Max before the worker runs.
    const removed = await api.as(harbor.owner).delete(`/api/teams/${harbor.teamId}/members/${max.userId}`);
    expect(removed.statusCode, removed.body).toBe(204);
    await runJobs();
    expect(mailsTo(max.email)).toHaveLength(0);
    // The loan is nobody's now, so the next upload is nobody's mail either.
    const now = await api.as(harbor.owner).get(`/api/loans/${quay.id}`);
    expect(now.json()).toMatchObject({ assigneeId: null, assignee: null });
    await uploadVersion(api, pat, quay.id, second!.id, [{ name: 'lease.png', bytes: samplePng() }]);
    await runJobs();
    expect(mailsTo(max.email)).toHaveLength(0);
    // A borrower's mail checks the same at send time: one who left the loan before it went gets nothing.
    const moved = await api.as(harbor.owner).post(`/api/loans/${quay.id}/stage`, { from: 'lead', to: 'application' });
    expect(moved.statusCode, moved.body).toBe(200);
    await api.db.delete(loanParticipant).where(and(eq(loanParticipant.loanId, quay.id), eq(loanParticipant.userId, pat.userId)));
    await runJobs();
    expect(mailsTo(pat.email)).toHaveLength(0);
  });

  describe('comments', () => {
    /**
     * Posts through the comments API, as the loan page does: the comment,
     * its activity row and its notifications in one transaction. Returns the
     * stored row (its shared number is what a borrower's read cursor passes).
     */
    async function post(author: Person, body: string, options: { visibility?: 'shared' | 'internal'; parentId?: string; mentions?: string[] } = {}) {
      const response = await api.as(author).post(`/api/loans/${loanId}/comments`, { body, ...options });
      expect(response.statusCode, response.body).toBe(201);
      const [row] = await api.db.select().from(comment).where(eq(comment.id, response.json<{ id: string }>().id));
      return row!;
    }
    const edit = async (author: Person, commentId: string, body: string, mentions?: string[]) => {
      const response = await api.as(author).patch(`/api/loans/${loanId}/comments/${commentId}`, { body, ...(mentions ? { mentions } : {}) });
      expect(response.statusCode, response.body).toBe(200);
    };
    const digestsDue = () =>
      api.db
        .update(job)
        .set({ runAt: sql`now()` })
        .where(and(eq(job.queue, COMMENT_DIGEST_QUEUE), eq(job.status, 'pending')));
    const pendingDigests = () =>
      api.db
        .select()
        .from(job)
        .where(and(eq(job.queue, COMMENT_DIGEST_QUEUE), eq(job.status, 'pending')));
    const setCursor = (who: Person, cursor: number) =>
      api.db
        .insert(loanReadCursor)
        .values({ userId: who.userId, loanId, cursor })
        .onConflictDoUpdate({ target: [loanReadCursor.userId, loanReadCursor.loanId], set: { cursor } });

    it('joins several comments in Dana’s thread into one mail three minutes on, leaving out what she saw', async () => {
      await setCursor(dana, 0);
      const thread = await post(dana, 'Which bank statements do you need?');
      const first = await post(harbor.owner, 'The last two months, please.', { parentId: thread.id });
      const second = await post(asha, 'PDFs from the bank are best.', { parentId: thread.id });
      const third = await post(harbor.owner, 'And page 2 of each.', { parentId: thread.id });
      const pending = await pendingDigests();
      const danas = pending.filter((p) => (p.payload as { userId: string }).userId === dana.userId);
      expect(danas).toHaveLength(1);
      expect((danas[0]!.payload as { commentIds: string[] }).commentIds).toEqual([first.id, second.id, third.id]);
      expect(danas[0]!.runAt.getTime()).toBeGreaterThan(Date.now() + 2 * 60_000);
      // Nothing goes before the three minutes pass.
      await runJobs();
      expect(mailsTo(dana.email)).toHaveLength(0);
      // Her inbox has a row for each reply now.
      const rows = (await inbox(dana)).notifications.slice(0, 3);
      expect(rows.map((r) => r.title)).toEqual([
        'Owen Owner replied in a thread on 12 Pier Road',
        'Asha Assistant replied in a thread on 12 Pier Road',
        'Owen Owner replied in a thread on 12 Pier Road',
      ]);
      expect(rows[0]!.path).toBe(`/app/loans/${loanId}#comment-${third.id}`);

      // She read the loan page up to the first reply.
      await setCursor(dana, first.sharedActivitySeq!);
      await digestsDue();
      await runJobs();
      const mails = mailsTo(dana.email);
      expect(mails).toHaveLength(1);
      expect(mails[0]!.header('Subject')).toBe('Harbor Lending: 2 new comments on 12 Pier Road');
      expect(mails[0]!.body).toContain('PDFs from the bank are best.');
      expect(mails[0]!.body).toContain('And page 2 of each.');
      expect(mails[0]!.body).not.toContain('The last two months');
      expect(mails[0]!.body).toContain(`/app/loans/${loanId}#comment-${second.id}`);
      expect(mails[0]!.header('List-Unsubscribe')).toContain('/unsubscribe?token=');
      // The thread's other people heard of the replies they did not write: the owner of Asha's, Asha of the owner's.
      expect(mailsTo(asha.email)).toHaveLength(1);
      expect(mailsTo(harbor.owner.email)).toHaveLength(1);
    });

    it('sends nothing when the person saw every comment before the digest ran', async () => {
      const thread = await post(cole, 'Is the appraisal booked?');
      const reply = await post(asha, 'Tuesday at 10.', { parentId: thread.id });
      await setCursor(cole, reply.sharedActivitySeq!);
      await digestsDue();
      await runJobs();
      expect(mailsTo(cole.email)).toHaveLength(0);
      expect((await inbox(cole)).notifications[0]).toMatchObject({ kind: 'comment', title: 'Asha Assistant replied in a thread on 12 Pier Road' });
    });

    it('never tells a borrower of an internal note or its replies (a mention of them in one is refused): no inbox row, no mail', async () => {
      const before = await api.db.$count(notification, eq(notification.userId, dana.userId));
      const coleBefore = await api.db.$count(notification, eq(notification.userId, cole.userId));
      // The comments feature refuses mentioning a borrower in an internal note outright.
      const refused = await api.as(asha).post(`/api/loans/${loanId}/comments`, { body: 'Internal', visibility: 'internal', mentions: [dana.userId] });
      expect(refused.statusCode).toBe(400);
      const note = await post(asha, 'Internal: her DSCR is borderline.', { visibility: 'internal', mentions: [harbor.owner.userId] });
      await post(harbor.owner, 'Agreed, ask for reserves.', { parentId: note.id });
      expect(await api.db.$count(notification, eq(notification.userId, dana.userId))).toBe(before);
      expect(await api.db.$count(notification, eq(notification.userId, cole.userId))).toBe(coleBefore);
      const ownerRow = (await inbox(harbor.owner)).notifications[0]!;
      expect(ownerRow).toMatchObject({ kind: 'mention', title: 'Asha Assistant mentioned you on 12 Pier Road', body: 'Internal: her DSCR is borderline.' });
      await digestsDue();
      await runJobs();
      expect(mailsTo(dana.email)).toHaveLength(0);
      const [mail] = mailsTo(harbor.owner.email);
      expect(mail?.body).toContain('Asha Assistant (internal note):');
      expect(mail?.body).toContain(note.id);
      expect(mail?.header('List-Unsubscribe')).toContain('.mention.');
      expect(peer.received.flatMap((m) => m.to)).not.toContain(cole.email);
    });

    it('tells mentioned people, not the author, by the kind they chose', async () => {
      await api.as(cole).put('/api/me/notification-preferences', { preferences: [{ kind: 'mention', channel: 'in_app' }] });
      await post(harbor.owner, '@Cole @Dana please sign the credit authorization.', { mentions: [cole.userId, dana.userId, harbor.owner.userId] });
      expect((await inbox(cole)).notifications[0]).toMatchObject({ kind: 'mention' });
      expect((await inbox(dana)).notifications[0]).toMatchObject({ kind: 'mention' });
      expect((await inbox(harbor.owner)).notifications[0]?.title).not.toContain('Owen Owner mentioned you');
      await digestsDue();
      await runJobs();
      expect(mailsTo(cole.email)).toHaveLength(0);
      expect(mailsTo(dana.email)).toHaveLength(1);
      expect(mailsTo(harbor.owner.email)).toHaveLength(0);
      await api.as(cole).put('/api/me/notification-preferences', { preferences: [{ kind: 'mention', channel: 'email' }] });
    });

    it('tells only the people an edit newly mentions, and mails nothing of a comment deleted before its digest ran', async () => {
      const thread = await post(harbor.owner, 'Appraisal is booked for Tuesday.', { mentions: [dana.userId] });
      const counts = async () => Promise.all([dana, cole, asha].map((who) => api.db.$count(notification, eq(notification.userId, who.userId))));
      const [danaBefore, coleBefore, ashaBefore] = await counts();
      // A fixed typo is no news.
      await edit(harbor.owner, thread.id, 'Appraisal is booked for Tuesday at 10.');
      expect(await counts()).toEqual([danaBefore, coleBefore, ashaBefore]);
      // Adding Cole tells Cole, and not Dana again.
      await edit(harbor.owner, thread.id, 'Appraisal is booked for Tuesday at 10, Cole too.', [dana.userId, cole.userId]);
      expect(await counts()).toEqual([danaBefore, coleBefore! + 1, ashaBefore]);
      expect((await inbox(cole)).notifications[0]).toMatchObject({ kind: 'mention', title: 'Owen Owner mentioned you on 12 Pier Road' });
      // Deleted before the digests ran: nobody is mailed it.
      const deleted = await api.as(harbor.owner).delete(`/api/loans/${loanId}/comments/${thread.id}`);
      expect(deleted.statusCode).toBe(204);
      await digestsDue();
      await runJobs();
      expect(mailsTo(dana.email)).toHaveLength(0);
      expect(mailsTo(cole.email)).toHaveLength(0);
    });

    it('mails a mention an edit added to a comment the person had already read, until they read past the edit', async () => {
      const thread = await post(harbor.owner, 'The title company needs a copy of the lease.');
      // Cole read the loan page past the comment before anyone mentioned him in it.
      await setCursor(cole, thread.sharedActivitySeq!);
      await edit(harbor.owner, thread.id, '@Cole the title company needs a copy of the lease.', [cole.userId]);
      expect((await inbox(cole)).notifications[0]).toMatchObject({ kind: 'mention', title: 'Owen Owner mentioned you on 12 Pier Road' });
      const coles = (await pendingDigests()).filter((p) => (p.payload as { userId: string }).userId === cole.userId);
      expect(coles).toHaveLength(1);
      await digestsDue();
      await runJobs();
      const mails = mailsTo(cole.email);
      expect(mails).toHaveLength(1);
      expect(mails[0]!.body).toContain('the title company needs a copy of the lease.');
      expect(mails[0]!.header('List-Unsubscribe')).toContain('.mention.');

      // Mentioned by a second edit, but this time he read the page after it before the digest ran: no mail.
      const other = await post(harbor.owner, 'The appraiser asks for access on Tuesday.');
      await setCursor(cole, other.sharedActivitySeq!);
      await edit(harbor.owner, other.id, '@Cole the appraiser asks for access on Tuesday.', [cole.userId]);
      const [latest] = await api.db.select({ seq: loan.sharedActivitySeq }).from(loan).where(eq(loan.id, loanId));
      await setCursor(cole, latest!.seq);
      await digestsDue();
      await runJobs();
      expect(mailsTo(cole.email)).toHaveLength(1);
    });

    it('quotes a comment as it is when the inbox is read: an edit shows its new text, a deletion shows it deleted, and no stored row or job keeps the text', async () => {
      const thread = await post(dana, 'Where do I wire the deposit?');
      const reply = await post(harbor.owner, 'Wire it to routing 021000021, account 99887766.', { parentId: thread.id, mentions: [cole.userId] });
      const quoted = async (who: Person) => (await inbox(who)).notifications.find((n) => n.path.endsWith(`#comment-${reply.id}`));
      expect(await quoted(dana)).toMatchObject({ kind: 'comment', body: 'Wire it to routing 021000021, account 99887766.' });
      expect(await quoted(cole)).toMatchObject({ kind: 'mention', body: 'Wire it to routing 021000021, account 99887766.' });

      await edit(harbor.owner, reply.id, 'Wire it to routing 021000021, account 11223344.', [cole.userId]);
      for (const who of [dana, cole]) expect((await quoted(who))?.body).toBe('Wire it to routing 021000021, account 11223344.');
      // The digests wait with ids only, and mail the text as it is when they run.
      expect(JSON.stringify(await pendingDigests())).not.toContain('021000021');
      await digestsDue();
      await runJobs();
      expect(mailsTo(dana.email)).toHaveLength(1);
      expect(mailsTo(dana.email)[0]!.body).toContain('account 11223344');
      expect(mailsTo(dana.email)[0]!.body).not.toContain('99887766');

      const deleted = await api.as(harbor.owner).delete(`/api/loans/${loanId}/comments/${reply.id}`);
      expect(deleted.statusCode).toBe(204);
      for (const who of [dana, cole]) {
        const row = await quoted(who);
        expect(row).toMatchObject({ body: 'This comment was deleted.' });
        expect(JSON.stringify(await inbox(who))).not.toContain('021000021');
      }
      // Nothing stored keeps it: not the inbox rows, not a job (the digests' mails included), not the activity.
      for (const table of [notification, job, activity]) {
        const rows = await api.db.select().from(table);
        expect(JSON.stringify(rows), `the ${table === job ? 'job' : table === activity ? 'activity' : 'notification'} table`).not.toContain('021000021');
      }
    });

    it('shows each row only while the reader’s role on the loan may read it: team member to borrower, borrower to team member, removed, invited again (the list, the counts and the stream’s count alike)', async () => {
      const dock = (await createLoan(api, harbor.teamId, harbor.owner, { propertyStreet: '9 Dock Lane' })).id;
      const tess = await addAssistant(api, harbor.teamId, { name: 'Tess Turned' });
      const say = async (author: Person, body: string, options: { visibility?: 'internal'; mentions?: string[] } = {}) => {
        const response = await api.as(author).post(`/api/loans/${dock}/comments`, { body, ...options });
        expect(response.statusCode, response.body).toBe(201);
        return noticePaths.comment(dock, response.json<{ id: string }>().id);
      };
      /** The paths of the person's rows about the dock loan, and every count of them: the inbox's, the count route's, the stream's. */
      const seen = async (who: Person) => {
        const page = await inbox(who);
        const counted = (await api.as(who).get('/api/me/notifications/unread-count')).json<{ unread: number }>().unread;
        expect([page.unread, counted, await unreadNotificationCount(api.db, who.userId)]).toEqual([
          page.notifications.length,
          page.notifications.length,
          page.notifications.length,
        ]);
        return page.notifications.filter((n) => n.loanId === dock).map((n) => n.path);
      };
      const join = (who: Person, role: 'borrower' | 'co_borrower' = 'co_borrower') =>
        api.db.transaction((tx) => joinLoan(tx, { loanId: dock, userId: who.userId, role, invitedBy: harbor.owner.userId }));
      const leaveLoan = async (who: Person) => {
        const left = await api.as(harbor.owner).delete(`/api/loans/${dock}/participants/${who.userId}`);
        expect(left.statusCode, left.body).toBeLessThan(300);
      };
      const leaveTeam = async (who: Person) => {
        const left = await api.as(harbor.owner).delete(`/api/teams/${harbor.teamId}/members/${who.userId}`);
        expect(left.statusCode, left.body).toBe(204);
      };

      // Tess on the team: an internal note and a shared comment name her.
      const note = await say(harbor.owner, 'Internal: the lender caps LTV at 70 percent for her.', { visibility: 'internal', mentions: [tess.userId] });
      const shared = await say(harbor.owner, 'Tess, please check the lease.', { mentions: [tess.userId] });
      expect(await seen(tess)).toEqual([shared, note]);
      const noteRow = (await inbox(tess)).notifications.find((n) => n.path === note)!;

      // Removed from the team: nothing of the loan.
      await leaveTeam(tess);
      expect(await seen(tess)).toEqual([]);
      // Invited to the loan as co-borrower: the shared comment is hers to read, the internal note is not, nor is it hers to mark read.
      await join(tess);
      expect(await seen(tess)).toEqual([shared]);
      expect(JSON.stringify(await inbox(tess))).not.toContain('LTV');
      expect((await api.as(tess).post(`/api/me/notifications/${noteRow.id}/read`)).statusCode).toBe(404);
      // Removed from the loan, then invited again.
      await leaveLoan(tess);
      expect(await seen(tess)).toEqual([]);
      await join(tess);
      expect(await seen(tess)).toEqual([shared]);

      // The other way: a borrower who joins the team reads the team's rows as well as her own, and loses the team's when she leaves it.
      const bo = await signedIn(api, await enrolAuthenticator(api, await createAccount(api, { name: 'Bo Both' })));
      await join(bo, 'borrower');
      const hers = await say(harbor.owner, 'Bo, the appraiser calls tomorrow.', { mentions: [bo.userId] });
      expect(await seen(bo)).toEqual([hers]);
      await insertMember(api.db, { teamId: harbor.teamId, userId: bo.userId, role: 'assistant' });
      const teamNote = await say(harbor.owner, 'Internal: Bo, price it at 7.25.', { visibility: 'internal', mentions: [bo.userId] });
      expect(await seen(bo)).toEqual([teamNote, hers]);
      await leaveTeam(bo);
      expect(await seen(bo)).toEqual([hers]);
      expect(JSON.stringify(await inbox(bo))).not.toContain('7.25');
    });

    it('gives a borrower who left the loan nothing, queued or new', async () => {
      const leaving = await addBorrower(api, loanId, { name: 'Lou Leaving' });
      const thread = await post(leaving, 'I will send the lease.');
      await post(asha, 'Thanks!', { parentId: thread.id });
      // Asha's reply came while Lou was on the loan: one row, and a digest waiting.
      expect(await api.db.$count(notification, eq(notification.userId, leaving.userId))).toBe(1);
      await api.db.delete(loanParticipant).where(and(eq(loanParticipant.loanId, loanId), eq(loanParticipant.userId, leaving.userId)));
      // Mentioning someone who left is refused; a reply in their old thread tells them nothing.
      const refused = await api.as(harbor.owner).post(`/api/loans/${loanId}/comments`, { body: 'Lou?', parentId: thread.id, mentions: [leaving.userId] });
      expect(refused.statusCode).toBe(400);
      await post(harbor.owner, 'Any news?', { parentId: thread.id });
      expect(await api.db.$count(notification, eq(notification.userId, leaving.userId))).toBe(1);
      await digestsDue();
      await runJobs();
      expect(mailsTo(leaving.email)).toHaveLength(0);
      expect((await inbox(leaving)).notifications).toHaveLength(0);
    });
  });
});
