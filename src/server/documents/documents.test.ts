import { beforeAll, describe, expect, it } from 'vitest';
import type { ChecklistView } from '../../shared/schemas/checklist';
import type { UploadView, VersionsView } from '../../shared/schemas/documents';
import type { AuditPage } from '../../shared/schemas/audit';
import type { ActivityPage } from '../../shared/schemas/loans';
import { setupApi } from '../../test/api';
import { backends } from '../../test/databases';
import { addAssistant, addBorrower, createLoan, createTeamWithOwner, type Person, type Team } from '../../test/factories';
import { uploadVersion } from '../../test/documents';
import { samplePdf, samplePng } from '../../test/sample-files';

describe.each(backends)('versioned uploads and reviews on %s', (backend) => {
  const api = setupApi(backend);
  let harbor: Team;
  let assistant: Person;
  let borrower: Person;
  let loanId: string;
  let statement: Buffer;

  const items = async (who: Person = harbor.owner) => (await api.as(who).get(`/api/loans/${loanId}/checklist`)).json<ChecklistView>().items;
  const itemByKey = async (key: string) => (await items()).find((item) => item.key === key)!;
  const base = (itemId: string) => `/api/loans/${loanId}/checklist/items/${itemId}`;

  beforeAll(async () => {
    harbor = await createTeamWithOwner(api, { name: 'Harbor Lending' });
    assistant = await addAssistant(api, harbor.teamId);
    loanId = (await createLoan(api, harbor.teamId, harbor.owner)).id;
    borrower = await addBorrower(api, loanId, { name: 'Dana Borrower' });
    statement = await samplePdf('Checking account statement, March');
  });

  it('takes a version of two files from a borrower, and the item reads Uploaded', async () => {
    const bank = await itemByKey('bank-statements');
    const png = samplePng();
    const version = await uploadVersion(api, borrower, loanId, bank.id, [
      { name: 'march.pdf', bytes: statement },
      { name: 'april scan.png', bytes: png },
    ]);
    expect(version).toMatchObject({ number: 1, review: 'pending', uploadedBy: 'Dana Borrower' });
    expect(version.files.map((file) => [file.position, file.name, file.type, file.size])).toEqual([
      [1, 'march.pdf', 'application/pdf', statement.length],
      [2, 'april scan.png', 'image/png', png.length],
    ]);
    expect((await itemByKey('bank-statements')).status).toBe('uploaded');
  });

  it('serves the bytes back, whole and by range, so they can never run in our origin', async () => {
    const bank = await itemByKey('bank-statements');
    const { versions } = (await api.as(assistant).get(`${base(bank.id)}/versions`)).json<VersionsView>();
    const pdf = versions[0]!.files[0]!;
    const download = await api.as(assistant).get(`${base(bank.id)}/files/${pdf.id}`);
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(statement)).toBe(true);
    expect(download.headers).toMatchObject({
      'content-type': 'application/pdf',
      'x-content-type-options': 'nosniff',
      'content-security-policy': 'sandbox',
      'content-disposition': `attachment; filename="march.pdf"; filename*=UTF-8''march.pdf`,
    });
    const range = await api.as(assistant).get(`${base(bank.id)}/files/${pdf.id}/preview`, { headers: { range: 'bytes=10-99' } });
    expect(range.statusCode).toBe(206);
    expect(range.headers['content-range']).toBe(`bytes 10-99/${statement.length}`);
    expect(range.headers['content-disposition']).toMatch(/^inline;/);
    expect(range.rawPayload.equals(statement.subarray(10, 100))).toBe(true);
    const preview = await api.as(assistant).get(`${base(bank.id)}/files/${pdf.id}/preview`);
    expect(preview.headers['content-disposition']).toMatch(/^inline;/);
    expect(preview.rawPayload.equals(statement)).toBe(true);
    const past = await api.as(assistant).get(`${base(bank.id)}/files/${pdf.id}`, { headers: { range: `bytes=${statement.length}-` } });
    expect(past.statusCode).toBe(416);
  });

  it('moves the tags by review: open → In review, needs revision with a reason, version 2, approve with its date', async () => {
    const bank = await itemByKey('bank-statements');
    const v1 = (await api.as(assistant).get(`${base(bank.id)}/versions`)).json<VersionsView>().versions[0]!;
    const opened = await api.as(assistant).post(`${base(bank.id)}/versions/${v1.id}/open`, { version: bank.version });
    expect(opened.statusCode, opened.body).toBe(200);
    expect(opened.json()).toMatchObject({ status: 'in_review' });
    const reason = 'The April page is cut off at the bottom; send the whole statement.';
    const revision = await api.as(assistant).post(`${base(bank.id)}/versions/${v1.id}/needs-revision`, { version: opened.json().version, reason });
    expect(revision.statusCode, revision.body).toBe(200);
    const mine = (await items(borrower)).find((item) => item.id === bank.id)!;
    expect(mine).toMatchObject({ status: 'needs_revision', reason });

    const v2 = await uploadVersion(api, borrower, loanId, bank.id, [{ name: 'april full.pdf', bytes: await samplePdf('April, all pages') }]);
    expect(v2.number).toBe(2);
    const stale = await api
      .as(harbor.owner)
      .post(`${base(bank.id)}/versions/${v1.id}/approve`, { version: (await itemByKey('bank-statements')).version, documentDate: '2026-10-31' });
    expect(stale.statusCode).toBe(409);
    const approved = await api.as(harbor.owner).post(`${base(bank.id)}/versions/${v2.id}/approve`, {
      version: (await itemByKey('bank-statements')).version,
      documentDate: '2026-10-31',
    });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(await itemByKey('bank-statements')).toMatchObject({ status: 'approved', documentDate: '2026-10-31' });
    const { versions } = (await api.as(borrower).get(`${base(bank.id)}/versions`)).json<VersionsView>();
    expect(versions.map((v) => [v.number, v.review])).toEqual([
      [2, 'approved'],
      [1, 'needs_revision'],
    ]);
    // A settled item takes no new version until the team asks again.
    const more = await api.as(borrower).post(`${base(bank.id)}/uploads`, { files: [{ name: 'extra.pdf', size: 10 }] });
    expect(more.statusCode).toBe(409);
  });

  it('writes uploads, reviews, views and downloads to the activity, and shows borrowers only what is theirs', async () => {
    const team = (await api.as(harbor.owner).get(`/api/loans/${loanId}/activity`)).json<ActivityPage>();
    const kinds = team.items.map((entry) => entry.kind);
    for (const kind of [
      'document.uploaded',
      'document.review_started',
      'document.needs_revision',
      'document.approved',
      'document.viewed',
      'document.downloaded',
    ]) {
      expect(kinds).toContain(kind);
    }
    const audit = await api.as(harbor.owner).get(`/api/teams/${harbor.teamId}/audit`);
    expect(audit.statusCode).toBe(200);
    const actions = audit.json<AuditPage>().events.map((event) => event.action);
    expect(actions).toEqual(expect.arrayContaining(['document.viewed', 'document.downloaded', 'document.approved', 'document.needs_revision']));

    const shared = (await api.as(borrower).get(`/api/loans/${loanId}/activity`)).json<ActivityPage>();
    const uploaded = shared.items.filter((entry) => entry.kind === 'document.uploaded');
    expect(uploaded.map((entry) => entry.actor)).toEqual([{ name: 'Dana Borrower' }, { name: 'Dana Borrower' }]);
    expect(shared.items.some((entry) => entry.kind === 'document.viewed' || entry.kind === 'document.downloaded')).toBe(false);
    const revision = shared.items.find((entry) => entry.kind === 'document.needs_revision')!;
    expect(revision.actor).toEqual({ name: 'Harbor Lending' });
  });

  it('hides internal items, their versions and files from borrowers as an unknown route', async () => {
    const internal = (await items()).find((item) => !item.borrowerVisible)!;
    const version = await uploadVersion(api, assistant, loanId, internal.id, [{ name: 'appraisal.pdf', bytes: await samplePdf('Appraisal') }]);
    for (const url of [
      `${base(internal.id)}/versions`,
      `${base(internal.id)}/files/${version.files[0]!.id}`,
      `${base(internal.id)}/files/${version.files[0]!.id}/preview`,
    ]) {
      const response = await api.as(borrower).get(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.json()).toMatchObject({ code: 'not_found', detail: `No API route ${url}` });
    }
    const start = await api.as(borrower).post(`${base(internal.id)}/uploads`, { files: [{ name: 'x.pdf', size: 10 }] });
    expect(start.statusCode).toBe(404);
  });

  it("keeps another person's upload to themselves", async () => {
    const id = (await itemByKey('government-id')).id;
    const started = (await api.as(borrower).post(`${base(id)}/uploads`, { files: [{ name: 'id.png', size: 100 }] })).json<UploadView>();
    for (const response of [
      await api.as(assistant).put(`${base(id)}/uploads/${started.id}/files/1`, samplePng(), { headers: { 'content-type': 'image/png' } }),
      await api.as(assistant).post(`${base(id)}/uploads/${started.id}/complete`),
      await api.as(assistant).delete(`${base(id)}/uploads/${started.id}`),
    ]) {
      expect(response.statusCode).toBe(404);
    }
    expect((await api.as(borrower).delete(`${base(id)}/uploads/${started.id}`)).statusCode).toBe(204);
  });

  it('refuses bad uploads with a clear 4xx and keeps nothing', async () => {
    const id = (await itemByKey('government-id')).id;
    const start = async (size: number) => (await api.as(borrower).post(`${base(id)}/uploads`, { files: [{ name: 'id.pdf', size }] })).json<UploadView>();
    const send = (upload: UploadView, bytes: Buffer) =>
      api.as(borrower).put(`${base(id)}/uploads/${upload.id}/files/1`, bytes, { headers: { 'content-type': 'application/pdf' } });

    const tooBig = await api.as(borrower).post(`${base(id)}/uploads`, { files: [{ name: 'huge.pdf', size: 51 * 1024 * 1024 }] });
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json().detail).toMatch(/huge\.pdf is larger than 50 MB/);

    const html = Buffer.from('<!doctype html><script>alert(1)</script>');
    const wrongType = await send(await start(html.length), html);
    expect(wrongType.statusCode).toBe(415);

    const cut = await send(await start(statement.length + 500), statement);
    expect(cut.statusCode).toBe(400);
    expect(cut.json().detail).toMatch(/cut off/);

    const longer = await send(await start(100), statement);
    expect(longer.statusCode).toBe(400);

    const incomplete = await start(statement.length);
    const early = await api.as(borrower).post(`${base(id)}/uploads/${incomplete.id}/complete`);
    expect(early.statusCode).toBe(409);
    expect(early.json().detail).toMatch(/has not arrived/);

    const { versions } = (await api.as(borrower).get(`${base(id)}/versions`)).json<VersionsView>();
    expect(versions).toEqual([]);
    expect((await itemByKey('government-id')).status).toBe('requested');
  });
});
