import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { job } from '../../db/schema';
import { JobWorker } from '../jobs/worker';
import { MAIL_QUEUE, mailJobHandler } from './mail-jobs';
import { createSmtpMailer } from './mailer';
import { setupApi } from '../../../test/api';
import { backends } from '../../../test/databases';
import { createAdmin, createTeamWithOwner, type Team } from '../../../test/factories';
import { invitationTokenFor } from '../../../test/people';
import { SmtpPeer } from '../../../test/smtp-peer';

const silent = { info() {}, warn() {}, error() {} };
/** A message as sent, its quoted-printable soft line breaks joined again. */
const unfolded = (raw: string) => raw.replace(/=\r?\n/g, '');

/*
 * An invitation or a password-reset mail carries a link that works as a key.
 * Once the mail is sent, no row of the outbox holds it; until then (pending,
 * or dead and waiting for an admin's retry) the job keeps what it needs.
 */
describe.each(backends)('mails that carry a secret link, on %s', (backend) => {
  const api = setupApi(backend);
  const peer = new SmtpPeer();
  let team: Team;
  let worker: JobWorker;
  beforeAll(async () => {
    await peer.start();
    team = await createTeamWithOwner(api, { name: 'Harbor Lending' });
    const mailer = createSmtpMailer({ url: peer.url, from: api.config.mailFrom });
    worker = new JobWorker({ db: api.db, handlers: { [MAIL_QUEUE]: mailJobHandler(mailer) }, logger: silent, baseBackoffMs: 1, maxBackoffMs: 1 });
  });
  afterAll(async () => {
    await peer.stop();
  });

  /** Every job row as the database stores it, as one text. */
  const outboxText = async () =>
    ((await api.db.execute(sql`select payload::text as p, coalesce(last_error, '') as e from ${job}`)) as unknown as { rows: { p: string; e: string }[] }).rows
      .map((r) => `${r.p} ${r.e}`)
      .join('\n');
  const runAll = async () => {
    while ((await worker.runOnce()) > 0);
  };

  it('keeps an invitation link in the outbox only until its mail is sent, and the invitation still works', async () => {
    const email = 'ana.assistant@example.com';
    const invited = await api.as(team.owner).post(`/api/teams/${team.teamId}/invitations`, { email });
    expect(invited.statusCode, invited.body).toBe(201);
    const token = await invitationTokenFor(api.db, email);
    expect(await outboxText()).toContain(token);

    await runAll();
    expect(peer.received.some((mail) => mail.to.includes(email) && unfolded(mail.raw).includes(token))).toBe(true);
    expect(await outboxText()).not.toContain(token);
    const [row] = await api.db
      .select()
      .from(job)
      .where(sql`${job.payload}->>'to' = ${email}`);
    expect(row).toMatchObject({ status: 'done', payload: { to: email, $cleared: ['text', 'html'] } });

    const accepted = await api.as().post('/api/invitations/accept', { token, name: 'Ana Assistant', password: 'seven quiet lanterns glow' });
    expect(accepted.statusCode, accepted.body).toBe(200);
  });

  it('keeps a password-reset link in the outbox only until its mail is sent', async () => {
    const requested = await api.as().post('/api/auth/request-password-reset', { email: team.owner.email });
    expect(requested.statusCode).toBe(200);
    await api.app.auth.backgroundTasks.settled();
    const before = await outboxText();
    const token = /\/reset-password#([A-Za-z0-9_-]+)/.exec(before)?.[1] ?? '';
    expect(token.length).toBeGreaterThan(16);

    await runAll();
    expect(peer.received.some((mail) => unfolded(mail.raw).includes(token))).toBe(true);
    expect(await outboxText()).not.toContain(token);
  });

  it('keeps the link of a dead invitation mail for its retry, shows admins only its addressee and subject, and drops the link once sent', async () => {
    const admin = await createAdmin(api);
    const email = 'bo.bounced@example.com';
    expect((await api.as(team.owner).post(`/api/teams/${team.teamId}/invitations`, { email })).statusCode).toBe(201);
    const token = await invitationTokenFor(api.db, email);
    // The mail server is down for the job's last attempt.
    await api.db
      .update(job)
      .set({ attempts: sql`${job.maxAttempts} - 1` })
      .where(sql`${job.payload}->>'to' = ${email}`);
    await peer.stop();
    await runAll();
    const [dead] = await api.db
      .select()
      .from(job)
      .where(sql`${job.payload}->>'to' = ${email}`);
    expect(dead?.status).toBe('dead');
    expect(await outboxText()).toContain(token);

    const listed = await api.as(admin).get('/api/admin/jobs?status=dead');
    expect(listed.statusCode).toBe(200);
    expect(listed.body).toContain(email);
    expect(listed.body).not.toContain(token);

    await peer.start();
    expect((await api.as(admin).post(`/api/admin/jobs/${dead?.id}/retry`)).statusCode).toBe(200);
    await runAll();
    expect(
      (
        await api.db
          .select()
          .from(job)
          .where(eq(job.id, dead?.id ?? 0))
      )[0]?.status,
    ).toBe('done');
    expect(peer.received.some((mail) => mail.to.includes(email) && unfolded(mail.raw).includes(token))).toBe(true);
    expect(await outboxText()).not.toContain(token);
  });
});
