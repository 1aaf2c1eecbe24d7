import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatRatio } from '../../shared/money';
import type { AuditPage } from '../../shared/schemas/audit';
import type { ChecklistItemView, ChecklistView } from '../../shared/schemas/checklist';
import type { VersionView } from '../../shared/schemas/documents';
import type { ActivityPage, LoanView } from '../../shared/schemas/loans';
import { setupApi } from '../../test/api';
import { backends } from '../../test/databases';
import { uploadVersion, type UploadFile } from '../../test/documents';
import { addAssistant, addBorrower, createLoan, createTeamWithOwner, type Person, type Team } from '../../test/factories';
import { pdfText } from '../../test/pdf-text';
import { samplePdf, samplePng } from '../../test/sample-files';
import { unzip } from '../../test/unzip';
import { documentFile } from '../db/schema';
import { createLogger } from '../runtime';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe.each(backends)('the lender package on %s', (backend) => {
  const logLines: string[] = [];
  const api = setupApi(backend, { listen: true, logger: createLogger({ logLevel: 'error' }, { write: (line) => void logLines.push(line) }) });
  let harbor: Team;
  let assistant: Person;
  let borrower: Person;
  let loanId: string;
  /** What was uploaded, by item key: the version the package must hold and the bytes of its files. */
  const expected = new Map<string, { version: VersionView; files: UploadFile[] }>();

  const checklist = async (id = loanId) => (await api.as(harbor.owner).get(`/api/loans/${id}/checklist`)).json<ChecklistView>().items;
  const item = async (key: string, id = loanId) => (await checklist(id)).find((entry) => entry.key === key)!;
  const itemUrl = (entry: ChecklistItemView, id = loanId) => `/api/loans/${id}/checklist/items/${entry.id}`;

  async function approve(who: Person, key: string, version: VersionView, documentDate = '2026-10-31', id = loanId) {
    const response = await api
      .as(who)
      .post(`${itemUrl(await item(key, id), id)}/versions/${version.id}/approve`, { version: (await item(key, id)).version, documentDate });
    expect(response.statusCode, response.body).toBe(200);
  }
  async function status(who: Person, key: string, action: string, body: Record<string, unknown> = {}) {
    const entry = await item(key);
    const response = await api.as(who).post(`${itemUrl(entry)}/${action}`, { version: entry.version, ...body });
    expect(response.statusCode, response.body).toBe(200);
  }

  beforeAll(async () => {
    harbor = await createTeamWithOwner(api, { name: 'Harbor Lending' });
    assistant = await addAssistant(api, harbor.teamId, { name: 'Asha Assistant' });
    loanId = (
      await createLoan(api, harbor.teamId, harbor.owner, {
        borrowerName: 'José Núñez',
        entityName: 'Zoë Holdings LLC',
        lenderName: 'Ålborg Capital',
        targetClosingDate: '2026-12-15',
      })
    ).id;
    borrower = await addBorrower(api, loanId, { name: 'José Núñez' });

    // Government ID: two photos, one named in decomposed Unicode, and two names that differ only by case.
    const idFiles = [
      { name: 'Zoe\u0308 front.png', bytes: samplePng(24, 16, 3) },
      { name: 'scan.png', bytes: samplePng(16, 16, 5) },
      { name: 'SCAN.png', bytes: samplePng(16, 24, 9) },
    ];
    const id = await uploadVersion(api, borrower, loanId, (await item('government-id')).id, idFiles);
    await approve(assistant, 'government-id', id, '2026-09-30');
    expected.set('government-id', { version: id, files: idFiles });

    // Bank statements: version 1 approved; asked for again, version 2 sent back. The package keeps version 1.
    const statements = [
      { name: 'März/Kontoauszug.pdf', bytes: await samplePdf('Kontoauszug März') },
      { name: 'statement\u202efdp.exe.pdf', bytes: await samplePdf('April statement') },
    ];
    const bank1 = await uploadVersion(api, borrower, loanId, (await item('bank-statements')).id, statements);
    await approve(harbor.owner, 'bank-statements', bank1);
    expected.set('bank-statements', { version: bank1, files: statements });
    await status(harbor.owner, 'bank-statements', 'reopen');
    const bank2 = await uploadVersion(api, borrower, loanId, (await item('bank-statements')).id, [
      { name: 'may.pdf', bytes: await samplePdf('May, page 1 only') },
    ]);
    const sentBack = await api.as(assistant).post(`${itemUrl(await item('bank-statements'))}/versions/${bank2.id}/needs-revision`, {
      version: (await item('bank-statements')).version,
      reason: 'Page 2 is missing',
    });
    expect(sentBack.statusCode, sentBack.body).toBe(200);

    // An internal item the team uploaded itself.
    const flood = [{ name: 'flood cert.pdf', bytes: await samplePdf('Zone X') }];
    const floodVersion = await uploadVersion(api, assistant, loanId, (await item('flood-certificate')).id, flood);
    await approve(assistant, 'flood-certificate', floodVersion, '2026-10-01');
    expected.set('flood-certificate', { version: floodVersion, files: flood });

    // Waived, not applicable (confirmed and not yet), and one still in review.
    await status(harbor.owner, 'hazard-insurance', 'waive', { reason: 'The lender places its own hazard policy' });
    await status(borrower, 'purchase-contract', 'not-applicable', { reason: 'Contrato firmado por José en la notaría' });
    await status(harbor.owner, 'purchase-contract', 'not-applicable/confirm');
    await status(borrower, 'leases', 'not-applicable', { reason: 'Vacant until closing' });
    await uploadVersion(api, assistant, loanId, (await item('appraisal-1007')).id, [{ name: 'appraisal.pdf', bytes: await samplePdf('Appraisal') }]);
  }, 60_000);

  it('streams a zip of the latest approved version of every item, in checklist order, its length announced first', async () => {
    const response = await api.as(assistant).get(`/api/loans/${loanId}/package`);
    expect(response.statusCode, response.body.slice(0, 500)).toBe(200);
    expect(response.headers).toMatchObject({
      'content-type': 'application/zip',
      'x-content-type-options': 'nosniff',
      'content-security-policy': 'sandbox',
      'content-disposition': `attachment; filename="Jose Nunez - 1200 Barton Springs Rd - lender package.zip"; filename*=UTF-8''${encodeURIComponent('José Núñez - 1200 Barton Springs Rd - lender package.zip')}`,
    });
    expect(response.headers['cache-control']).toMatch(/no-store/);
    expect(Number(response.headers['content-length'])).toBe(response.rawPayload.length);

    const entries = await unzip(response.rawPayload);
    const order = (await checklist()).map((entry) => entry.key).filter((key): key is string => key !== null && expected.has(key));
    const folders = Object.fromEntries(await Promise.all(order.map(async (key, index) => [key, `0${index + 1} ${(await item(key)).label}`] as const)));
    const names: Record<string, string[]> = {
      'government-id': ['Zoë front.png', 'scan.png', 'SCAN (2).png'],
      'bank-statements': ['März_Kontoauszug.pdf', 'statementfdp.exe.pdf'],
      'flood-certificate': ['flood cert.pdf'],
    };
    expect(entries.map((entry) => entry.name)).toEqual(['00 Cover sheet.pdf', ...order.flatMap((key) => names[key]!.map((name) => `${folders[key]}/${name}`))]);
    expect(entries.every((entry) => entry.compressionMethod === 0)).toBe(true);
    expect(entries.every((entry) => entry.name === entry.name.normalize('NFC'))).toBe(true);

    for (const key of order) {
      const { version, files } = expected.get(key)!;
      const inZip = entries.filter((entry) => entry.name.startsWith(`${folders[key]}/`));
      expect(inZip.map((entry) => sha256(entry.bytes))).toEqual(version.files.map((file) => file.sha256));
      expect(inZip.map((entry) => entry.bytes)).toEqual(files.map((file) => file.bytes));
    }
  });

  it('puts a cover sheet first that lists the loan, its DSCR, every document with its SHA-256, and what was waived or does not apply', async () => {
    const response = await api.as(harbor.owner).get(`/api/loans/${loanId}/package`);
    const [cover] = await unzip(response.rawPayload);
    expect(cover!.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const { text } = await pdfText(cover!.bytes);
    const loan = (await api.as(harbor.owner).get(`/api/loans/${loanId}`)).json<LoanView & { viewer: 'team' }>();
    for (const phrase of [
      'Harbor Lending',
      'José Núñez',
      'Zoë Holdings LLC',
      'Ålborg Capital',
      '1200 Barton Springs Rd, Austin, TX 78704',
      'December 15, 2026',
      `Prepared by ${harbor.owner.name}`,
      // The loan page's figures, to the cent and the ratio.
      `DSCR ${formatRatio(loan.dscr.dscr!)}`,
      'PITIA $',
      // Each document: its version and each file's SHA-256.
      (await item('government-id')).label,
      'Oct 31, 2026',
      'Sep 30, 2026',
      '(now needs revision)',
      'The lender places its own hazard policy',
      'Contrato firmado por José en la notaría',
      'Vacant until closing',
      'not yet confirmed',
      'Appraisal with rent schedule (1007)',
    ]) {
      expect(text, phrase).toContain(phrase);
    }
    for (const { version } of expected.values()) {
      expect(text).toContain(`v${version.number}`);
      for (const file of version.files) expect(text).toContain(file.sha256);
    }
  });

  it('records each download in the activity and the audit log, and answers HEAD with the length alone', async () => {
    const before = (await api.as(harbor.owner).get(`/api/loans/${loanId}/activity`))
      .json<ActivityPage>()
      .items.filter((row) => row.kind === 'package.downloaded');
    const head = await api.as(harbor.owner).get(`/api/loans/${loanId}/package`);
    const headOnly = await api.app.inject({ method: 'HEAD', url: `/api/loans/${loanId}/package`, headers: { cookie: harbor.owner.cookie } });
    expect(headOnly.statusCode).toBe(200);
    expect(headOnly.rawPayload.length).toBe(0);
    expect(headOnly.headers['content-length']).toBe(head.headers['content-length']);

    const activity = (await api.as(harbor.owner).get(`/api/loans/${loanId}/activity`)).json<ActivityPage>().items;
    const downloads = activity.filter((row) => row.kind === 'package.downloaded');
    expect(downloads.length).toBe(before.length + 1);
    expect(downloads[0]).toMatchObject({ visibility: 'internal', data: { documents: 3, files: 6, bytes: Number(head.headers['content-length']) } });
    const shared = (await api.as(borrower).get(`/api/loans/${loanId}/activity`)).json<ActivityPage>().items;
    expect(shared.some((row) => row.kind === 'package.downloaded')).toBe(false);
    const audit = (await api.as(harbor.owner).get(`/api/teams/${harbor.teamId}/audit?action=package.downloaded`)).json<AuditPage>();
    expect(audit.events.length).toBeGreaterThanOrEqual(3);
    expect(audit.events[0]).toMatchObject({ action: 'package.downloaded' });
  });

  it('is hidden from the borrowers, like an unknown route', async () => {
    const unknown = (await api.as(borrower).get('/api/__no_such_route__')).json();
    const response = await api.as(borrower).get(`/api/loans/${loanId}/package`);
    expect(response.statusCode).toBe(404);
    expect({ ...response.json(), instance: undefined, detail: undefined }).toEqual({ ...unknown, instance: undefined, detail: undefined });
  });

  it('gives a loan with no approved document its cover sheet alone', async () => {
    const empty = (await createLoan(api, harbor.teamId, harbor.owner, { borrowerName: 'Zoë Ångström', propertyStreet: '77 Elm St' })).id;
    const response = await api.as(assistant).get(`/api/loans/${empty}/package`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toContain(`filename*=UTF-8''${encodeURIComponent('Zoë Ångström - 77 Elm St - lender package.zip')}`);
    expect(Number(response.headers['content-length'])).toBe(response.rawPayload.length);
    const entries = await unzip(response.rawPayload);
    expect(entries.map((entry) => entry.name)).toEqual(['00 Cover sheet.pdf']);
    const { text } = await pdfText(entries[0]!.bytes);
    expect(text).toContain('Zoë Ångström');
    expect(text).toContain('No checklist item has an approved document yet.');
    expect(text).toContain('Documents (0)');
  });

  it('breaks the download off, never sending wrong bytes, when a stored file fails its integrity check on the way', async () => {
    const broken = (await createLoan(api, harbor.teamId, harbor.owner, { borrowerName: 'Tampered Tess' })).id;
    const good = { name: 'good.pdf', bytes: await samplePdf('Good') };
    const bad = { name: 'bad.pdf', bytes: await samplePdf('This one is altered in storage') };
    const idVersion = await uploadVersion(api, harbor.owner, broken, (await item('government-id', broken)).id, [good]);
    await approve(harbor.owner, 'government-id', idVersion, '2026-10-31', broken);
    const bankVersion = await uploadVersion(api, harbor.owner, broken, (await item('bank-statements', broken)).id, [bad]);
    await approve(harbor.owner, 'bank-statements', bankVersion, '2026-10-31', broken);
    const [row] = await api.db.select().from(documentFile).where(eq(documentFile.id, bankVersion.files[0]!.id));
    const stored = path.join(api.config.dataDir, 'files', ...row!.objectKey.split('/'));
    const ciphertext = await readFile(stored);
    ciphertext[ciphertext.length - 40]! ^= 0x01;
    await writeFile(stored, ciphertext);

    logLines.length = 0;
    const url = new URL(`/api/loans/${broken}/package`, api.baseUrl);
    const outcome = await new Promise<{ status: number; declared: number; received: Buffer; aborted: boolean }>((resolve, reject) => {
      const request = httpRequest(url, { headers: { cookie: harbor.owner.cookie } }, (response) => {
        const chunks: Buffer[] = [];
        let aborted = false;
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', () => (aborted = true));
        response.on('close', () =>
          resolve({
            status: response.statusCode ?? 0,
            declared: Number(response.headers['content-length']),
            received: Buffer.concat(chunks),
            aborted: aborted || !response.complete,
          }),
        );
      });
      request.on('error', reject);
      request.end();
    });
    // A package this small can be read to the broken file while the download is still being recorded, before the
    // answer's head is out: then it is a plain 500 with no zip at all. Otherwise the zip breaks off on the way.
    expect([200, 500]).toContain(outcome.status);
    const own = bad.bytes.findIndex((byte, index) => byte !== good.bytes[index]);
    if (outcome.status === 200) {
      expect(outcome.aborted).toBe(true);
      expect(outcome.received.length).toBeLessThan(outcome.declared);
      expect(outcome.received.includes(good.bytes)).toBe(true);
      await expect(unzip(outcome.received)).rejects.toThrow();
    } else {
      expect(outcome.received.includes(good.bytes)).toBe(false);
    }
    // Either way nothing of the altered file's plaintext went out: the stream stopped before its one segment was released.
    expect(outcome.received.includes(bad.bytes.subarray(own, own + 32))).toBe(false);
    const logged = logLines.map((line) => JSON.parse(line) as { msg: string; fileId?: string });
    expect(logged.some((line) => line.msg.startsWith('The lender package broke off') && line.fileId === row!.id)).toBe(true);
  });
});
