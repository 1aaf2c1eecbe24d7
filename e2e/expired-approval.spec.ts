import type { ChecklistView } from '../src/shared/schemas/checklist';
import type { UploadView } from '../src/shared/schemas/documents';
import type { LoanDetail } from '../src/shared/schemas/loans';
import { samplePdf } from '../src/test/sample-files';
import { sampleLoan } from '../src/test/sample-loan';
import { borrowerJoinsOnPhone, expect, expectNoAxeViolations, test } from './fixtures';

const ITEM = 'Bank statements, last 2–3 months (reserves)';
const NOTICE = 'Approved, but this document is good only through 2025-03-16, before the closing on 2027-01-12: it is expired. Ask for a newer one.';
const REASON = 'This document, dated 2025-01-15, is good only through 2025-03-16, before the closing on 2027-01-12. A newer one is needed.';

test.describe('approving a document that is already out of date (issue 22)', () => {
  test('warns that the statement is expired instead of saying “approved”, and its line says why, for the team and the borrower', async ({
    page,
    browser,
    loginAs,
    isMobile,
  }) => {
    test.skip(isMobile, 'the owner works at a desk, the borrower on a phone of their own');
    // Two people, a phone, and four axe scans: minutes on a busy machine.
    test.setTimeout(240_000);
    await page.setViewportSize({ width: 1280, height: 900 });
    const owner = await loginAs({ role: 'owner', name: 'Olive Owner' });
    const created = await page.request.post(`/api/teams/${owner.team?.id}/loans`, {
      data: sampleLoan({ borrowerName: 'Bea Statement', targetClosingDate: '2027-01-12' }),
    });
    expect(created.status(), await created.text()).toBe(201);
    const loan = (await created.json()) as LoanDetail;
    const {
      context: phone,
      page: borrower,
      errors: borrowerErrors,
    } = await borrowerJoinsOnPhone(page, browser, loan.id, {
      name: 'Bea Statement',
      emailLabel: 'bea.statement',
    });

    // A bank statement from January 2025 arrives (sent through the API, as the upload on the page sends it).
    const checklist = (await (await page.request.get(`/api/loans/${loan.id}/checklist`)).json()) as ChecklistView;
    const item = checklist.items.find((entry) => entry.label === ITEM)!;
    const base = `/api/loans/${loan.id}/checklist/items/${item.id}`;
    const statement = await samplePdf('Checking account statement, January 2025');
    const started = await page.request.post(`${base}/uploads`, { data: { files: [{ name: 'statement-jan-2025.pdf', size: statement.length }] } });
    expect(started.status(), await started.text()).toBe(201);
    const upload = (await started.json()) as UploadView;
    const sent = await page.request.put(`${base}/uploads/${upload.id}/files/1`, { data: statement, headers: { 'content-type': 'application/pdf' } });
    expect(sent.status(), await sent.text()).toBe(200);
    expect((await page.request.post(`${base}/uploads/${upload.id}/complete`)).status()).toBe(201);

    // The owner approves it with its date: the approval stands, but the statement is too old for the closing.
    await page.goto(`/app/loans/${loan.id}`);
    const region = page.getByRole('region', { name: 'Document checklist' });
    await region.getByRole('button', { name: `Documents: ${ITEM}` }).click();
    await region.getByRole('button', { name: `Approve version 1: ${ITEM}` }).click();
    const approve = page.getByRole('dialog', { name: `Approve ${ITEM}` });
    await approve.getByLabel('Document date').fill('2025-01-15');
    await approve.getByRole('button', { name: 'Approve' }).click();

    // A warning that says why, announced at once, and no "approved." success.
    const warning = page.getByRole('alert').filter({ hasText: NOTICE });
    await expect(warning).toBeVisible();
    await expect(warning).toHaveAttribute('data-variant', 'warning');
    await expect(warning).toContainText(`${ITEM}: expired`);
    await expect(page.getByText(`${ITEM}: approved.`)).toHaveCount(0);
    await expect(page.getByRole('status').filter({ hasText: 'Success!' })).toHaveCount(0);

    // The line reads Expired, with the reason.
    const row = region.locator(`#item-${item.id}`);
    await expect(row).toContainText('Expired');
    await expect(row).toContainText(`Reason: ${REASON}`);
    await expectNoAxeViolations(page);

    // The borrower sees the statement needed again, and why.
    await borrower.reload();
    const needed = borrower.getByRole('region', { name: 'Your documents' }).getByRole('region', { name: 'Still needed' });
    const line = needed.locator(`#item-${item.id}`);
    await expect(line).toContainText(`Needs a new version: ${REASON}`);
    await expectNoAxeViolations(borrower);

    expect(borrowerErrors).toEqual([]);
    await phone.close();
  });
});
