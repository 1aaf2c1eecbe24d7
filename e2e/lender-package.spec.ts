import { readFile } from 'node:fs/promises';
import type { APIRequestContext } from '@playwright/test';
import type { ChecklistView } from '../src/shared/schemas/checklist';
import type { UploadView, VersionView } from '../src/shared/schemas/documents';
import type { LoanDetail } from '../src/shared/schemas/loans';
import { sampleLoan } from '../src/test/sample-loan';
import { samplePdf } from '../src/test/sample-files';
import { unzip } from '../src/test/unzip';
import { expect, expectNoAxeViolations, test } from './fixtures';

/** One version of one file on an item, as the web app uploads it, then approved. */
async function approvedVersion(request: APIRequestContext, loanId: string, itemId: string, name: string, bytes: Buffer) {
  const base = `/api/loans/${loanId}/checklist/items/${itemId}`;
  const started = await request.post(`${base}/uploads`, { data: { files: [{ name, size: bytes.length }] } });
  expect(started.status(), await started.text()).toBe(201);
  const upload = (await started.json()) as UploadView;
  const sent = await request.put(`${base}/uploads/${upload.id}/files/1`, { data: bytes, headers: { 'content-type': 'application/octet-stream' } });
  expect(sent.status(), await sent.text()).toBe(200);
  const done = await request.post(`${base}/uploads/${upload.id}/complete`);
  expect(done.status(), await done.text()).toBe(201);
  const version = (await done.json()) as VersionView;
  const item = ((await (await request.get(`/api/loans/${loanId}/checklist`)).json()) as ChecklistView).items.find((entry) => entry.id === itemId)!;
  const approved = await request.post(`${base}/versions/${version.id}/approve`, { data: { version: item.version, documentDate: '2026-10-31' } });
  expect(approved.status(), await approved.text()).toBe(200);
  return version;
}

test.describe('the lender package', () => {
  test('an assistant downloads the package from the loan page: the cover sheet and the approved document, under the server’s name', async ({
    page,
    loginAs,
  }) => {
    // Uploads, a long page and a download: more than the default 60 s on a busy machine.
    test.setTimeout(180_000);
    const assistant = await loginAs({ role: 'assistant', name: 'Asha Assistant' });
    const created = await page.request.post(`/api/teams/${assistant.team?.id}/loans`, { data: sampleLoan({ borrowerName: 'José Núñez' }) });
    expect(created.status(), await created.text()).toBe(201);
    const loan = (await created.json()) as LoanDetail;
    const items = ((await (await page.request.get(`/api/loans/${loan.id}/checklist`)).json()) as ChecklistView).items;
    const bank = items.find((item) => item.key === 'bank-statements')!;
    const statement = await samplePdf('March statement');
    await approvedVersion(page.request, loan.id, bank.id, 'März.pdf', statement);

    await page.goto(`/app/loans/${loan.id}`);
    const link = page.getByRole('link', { name: 'Download lender package' });
    await expect(link).toBeVisible();
    await expectNoAxeViolations(page);

    const downloading = page.waitForEvent('download');
    await link.click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('José Núñez - 1200 Barton Springs Rd - lender package.zip');
    const entries = await unzip(await readFile((await download.path())!));
    expect(entries.map((entry) => entry.name)).toEqual(['00 Cover sheet.pdf', `01 ${bank.label}/März.pdf`]);
    expect(entries[1]!.bytes.equals(statement)).toBe(true);

    // The download is on the loan's activity, in words.
    await page.reload();
    await expect(page.getByRole('list', { name: 'Activity' })).toContainText('Asha Assistant downloaded the lender package (1 document)');
  });
});
