import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { JobWorker } from '../jobs/worker';
import { MAIL_QUEUE, mailJobHandler } from './mail-jobs';
import { createFileMailer, senderFor } from './mailer';
import { setupApi } from '../../../test/api';
import { backends } from '../../../test/databases';
import { addAssistant, addBorrower, createLoan, createTeamWithOwner, type Team } from '../../../test/factories';

const silent = { info() {}, warn() {}, error() {} };

interface Delivered {
  from: string;
  subject: string;
  text: string;
}

/*
 * Every mail sent for a team comes from "<team> via <brand>" at the
 * configured address, and names the team in its subject and its text, not
 * only in its HTML header. Platform mail (the waitlist) keeps MAIL_FROM.
 * Sent through the real worker into the real mail drop, read back from it.
 */
describe.each(backends)('mail sent for a team, on %s', (backend) => {
  const api = setupApi(backend);
  let team: Team;
  let dir: string;
  let worker: JobWorker;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'coverly-team-mail-'));
    team = await createTeamWithOwner(api, { name: 'Harbor Lending' });
    const mailer = createFileMailer({ dir, from: api.config.mailFrom, brandName: api.config.publicConfig.brandName, logger: silent });
    worker = new JobWorker({ db: api.db, handlers: { [MAIL_QUEUE]: mailJobHandler(mailer) }, logger: silent });
  });

  /** Sends what is queued, and returns every mail to `email` in the drop: its From header, Subject and plain text. */
  async function deliveredTo(email: string): Promise<Delivered[]> {
    while ((await worker.runOnce()) > 0);
    const found: Delivered[] = [];
    for (const file of (await readdir(dir)).filter((f) => f.endsWith('.txt')).sort()) {
      const txt = await readFile(path.join(dir, file), 'utf8');
      if (!txt.startsWith(`To: ${email}\n`)) continue;
      const eml = await readFile(path.join(dir, file.replace(/\.txt$/, '.eml')), 'utf8');
      const [head = '', body = ''] = txt.split(/\n\n([\s\S]*)/);
      found.push({ from: /^From: (.*)$/m.exec(eml)?.[1] ?? '', subject: /^Subject: (.*)$/m.exec(head)?.[1] ?? '', text: body });
    }
    return found;
  }

  const FROM_TEAM = 'Harbor Lending via Coverly <no-reply@coverly.test>';

  it('a stage change to a borrower', async () => {
    const loan = await createLoan(api, team.teamId, team.owner, { propertyStreet: '12 Pier Road' });
    await addBorrower(api, loan.id, { name: 'Mia Main', email: 'mia.stage@example.com' });
    const moved = await api.as(team.owner).post(`/api/loans/${loan.id}/stage`, { from: 'lead', to: 'documents_collecting' });
    expect(moved.statusCode, moved.body).toBe(200);
    const [mail] = await deliveredTo('mia.stage@example.com');
    expect(mail?.from).toBe(FROM_TEAM);
    expect(mail?.subject).toBe('Harbor Lending: your loan for 12 Pier Road: Documents collecting');
    expect(mail?.text).toContain('Your loan with Harbor Lending for 12 Pier Road');
  });

  it('a loan assigned to a team member', async () => {
    const assistant = await addAssistant(api, team.teamId, { name: 'Asha Assistant', email: 'asha.assigned@example.com' });
    const loan = await createLoan(api, team.teamId, team.owner, { propertyStreet: '7 Quay Street' });
    const assigned = await api.as(team.owner).patch(`/api/loans/${loan.id}`, { version: loan.version, assigneeId: assistant.userId });
    expect(assigned.statusCode, assigned.body).toBe(200);
    const [mail] = await deliveredTo('asha.assigned@example.com');
    expect(mail?.from).toBe(FROM_TEAM);
    expect(mail?.subject).toMatch(/^Harbor Lending: assigned to you: .*, 7 Quay Street$/);
    expect(mail?.text).toContain('assigned you the Harbor Lending loan file');
  });

  it("an assistant's and a borrower's invitation", async () => {
    expect((await api.as(team.owner).post(`/api/teams/${team.teamId}/invitations`, { email: 'new.assistant@example.com' })).statusCode).toBe(201);
    const [assistantMail] = await deliveredTo('new.assistant@example.com');
    expect(assistantMail?.from).toBe(FROM_TEAM);
    expect(assistantMail?.subject).toContain('Harbor Lending');
    expect(assistantMail?.text).toContain('join Harbor Lending');

    const loan = await createLoan(api, team.teamId, team.owner, { propertyStreet: '3 Harbour Way' });
    const invited = await api.as(team.owner).post(`/api/loans/${loan.id}/invitations`, { email: 'new.borrower@example.com', role: 'borrower' });
    expect(invited.statusCode, invited.body).toBe(201);
    const [borrowerMail] = await deliveredTo('new.borrower@example.com');
    expect(borrowerMail?.from).toBe(FROM_TEAM);
    expect(borrowerMail?.subject).toMatch(/^Harbor Lending: follow your loan for 3 Harbour Way/);
    expect(borrowerMail?.text).toContain('of Harbor Lending invited you');
  });

  it("a team member's password reset, while platform mail keeps the configured sender", async () => {
    expect((await api.as().post('/api/auth/request-password-reset', { email: team.owner.email })).statusCode).toBe(200);
    await api.app.auth.backgroundTasks.settled();
    const [reset] = await deliveredTo(team.owner.email);
    expect(reset?.from).toBe(FROM_TEAM);
    expect(reset?.subject).toBe('Harbor Lending: reset your Coverly password');
    expect(reset?.text).toContain('which you use with Harbor Lending');

    expect((await api.as().post('/api/waitlist', { fullName: 'Wes Waiting', email: 'wes.waiting@example.com' })).statusCode).toBe(200);
    const [confirmation] = await deliveredTo('wes.waiting@example.com');
    expect(confirmation?.from).toBe('Coverly <no-reply@coverly.test>');
  });
});

describe('senderFor', () => {
  it("puts the team's name before MAIL_FROM's display name, or the brand's, at MAIL_FROM's address", () => {
    expect(senderFor({ from: 'Coverly <no-reply@coverly.test>' })('Harbor Lending')).toEqual({
      name: 'Harbor Lending via Coverly',
      address: 'no-reply@coverly.test',
    });
    expect(senderFor({ from: 'no-reply@acme.test', brandName: 'Acme' })('Harbor Lending')).toEqual({
      name: 'Harbor Lending via Acme',
      address: 'no-reply@acme.test',
    });
    expect(senderFor({ from: 'Coverly <no-reply@coverly.test>' })(undefined)).toBe('Coverly <no-reply@coverly.test>');
  });
});
