import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AuditPage } from '../../shared/schemas/audit';
import type { ChecklistItemView, ChecklistView } from '../../shared/schemas/checklist';
import type { UploadView, VersionsView } from '../../shared/schemas/documents';
import type { ActivityPage } from '../../shared/schemas/loans';
import type { LinkUploadReceipt, UploadLinkInfo, UploadLinksView, UploadLinkView } from '../../shared/schemas/upload-links';
import { setupApi } from '../../test/api';
import { backends } from '../../test/databases';
import { uploadVersion } from '../../test/documents';
import { addAssistant, addBorrower, createLoan, createTeamWithOwner, type Person, type Team } from '../../test/factories';
import { samplePdf, samplePng } from '../../test/sample-files';
import { linkBearer, uploadLinkTokenFor } from '../../test/upload-links';
import { activity as activityTable, auditEvent, documentVersion, job, uploadLink } from '../db/schema';
import { JobWorker } from '../platform/jobs/worker';
import { MAIL_QUEUE, mailJobHandler } from '../platform/mail/mail-jobs';
import { createFileMailer } from '../platform/mail/mailer';
import { createLogger } from '../runtime';
import { hashLinkToken } from './upload-links.service';

const silent = { info() {}, warn() {}, error() {} };

interface Delivered {
  from: string;
  subject: string;
  text: string;
}

/*
 * Third parties' upload links (decision 016): the team sends one for a
 * third-party item; its holder, with no account, uploads one version to that
 * item and reads nothing else; the link is used up by it, and answers 410
 * when used, expired or withdrawn. And the documents' mails: uploaded (to the
 * assignee), needs revision and approved (to the uploader), sent through the
 * real worker into the real mail drop.
 */
describe.each(backends)('third-party upload links on %s', (backend) => {
  // The request log at its production level, kept to look through for the link's token.
  const logLines: string[] = [];
  const api = setupApi(backend, { logger: createLogger({ logLevel: 'info' }, { write: (line) => void logLines.push(line) }) });
  let harbor: Team;
  let assistant: Person;
  let borrower: Person;
  let loanId: string;
  let dir: string;
  let worker: JobWorker;

  const items = async () => (await api.as(harbor.owner).get(`/api/loans/${loanId}/checklist`)).json<ChecklistView<ChecklistItemView>>().items;
  const itemByKey = async (key: string) => (await items()).find((item) => item.key === key)!;
  const base = (itemId: string) => `/api/loans/${loanId}/checklist/items/${itemId}`;
  const hiddenBody = async () => ({ ...(await api.as().get('/api/__no_such_route__')).json(), instance: undefined, detail: undefined });

  /** Sends what is queued, and returns every mail to `email` in the drop. */
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

  async function sendLink(itemId: string, email: string, body: Record<string, unknown> = {}, who: Person = harbor.owner) {
    const sent = await api.as(who).post(`${base(itemId)}/upload-links`, { name: 'Tess Title', email, ...body });
    expect(sent.statusCode, sent.body).toBe(201);
    return { link: sent.json<UploadLinkView>(), token: await uploadLinkTokenFor(api.db, email) };
  }

  /** Uploads files through a link as its holder's page does: announce, send each, complete. */
  async function uploadThroughLink(token: string, files: { name: string; bytes: Buffer }[]) {
    const as = api.as(undefined, linkBearer(token));
    const started = await as.post('/api/upload-link/uploads', { files: files.map(({ name, bytes }) => ({ name, size: bytes.length })) });
    expect(started.statusCode, started.body).toBe(201);
    const upload = started.json<UploadView>();
    for (const [index, file] of files.entries()) {
      const sent = await as.put(`/api/upload-link/uploads/${upload.id}/files/${index + 1}`, file.bytes, { headers: { 'content-type': 'application/pdf' } });
      expect(sent.statusCode, sent.body).toBe(200);
    }
    return { upload, complete: () => as.post(`/api/upload-link/uploads/${upload.id}/complete`) };
  }

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'coverly-upload-links-'));
    harbor = await createTeamWithOwner(api, { name: 'Harbor Lending' });
    assistant = await addAssistant(api, harbor.teamId, { name: 'Asha Assistant', email: 'asha.links@example.com' });
    loanId = (await createLoan(api, harbor.teamId, harbor.owner, { assigneeId: assistant.userId })).id;
    borrower = await addBorrower(api, loanId, { name: 'Dana Borrower', email: 'dana.links@example.com' });
    const mailer = createFileMailer({ dir, from: api.config.mailFrom, brandName: api.config.publicConfig.brandName, logger: silent });
    worker = new JobWorker({ db: api.db, handlers: { [MAIL_QUEUE]: mailJobHandler(mailer) }, logger: silent });
  });

  it('sends a link for a third-party item: its mail, the item only, once; the upload is a third party’s version and uses the link up', async () => {
    const title = await itemByKey('title-commitment');
    const { link, token } = await sendLink(title.id, 'tess@title.test', { expiresInDays: 3 });
    expect(link).toMatchObject({ name: 'Tess Title', email: 'tess@title.test', state: 'active', usedAt: null, revokedAt: null, sentBy: harbor.owner.name });
    expect(new Date(link.expiresAt).getTime() - Date.now()).toBeGreaterThan(3 * 86_400_000 - 60_000);
    expect(JSON.stringify(link)).not.toContain(token);
    // Only the token's hash is kept.
    const [row] = await api.db.select().from(uploadLink).where(eq(uploadLink.id, link.id));
    expect(row?.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(token);

    const [mail] = await deliveredTo('tess@title.test');
    expect(mail?.from).toBe('Harbor Lending via Coverly <no-reply@coverly.test>');
    expect(mail?.subject).toBe('Harbor Lending asks you for: Title commitment');
    expect(mail?.text).toContain(`${api.config.publicUrl}/upload#${token}`);
    expect(mail?.text).toContain('a property in Austin, TX');
    for (const secret of ['Dana Borrower', 'Barton Springs']) expect(mail?.text).not.toContain(secret);
    // Once sent, the link is no longer in the outbox.
    const outbox = (await api.db.execute(sql`select payload::text as p from ${job}`)) as unknown as { rows: { p: string }[] };
    expect(outbox.rows.map((r) => r.p).join('\n')).not.toContain(token);

    const info = await api.as(undefined, linkBearer(token)).get('/api/upload-link');
    expect(info.statusCode, info.body).toBe(200);
    expect(info.json<UploadLinkInfo>()).toMatchObject({
      teamName: 'Harbor Lending',
      recipientName: 'Tess Title',
      itemLabel: 'Title commitment',
      propertyCity: 'Austin',
      propertyState: 'TX',
      expiresAt: link.expiresAt,
    });
    for (const secret of ['Dana Borrower', 'Barton Springs', loanId, title.id]) expect(info.body).not.toContain(secret);

    const pdf = await samplePdf('Title commitment, Schedule A');
    const png = samplePng();
    const { complete } = await uploadThroughLink(token, [
      { name: 'commitment.pdf', bytes: pdf },
      { name: 'schedule b.png', bytes: png },
    ]);
    const done = await complete();
    expect(done.statusCode, done.body).toBe(201);
    expect(done.json<LinkUploadReceipt>()).toEqual({
      teamName: 'Harbor Lending',
      files: [
        { name: 'commitment.pdf', size: pdf.length },
        { name: 'schedule b.png', size: png.length },
      ],
    });

    const [version] = await api.db.select().from(documentVersion).where(eq(documentVersion.itemId, title.id));
    expect(version).toMatchObject({ number: 1, uploadedAs: 'third_party', uploadedByLink: link.id, uploadedBy: null, uploaderName: 'Tess Title' });
    const versions = (await api.as(assistant).get(`${base(title.id)}/versions`)).json<VersionsView>().versions;
    expect(versions.map((v) => [v.number, v.uploadedBy, v.files.length])).toEqual([[1, 'Tess Title', 2]]);
    expect((await itemByKey('title-commitment')).status).toBe('uploaded');
    const listed = (await api.as(assistant).get(`${base(title.id)}/upload-links`)).json<UploadLinksView>().links;
    expect(listed).toMatchObject([{ id: link.id, state: 'used' }]);
    expect(JSON.stringify(listed)).not.toContain(token);

    // What is kept of it all (the outbox's payloads and errors, the loan's activity, the audit log, the request log) holds
    // no token and no document's bytes; names and labels are what the activity is read for.
    const kept = (await api.db.execute(
      sql`select payload::text || coalesce(last_error, '') as t from ${job} union all select data::text from ${activityTable} union all select data::text from ${auditEvent}`,
    )) as unknown as { rows: { t: string }[] };
    const stored = kept.rows.map((r) => r.t).join('\n');
    expect(stored).toContain('Tess Title');
    // A token pasted into a path, where no route takes one (an unknown route) or where an id goes, is logged by its route: redacted.
    for (const url of [
      `/api/upload-link/${token}`,
      `/api/upload-link/%2e/${token}`,
      `/api/upload-link/uploads/${token}/files/1`,
      `/api/upload-link?token=${token}`,
    ])
      await api.as().get(url);
    const requestLog = logLines.join('');
    expect(requestLog).toContain('"url":"/api/upload-link/uploads/');
    for (const text of [stored, requestLog]) {
      expect(text).not.toContain(token);
      expect(text).not.toContain(hashLinkToken(token));
      for (const bytes of [pdf, png]) {
        expect(text).not.toContain(bytes.toString('base64').slice(0, 24));
        expect(text).not.toContain(bytes.toString('hex').slice(0, 32));
      }
      expect(text).not.toContain('%PDF');
    }

    // Single-use: every later call is a 410 that says so.
    for (const [method, url] of [
      ['GET', '/api/upload-link'],
      ['POST', '/api/upload-link/uploads'],
    ] as const) {
      const again = await api.app.inject({
        method,
        url,
        ...linkBearer(token),
        ...(method === 'POST' ? { payload: { files: [{ name: 'x.pdf', size: 10 }] } } : {}),
      });
      expect(again.statusCode, `${method} ${url}`).toBe(410);
      expect(again.json().detail).toMatch(/already used/);
    }

    // The assignee heard of the upload, with who sent it.
    const [uploaded] = await deliveredTo('asha.links@example.com').then((mails) => mails.filter((m) => m.subject.includes('uploaded')));
    expect(uploaded?.subject).toBe('Harbor Lending: Title commitment uploaded: Dana Borrower, 1200 Barton Springs Rd');
    expect(uploaded?.text).toContain('Tess Title uploaded version 1 of Title commitment (2 files)');
    expect(uploaded?.text).toContain(`${api.config.publicUrl}/app/loans/${loanId}`);

    // The team reads who sent the link and that it was used; the borrowers read none of it (an internal item).
    const activity = (await api.as(harbor.owner).get(`/api/loans/${loanId}/activity`)).json<ActivityPage>().items;
    expect(activity.find((a) => a.kind === 'document.link_sent')?.data).toMatchObject({ linkId: link.id, email: 'tess@title.test', label: 'Title commitment' });
    expect(activity.find((a) => a.kind === 'document.uploaded')?.data).toMatchObject({ uploadedAs: 'third_party', thirdPartyName: 'Tess Title' });
    const theirs = (await api.as(borrower).get(`/api/loans/${loanId}/activity`)).body;
    expect(theirs).not.toContain('tess@title.test');
    expect(theirs).not.toContain('link_sent');
    const audit = (await api.as(harbor.owner).get(`/api/teams/${harbor.teamId}/audit?action=upload_link.sent`)).json<AuditPage>();
    expect(audit.events[0]?.data).toMatchObject({ loanId, linkId: link.id, email: 'tess@title.test' });
  });

  it('tells a third party of the review: needs revision with the reason and a new link to come, approval with thanks', async () => {
    const hazard = await itemByKey('hazard-insurance');
    const { token } = await sendLink(hazard.id, 'ivan@insure.test');
    expect((await (await uploadThroughLink(token, [{ name: 'quote.pdf', bytes: await samplePdf('Quote') }])).complete()).statusCode).toBe(201);
    const v1 = (await api.as(assistant).get(`${base(hazard.id)}/versions`)).json<VersionsView>().versions[0]!;
    // The borrowers see the item's upload (it is theirs to see) as the team's, with nothing of the third party.
    const theirs = await api.as(borrower).get(`/api/loans/${loanId}/activity`);
    expect(theirs.json<ActivityPage>().items.find((a) => a.kind === 'document.uploaded' && a.data.itemId === hazard.id)?.actor).toEqual({
      name: 'Harbor Lending',
    });
    for (const secret of ['Tess Title', 'ivan@insure.test', 'linkId', 'link_sent', 'thirdPartyName']) expect(theirs.body).not.toContain(secret);
    const reason = 'The quote must name the lender as mortgagee.';
    const current = await itemByKey('hazard-insurance');
    const sentBack = await api.as(assistant).post(`${base(hazard.id)}/versions/${v1.id}/needs-revision`, { version: current.version, reason });
    expect(sentBack.statusCode, sentBack.body).toBe(200);
    const [revision] = await deliveredTo('ivan@insure.test').then((mails) => mails.filter((m) => m.subject.includes('new version')));
    expect(revision?.subject).toBe('Harbor Lending: Hazard insurance quote needs a new version');
    expect(revision?.text).toContain(reason);
    expect(revision?.text).toContain('Harbor Lending will send you a new upload link');
    expect(revision?.text).not.toContain('/app/loans/');

    // The old link stays used; the team sends a new one, and approves what comes through it.
    expect((await api.as(undefined, linkBearer(token)).get('/api/upload-link')).statusCode).toBe(410);
    const again = await sendLink(hazard.id, 'ivan@insure.test');
    expect((await (await uploadThroughLink(again.token, [{ name: 'quote-2.pdf', bytes: await samplePdf('Quote 2') }])).complete()).statusCode).toBe(201);
    const v2 = (await api.as(assistant).get(`${base(hazard.id)}/versions`)).json<VersionsView>().versions[0]!;
    const approved = await api
      .as(harbor.owner)
      .post(`${base(hazard.id)}/versions/${v2.id}/approve`, { version: (await itemByKey('hazard-insurance')).version, documentDate: '2026-11-20' });
    expect(approved.statusCode, approved.body).toBe(200);
    const thanks = (await deliveredTo('ivan@insure.test')).find((m) => m.subject.endsWith('approved'));
    expect(thanks?.text).toContain('Harbor Lending approved the Hazard insurance quote (version 2) you sent for a property in Austin, TX. Thank you.');
    // An item no longer asked for: its links' page says so.
    const late = await sendLink((await itemByKey('flood-certificate')).id, 'fay@flood.test');
    await api.as(harbor.owner).post(`${base((await itemByKey('flood-certificate')).id)}/waive`, {
      version: (await itemByKey('flood-certificate')).version,
      reason: 'Zone X',
    });
    const gone = await api.as(undefined, linkBearer(late.token)).get('/api/upload-link');
    expect(gone.statusCode).toBe(410);
    expect(gone.json().detail).toBe('Harbor Lending no longer needs this document. Thank you.');
  });

  it('tells a borrower of the review of their upload, and the assignee of it unless they uploaded it themselves', async () => {
    const bank = await itemByKey('bank-statements');
    const version = await uploadVersion(api, borrower, loanId, bank.id, [{ name: 'march.pdf', bytes: await samplePdf('March') }]);
    const [uploaded] = await deliveredTo('asha.links@example.com').then((mails) => mails.filter((m) => m.subject.includes('Bank statements')));
    expect(uploaded?.text).toContain(`Dana Borrower uploaded version 1 of ${bank.label} (1 file)`);

    const reason = 'Page 2 is missing.';
    const item = await itemByKey('bank-statements');
    expect((await api.as(assistant).post(`${base(bank.id)}/versions/${version.id}/needs-revision`, { version: item.version, reason })).statusCode).toBe(200);
    const [revision] = await deliveredTo('dana.links@example.com').then((mails) => mails.filter((m) => m.subject.includes('new version')));
    expect(revision?.subject).toBe(`Harbor Lending: ${bank.label} needs a new version`);
    expect(revision?.text).toContain(reason);
    expect(revision?.text).toContain(`Upload the new version here:\n${api.config.publicUrl}/app/loans/${loanId}`);
    expect(revision?.text).toContain('1200 Barton Springs Rd');

    // The assignee uploads version 2 themselves: no mail to them about it; they approve their own: none either.
    const before = (await deliveredTo('asha.links@example.com')).length;
    const v2 = await uploadVersion(api, assistant, loanId, bank.id, [{ name: 'march-full.pdf', bytes: await samplePdf('March, whole') }]);
    const approved = await api
      .as(assistant)
      .post(`${base(bank.id)}/versions/${v2.id}/approve`, { version: (await itemByKey('bank-statements')).version, documentDate: '2026-11-01' });
    expect(approved.statusCode, approved.body).toBe(200);
    expect((await deliveredTo('asha.links@example.com')).length).toBe(before);
  });

  it('answers an unknown token as an unknown route, and an expired or withdrawn link with a 410 that says so', async () => {
    const hidden = await hiddenBody();
    for (const authorization of ['', 'Bearer nope', `Bearer ${'A'.repeat(43)}`, `Basic ${'A'.repeat(43)}`]) {
      const response = await api.as(undefined, { headers: authorization ? { authorization } : {} }).get('/api/upload-link');
      expect(response.statusCode, authorization).toBe(404);
      expect({ ...response.json(), instance: undefined, detail: undefined }).toEqual(hidden);
    }
    // The token in the query or a cookie is no credential: only the header is.
    const appraisal = await itemByKey('appraisal-1007');
    const { link, token } = await sendLink(appraisal.id, 'abe@appraise.test');
    expect((await api.as(`token=${token}`).get(`/api/upload-link?token=${token}`)).statusCode).toBe(404);

    await api.db
      .update(uploadLink)
      .set({ expiresAt: sql`now() - interval '1 minute'` })
      .where(eq(uploadLink.id, link.id));
    const expired = await api.as(undefined, linkBearer(token)).get('/api/upload-link');
    expect(expired.statusCode).toBe(410);
    expect(expired.json().detail).toMatch(/^This link expired on .* Ask Harbor Lending for a new one\.$/);
    expect((await api.as(harbor.owner).get(`${base(appraisal.id)}/upload-links`)).json<UploadLinksView>().links[0]?.state).toBe('expired');

    const fresh = await sendLink(appraisal.id, 'abe@appraise.test');
    const started = await api.as(undefined, linkBearer(fresh.token)).post('/api/upload-link/uploads', { files: [{ name: 'a.pdf', size: 10 }] });
    expect(started.statusCode).toBe(201);
    const revoked = await api.as(assistant).delete(`${base(appraisal.id)}/upload-links/${fresh.link.id}`);
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(revoked.json<UploadLinkView>().state).toBe('revoked');
    // Withdrawing twice changes nothing.
    expect((await api.as(harbor.owner).delete(`${base(appraisal.id)}/upload-links/${fresh.link.id}`)).json<UploadLinkView>().state).toBe('revoked');
    for (const [method, url] of [
      ['GET', '/api/upload-link'],
      ['DELETE', `/api/upload-link/uploads/${started.json<UploadView>().id}`],
    ] as const) {
      const response = await api.app.inject({ method, url, ...linkBearer(fresh.token) });
      expect(response.statusCode, url).toBe(410);
      expect(response.json().detail).toBe('Harbor Lending withdrew this link. Ask them for a new one if they still need documents from you.');
    }
    const audit = (await api.as(harbor.owner).get(`/api/teams/${harbor.teamId}/audit?action=upload_link.revoked`)).json<AuditPage>();
    expect(audit.events.map((e) => e.data.linkId)).toEqual([fresh.link.id]);

    // A link whose item is gone is gone with it: its token names nothing.
    const survey = await api
      .as(harbor.owner)
      .post(`/api/loans/${loanId}/checklist/items`, { label: 'Boundary survey', category: 'property', provider: 'third_party' });
    const surveyItem = survey.json<ChecklistItemView>();
    const doomed = await sendLink(surveyItem.id, 'bo@survey.test');
    expect((await api.as(harbor.owner).delete(base(surveyItem.id), { version: surveyItem.version })).statusCode).toBe(204);
    expect((await api.as(undefined, linkBearer(doomed.token)).get('/api/upload-link')).statusCode).toBe(404);

    // A link of another item, or another loan's, is not this item's to withdraw.
    const otherLoan = (await createLoan(api, harbor.teamId, harbor.owner)).id;
    expect((await api.as(harbor.owner).delete(`/api/loans/${otherLoan}/checklist/items/${appraisal.id}/upload-links/${fresh.link.id}`)).statusCode).toBe(404);
    const title = await itemByKey('title-commitment');
    expect((await api.as(harbor.owner).delete(`${base(title.id)}/upload-links/${fresh.link.id}`)).statusCode).toBe(404);
  });

  it("keeps a link to its own item and its own uploads: another person's upload, or another item, is out of its reach", async () => {
    const rentRoll = (await items()).find((item) => item.provider === 'borrower' && item.borrowerVisible)!;
    const borrowers = await api.as(borrower).post(`${base(rentRoll.id)}/uploads`, { files: [{ name: 'roll.pdf', size: 10 }] });
    expect(borrowers.statusCode).toBe(201);
    const theirUpload = borrowers.json<UploadView>().id;
    const flood = await api.as(harbor.owner).post(`/api/loans/${loanId}/checklist/items`, { label: 'Survey', category: 'property', provider: 'third_party' });
    const { token } = await sendLink(flood.json<ChecklistItemView>().id, 'sam@survey.test');
    const as = api.as(undefined, linkBearer(token));
    for (const response of [
      await as.put(`/api/upload-link/uploads/${theirUpload}/files/1`, Buffer.from('0123456789'), { headers: { 'content-type': 'application/pdf' } }),
      await as.post(`/api/upload-link/uploads/${theirUpload}/complete`),
      await as.delete(`/api/upload-link/uploads/${theirUpload}`),
      await as.post(`/api/upload-link/uploads/not-a-uuid/complete`),
    ]) {
      expect(response.statusCode).toBe(404);
    }
    // The token opens none of the loan's own routes: there it is nobody.
    for (const url of [`/api/loans/${loanId}`, `${base(rentRoll.id)}/versions`, `/api/loans/${loanId}/checklist`]) {
      expect((await as.get(url)).statusCode, url).toBe(401);
    }
    // What it uploads lands on its item, never elsewhere.
    const { upload, complete } = await uploadThroughLink(token, [{ name: 'survey.pdf', bytes: await samplePdf('Survey') }]);
    expect(upload.itemId).toBe(flood.json<ChecklistItemView>().id);
    expect((await complete()).statusCode).toBe(201);
  });

  it('uses a link up once when two of its uploads finish: the second is a 410 and makes no version', async () => {
    const item = await api
      .as(harbor.owner)
      .post(`/api/loans/${loanId}/checklist/items`, { label: 'Payoff letter', category: 'title', provider: 'third_party' });
    const itemId = item.json<ChecklistItemView>().id;
    const { token } = await sendLink(itemId, 'pat@payoff.test');
    const pdf = await samplePdf('Payoff');
    const first = await uploadThroughLink(token, [{ name: 'one.pdf', bytes: pdf }]);
    const second = await uploadThroughLink(token, [{ name: 'two.pdf', bytes: pdf }]);
    const [a, b] = await Promise.all([first.complete(), second.complete()]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([201, 410]);
    expect(await api.db.select().from(documentVersion).where(eq(documentVersion.itemId, itemId))).toHaveLength(1);
  });

  it('limits each client address on the link routes, counted before the token is even looked at', async () => {
    const guesser = api.as(undefined, { remoteAddress: '203.0.113.9', headers: { authorization: `Bearer ${'B'.repeat(43)}` } });
    const codes: number[] = [];
    for (let i = 0; i < 61; i++) codes.push((await guesser.get('/api/upload-link')).statusCode);
    expect(codes.slice(0, 60).every((code) => code === 404)).toBe(true);
    expect(codes[60]).toBe(429);
    // Another address is not held back.
    expect((await api.as(undefined, { remoteAddress: '203.0.113.10' }).get('/api/upload-link')).statusCode).toBe(404);
  });

  it('sends links for third-party items only, while they take uploads, from the team only, and refuses bad input with a 400', async () => {
    const bank = await itemByKey('bank-statements');
    const borrowerItem = await api.as(harbor.owner).post(`${base(bank.id)}/upload-links`, { name: 'X', email: 'x@x.test' });
    expect(borrowerItem.statusCode).toBe(409);
    expect(borrowerItem.json().detail).toMatch(/items a third party provides/);
    const hazard = await itemByKey('hazard-insurance');
    expect(hazard.status).toBe('approved');
    const settled = await api.as(harbor.owner).post(`${base(hazard.id)}/upload-links`, { name: 'X', email: 'x@x.test' });
    expect(settled.statusCode).toBe(409);
    expect(settled.json().detail).toMatch(/approved: ask for it again/);

    const appraisal = await itemByKey('appraisal-1007');
    const hidden = await hiddenBody();
    for (const who of [borrower, await addBorrower(api, loanId, { role: 'co_borrower' })]) {
      for (const response of [
        await api.as(who).post(`${base(appraisal.id)}/upload-links`, { name: 'X', email: 'x@x.test' }),
        await api.as(who).get(`${base(appraisal.id)}/upload-links`),
      ]) {
        expect(response.statusCode).toBe(404);
        expect({ ...response.json(), instance: undefined, detail: undefined }).toEqual(hidden);
      }
    }
    for (const [body, field] of [
      [{ name: 'X', email: 'not an address' }, 'email'],
      [{ name: '', email: 'x@x.test' }, 'name'],
      [{ name: 'X', email: 'x@x.test', expiresInDays: 31 }, 'expiresInDays'],
      [{ name: 'X', email: 'x@x.test', expiresInDays: 0 }, 'expiresInDays'],
      [{ name: 'X', email: 'x@x.test', expiresInDays: 1.5 }, 'expiresInDays'],
      [{ name: 'X', email: 'x@x.test', token: 'mine' }, ''],
    ] as const) {
      const response = await api.as(assistant).post(`${base(appraisal.id)}/upload-links`, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      if (field) expect(response.json().errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    const links = await api.db
      .select()
      .from(uploadLink)
      .where(and(eq(uploadLink.itemId, appraisal.id), eq(uploadLink.email, 'x@x.test')));
    expect(links).toHaveLength(0);
  });
});
