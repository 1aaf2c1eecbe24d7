import { once } from 'node:events';
import { readdir } from 'node:fs/promises';
import { request } from 'node:http';
import path from 'node:path';
import fc from 'fast-check';
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
import { deflatedZeros, rawZip, wordDocumentEntries, type RawEntry } from '../../test/zip-files';

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

    const locked = await samplePdf('Locked statement', { password: 'secret' });
    const passworded = await send(await start(locked.length), locked);
    expect(passworded.statusCode).toBe(422);
    expect(passworded.json().detail).toMatch(/password/i);

    const polyglot = Buffer.concat([samplePng(), Buffer.from('<html><script>alert(1)</script></html>')]);
    const appended = await send(await start(polyglot.length), polyglot);
    expect([415, 422]).toContain(appended.statusCode);

    const empty = await api.as(borrower).post(`${base(id)}/uploads`, { files: [{ name: 'empty.pdf', size: 0 }] });
    expect(empty.statusCode).toBe(400);
    expect(JSON.stringify(empty.json())).toMatch(/empty/);

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

  it('refuses a DOCX zip bomb whose headers claim 100 bytes a part with a 422 naming it, and keeps nothing (issue 22)', async () => {
    const id = (await itemByKey('government-id')).id;
    const bomb = deflatedZeros(64 * 2 ** 20);
    const file = rawZip([
      ...wordDocumentEntries(),
      ...Array.from({ length: 10 }, (_, i): RawEntry => ({ name: `word/media/image${i}.png`, deflated: bomb, claim: 100 })),
    ]);
    const started = (await api.as(borrower).post(`${base(id)}/uploads`, { files: [{ name: 'lease.docx', size: file.length }] })).json<UploadView>();
    const sent = await api.as(borrower).put(`${base(id)}/uploads/${started.id}/files/1`, file, { headers: { 'content-type': 'application/octet-stream' } });
    expect(sent.statusCode).toBe(422);
    expect(sent.json()).toMatchObject({
      code: 'unsafe_file',
      detail: 'This Word document unpacks to more than 62 MB (Coverly stopped unpacking it there), far more than a real one of 640 KB; it may be a zip bomb',
    });
    const done = await api.as(borrower).post(`${base(id)}/uploads/${started.id}/complete`);
    expect(done.statusCode).toBe(409);
    expect((await api.as(harbor.owner).get(`${base(id)}/versions`)).json<VersionsView>().versions).toEqual([]);
    // The same parts with headers that tell the truth about small sizes are a Word document like any other.
    const honest = rawZip(wordDocumentEntries('Lease, signed'));
    const version = await uploadVersion(api, borrower, loanId, id, [{ name: 'lease.docx', bytes: honest }]);
    expect(version.files.map((f) => f.type)).toEqual(['application/vnd.openxmlformats-officedocument.wordprocessingml.document']);
  });

  it('never 5xxs the document endpoints with bad bodies, ids or ranges (property-based)', async () => {
    const bank = await itemByKey('bank-statements');
    const { versions } = (await api.as(assistant).get(`${base(bank.id)}/versions`)).json<VersionsView>();
    const version = versions[0]!;
    const started = (await api.as(assistant).post(`${base(bank.id)}/uploads`, { files: [{ name: 'x.pdf', size: 10 }] })).json<UploadView>();
    const bad = fc.oneof(
      fc.constantFrom('\u0000', '\ud800', '', ' ', 'NaN', '2027-02-30', [], {}, null, true, -1, 0, 1e21, 2 ** 53 + 2, 7.5),
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.jsonValue({ maxDepth: 2 }),
    );
    const file = fc.dictionary(fc.constantFrom('name', 'size', 'type', 'x'), bad, { maxKeys: 3 });
    const body = fc.oneof(
      fc.dictionary(fc.constantFrom('version', 'documentDate', 'reason', 'files', 'x'), bad, { maxKeys: 3 }),
      fc.record({ files: fc.array(fc.oneof(file, bad), { maxLength: 25 }) }),
    );
    const targets = [
      ['POST', `${base(bank.id)}/uploads`],
      ['POST', `${base(bank.id)}/uploads/${started.id}/complete`],
      ['POST', `${base(bank.id)}/versions/${version.id}/open`],
      ['POST', `${base(bank.id)}/versions/${version.id}/approve`],
      ['POST', `${base(bank.id)}/versions/${version.id}/needs-revision`],
    ] as const;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...targets), body, async ([method, url], payload) => {
        const response = await api.app.inject({ method, url, payload: payload as object, headers: { cookie: assistant.cookie } });
        expect(response.statusCode, `${method} ${url} ${JSON.stringify(payload).slice(0, 200)} → ${response.body.slice(0, 200)}`).toBeLessThan(500);
      }),
      { numRuns: 150 },
    );
    const segment = fc.oneof(fc.uuid(), fc.string({ maxLength: 12 }), fc.constantFrom('%00', '..', '%2e%2e', '0', '-1', '99', '1e3'));
    const range = fc.oneof(
      fc.constant(undefined),
      fc.string({ maxLength: 20 }),
      fc.tuple(fc.integer({ min: -5, max: 3000 }), fc.integer({ min: -5, max: 3000 })).map(([a, b]) => `bytes=${a}-${b}`),
    );
    const fileId = version.files[0]!.id;
    await fc.assert(
      fc.asyncProperty(segment, segment, range, async (uploadSegment, positionSegment, rangeHeader) => {
        const urls = [
          `${base(bank.id)}/uploads/${uploadSegment}/files/${positionSegment}`,
          `${base(bank.id)}/files/${encodeURIComponent(uploadSegment)}`,
          `${base(bank.id)}/files/${fileId}`,
        ];
        for (const url of urls) {
          const method = url.includes('/uploads/') ? 'PUT' : 'GET';
          const response = await api.app.inject({
            method,
            url,
            headers: { cookie: assistant.cookie, ...(rangeHeader === undefined ? {} : { range: rangeHeader }), 'content-type': 'application/octet-stream' },
            ...(method === 'PUT' ? { payload: Buffer.from('%PDF-1.4') } : {}),
          });
          expect(response.statusCode, `${method} ${url} range=${rangeHeader} → ${response.body.slice(0, 200)}`).toBeLessThan(500);
        }
      }),
      { numRuns: 60 },
    );
  });
});

describe.each(backends)('the upload size limit over a real socket on %s', (backend) => {
  const api = setupApi(backend, { env: { MAX_UPLOAD_MB: '1' }, listen: true });
  let borrower: Person;
  let loanId: string;
  let itemId: string;

  beforeAll(async () => {
    const team = await createTeamWithOwner(api);
    loanId = (await createLoan(api, team.teamId, team.owner)).id;
    borrower = await addBorrower(api, loanId);
    itemId = (await api.as(borrower).get(`/api/loans/${loanId}/checklist`)).json<ChecklistView>().items[0]!.id;
  });

  /** Sends `chunks` as the body of a PUT (with `length` as Content-Length, or chunked), and resolves with the answer and whether the server closed. */
  function sendRaw(url: string, chunks: Buffer[], length?: number) {
    return new Promise<{ status: number; body: string; closed: boolean }>((resolve, reject) => {
      const req = request(`${api.baseUrl}${url}`, {
        method: 'PUT',
        headers: {
          cookie: borrower.cookie,
          origin: 'http://localhost:3000',
          'content-type': 'application/pdf',
          ...(length === undefined ? {} : { 'content-length': length }),
        },
      });
      req.on('response', (res) => {
        let body = '';
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, body, closed: res.headers.connection === 'close' }));
      });
      req.on('error', reject);
      (async () => {
        for (const chunk of chunks) {
          if (req.destroyed) return;
          if (!req.write(chunk)) await once(req, 'drain').catch(() => {});
        }
        req.end();
      })().catch(() => {});
    });
  }

  const start = async (size: number) =>
    (await api.as(borrower).post(`/api/loans/${loanId}/checklist/items/${itemId}/uploads`, { files: [{ name: 'big.pdf', size }] })).json<UploadView>();
  const fileUrl = (upload: UploadView) => `/api/loans/${loanId}/checklist/items/${itemId}/uploads/${upload.id}/files/1`;
  const storedFiles = async () => (await readdir(path.join(api.config.dataDir, 'files'), { recursive: true, withFileTypes: true })).filter((e) => e.isFile());

  it('refuses a declared length over MAX_UPLOAD_MB at once, and a stream that passes it while reading, with 413 and a closed connection', async () => {
    const before = (await storedFiles()).length;
    const upload = await start(1024 * 1024);
    const declared = await sendRaw(fileUrl(upload), [Buffer.from('%PDF-1.7\n')], 5 * 1024 * 1024);
    expect(declared).toMatchObject({ status: 413, closed: true });
    expect(JSON.parse(declared.body).detail).toMatch(/at most 1 MB/);

    const chunks = [Buffer.from('%PDF-1.7\n'), ...Array.from({ length: 40 }, () => Buffer.alloc(64 * 1024, 0x41))];
    const streamed = await sendRaw(fileUrl(upload), chunks);
    expect(streamed).toMatchObject({ status: 413, closed: true });
    expect((await storedFiles()).filter((e) => !e.parentPath.includes('.tmp')).length).toBe(before);
    const tmp = await readdir(path.join(api.config.dataDir, 'files', '.tmp'));
    expect(tmp).toEqual([]);
  });
});
