import type { Page, Route } from '@playwright/test';
import type { ChecklistView } from '../src/shared/schemas/checklist';
import type { LoanDetail } from '../src/shared/schemas/loans';
import { samplePdf, samplePng } from '../src/test/sample-files';
import { sampleLoan } from '../src/test/sample-loan';
import { expectPdfDrawn } from './documents-helpers';
import { addSession, axeAtBothWidths, borrowerJoinsOnPhone, expect, expectNoAxeViolations, test, watchPage } from './fixtures';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
const ITEM = 'Government-issued photo ID';
const REASON = 'The back of the ID is cut off: send both sides, whole.';

test.describe('documents on a checklist item', () => {
  test('a borrower uploads from a phone, the assistant previews and sends it back, the borrower uploads again, the owner approves', async ({
    page,
    browser,
    createPerson,
    isMobile,
  }) => {
    test.skip(isMobile, 'the journey sets both viewports itself, with three people');
    // Three people, two PDFs drawn and eight axe scans of long pages: minutes on a busy machine.
    test.setTimeout(240_000);
    // The assistant works in the test's own page (its console is guarded by the fixtures); the owner and the borrower beside them.
    const owner = await createPerson({ role: 'owner', name: 'Olive Owner' });
    const assistant = await createPerson({ role: 'assistant', name: 'Asha Assistant', teamId: owner.team?.id ?? '' });
    await addSession(page.context(), assistant);
    await page.setViewportSize(DESKTOP);
    const baseURL = test.info().project.use.baseURL ?? '';
    const ownerContext = await browser.newContext({ baseURL, viewport: DESKTOP });
    await addSession(ownerContext, owner);
    const ownerPage = await ownerContext.newPage();
    const ownerErrors = await watchPage(ownerPage);

    const created = await ownerPage.request.post(`/api/teams/${owner.team?.id}/loans`, {
      data: sampleLoan({ borrowerName: 'Nora Investor', assigneeId: assistant.userId }),
    });
    expect(created.status(), await created.text()).toBe(201);
    const loan = (await created.json()) as LoanDetail;

    // The borrower accepts the invitation on a phone and lands on the loan.
    const {
      context: phone,
      page: borrower,
      errors: borrowerErrors,
    } = await borrowerJoinsOnPhone(ownerPage, browser, loan.id, { name: 'Nora Investor', emailLabel: 'nora.docs' });

    // 1. Still needed: the ID takes an upload right there, with the camera on a phone.
    const documents = borrower.getByRole('region', { name: 'Your documents' });
    const needed = documents.getByRole('region', { name: 'Still needed' });
    const upload = needed.getByRole('group', { name: `Upload ${ITEM}` });
    await expect(upload.getByRole('button', { name: `Take photo: ${ITEM}` })).toBeVisible();
    await expect(upload.locator('input[capture="environment"]')).toHaveAttribute('accept', 'image/*');

    // An empty file is refused before anything is sent.
    let chooser = borrower.waitForEvent('filechooser');
    await upload.getByRole('button', { name: `Choose files: ${ITEM}` }).click();
    await (await chooser).setFiles({ name: 'empty.pdf', mimeType: 'application/pdf', buffer: Buffer.alloc(0) });
    await expect(upload.getByText('This file is empty.')).toBeVisible();
    await upload.getByRole('button', { name: 'Send 1 file' }).click();
    await expect(upload.getByRole('alert')).toHaveText('Remove the files that cannot be sent first.');
    await upload.getByRole('button', { name: 'Remove empty.pdf' }).click();

    // Two files, held on their way so their progress shows, then let through: one version appears.
    const front = await samplePdf('Government ID, front side');
    const back = samplePng(480, 300, 11);
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const hold = async (route: Route) => {
      await held;
      await route.continue();
    };
    await borrower.route('**/uploads/*/files/*', hold);
    chooser = borrower.waitForEvent('filechooser');
    await upload.getByRole('button', { name: `Choose files: ${ITEM}` }).click();
    await (
      await chooser
    ).setFiles([
      { name: 'id-front.pdf', mimeType: 'application/pdf', buffer: front },
      { name: 'id-back.png', mimeType: 'image/png', buffer: back },
    ]);
    await upload.getByRole('button', { name: 'Send 2 files' }).click();
    await expect(upload.getByRole('progressbar', { name: 'Sending id-front.pdf' })).toBeVisible();
    await expect(upload.getByRole('progressbar', { name: 'Sending id-back.png' })).toBeVisible();
    await expect(upload.getByRole('button', { name: 'Cancel upload' })).toBeEnabled();
    release();
    await expect(borrower.getByText(`${ITEM} uploaded: your team will review it.`)).toBeVisible();
    await borrower.unroute('**/uploads/*/files/*', hold);
    const waiting = documents.getByRole('region', { name: 'Waiting for review' });
    const waitingItem = waiting.getByRole('listitem').filter({ hasText: ITEM }).first();
    await expect(waitingItem).toContainText('Sent — waiting for review');
    await waitingItem.getByRole('button', { name: `Your uploads: ${ITEM}` }).click();
    const borrowerVersions = waiting.getByRole('list', { name: `Versions of ${ITEM}` });
    await expect(borrowerVersions).toContainText('Version 1');
    await expect(borrowerVersions).toContainText('Uploaded by Nora Investor');
    await expect(borrowerVersions.getByRole('list', { name: 'Files of version 1' }).getByRole('listitem')).toHaveCount(2);

    // 2. The assistant opens the PDF in the page (pdf.js draws it): the item goes In review. Axe with the versions and the preview open.
    await page.goto(`/app/loans/${loan.id}`);
    const checklist = page.getByRole('region', { name: 'Document checklist' });
    const row = checklist.getByRole('listitem').filter({ hasText: ITEM }).first();
    await expect(row).toContainText('Uploaded');
    await checklist.getByRole('button', { name: `Documents: ${ITEM}` }).click();
    const versions = checklist.getByRole('list', { name: `Versions of ${ITEM}` });
    await expect(versions).toContainText('Uploaded by Nora Investor');
    await expect(versions).toContainText('Waiting for review');
    await axeAtBothWidths(page, DESKTOP);
    await versions.getByRole('button', { name: 'Preview id-front.pdf' }).click();
    const preview = page.getByRole('dialog', { name: 'id-front.pdf' });
    await expectPdfDrawn(preview, 'id-front.pdf');
    await expect(row).toContainText('In review');
    await axeAtBothWidths(page, DESKTOP);
    await preview.getByRole('button', { name: 'Close' }).click();
    await expect(preview).toBeHidden();
    // The photo of the back shows as an image.
    await versions.getByRole('button', { name: 'Preview id-back.png' }).click();
    const image = page.getByRole('dialog', { name: 'id-back.png' }).getByRole('img', { name: 'id-back.png' });
    await expect(image).toBeVisible();
    expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(480);
    await page.keyboard.press('Escape');

    // 3. Needs revision, with the reason the borrower reads.
    await versions.getByRole('button', { name: `Needs revision, version 1: ${ITEM}` }).click();
    const revision = page.getByRole('dialog', { name: `Needs revision: ${ITEM}` });
    await revision.getByLabel('Reason').fill(REASON);
    await revision.getByRole('button', { name: 'Send back' }).click();
    await expect(row).toContainText('Needs revision');
    await expect(versions).toContainText(`What to change: ${REASON}`);

    // 4. The borrower sees why, first thing, and sends version 2; the PDF previews on the phone too.
    await borrower.reload();
    const again = needed.getByRole('listitem').filter({ hasText: ITEM }).first();
    await expect(again).toContainText(`Needs a new version: ${REASON}`);
    chooser = borrower.waitForEvent('filechooser');
    await again.getByRole('button', { name: `Choose files: ${ITEM}` }).click();
    await (await chooser).setFiles({ name: 'id-both-sides.pdf', mimeType: 'application/pdf', buffer: await samplePdf('Government ID, both sides') });
    await again.getByRole('button', { name: 'Send 1 file' }).click();
    await expect(borrower.getByText(`${ITEM} uploaded: your team will review it.`).first()).toBeVisible();
    await expect(waitingItem).toContainText('Sent — waiting for review');
    // The reason belongs to version 1: the item's new version shows none, and only the history keeps it.
    await expect(waitingItem).not.toContainText(REASON);
    await waitingItem.getByRole('button', { name: `Your uploads: ${ITEM}` }).click();
    await expect(borrowerVersions.getByRole('listitem').filter({ hasText: 'Version 2' }).first()).toContainText('Sent — waiting for review');
    await expect(borrowerVersions.getByRole('listitem').filter({ hasText: 'Version 2' }).first()).not.toContainText(REASON);
    await expect(borrowerVersions.getByRole('listitem').filter({ hasText: 'Version 1' }).first()).toContainText(`Needs a new version: ${REASON}`);
    await axeAtBothWidths(borrower, PHONE);
    await borrowerVersions.getByRole('button', { name: 'Preview id-both-sides.pdf' }).click();
    const borrowerPreview = borrower.getByRole('dialog', { name: 'id-both-sides.pdf' });
    await expectPdfDrawn(borrowerPreview, 'id-both-sides.pdf');
    await axeAtBothWidths(borrower, PHONE);
    await borrowerPreview.getByRole('button', { name: 'Close' }).click();

    // 5. The owner approves version 2 with the document's date (today unless changed): Approved, for the borrower too.
    await ownerPage.goto(`/app/loans/${loan.id}`);
    const ownerChecklist = ownerPage.getByRole('region', { name: 'Document checklist' });
    await ownerChecklist.getByRole('button', { name: `Documents: ${ITEM}` }).click();
    await ownerChecklist.getByRole('button', { name: `Approve version 2: ${ITEM}` }).click();
    const approve = ownerPage.getByRole('dialog', { name: `Approve ${ITEM}` });
    await expect(approve.getByLabel('Document date')).toHaveValue(/^\d{4}-\d{2}-\d{2}$/);
    await approve.getByLabel('Document date').fill('2026-11-02');
    await approve.getByRole('button', { name: 'Approve' }).click();
    const ownerRow = ownerChecklist.getByRole('listitem').filter({ hasText: ITEM }).first();
    await expect(ownerRow).toContainText('Approved');
    await expect(ownerChecklist.getByRole('list', { name: `Versions of ${ITEM}` })).toContainText('Document dated Nov 2, 2026');
    await borrower.reload();
    await expect(documents.getByRole('region', { name: 'Done' })).toContainText(ITEM);

    expect(ownerErrors).toEqual([]);
    expect(borrowerErrors).toEqual([]);
    await ownerContext.close();
    await phone.close();
  });

  test('a dropped file: an upload cancelled midway leaves nothing behind, and a file whose connection dropped is sent again', async ({
    page,
    loginAs,
    consoleGuard,
  }) => {
    test.setTimeout(180_000);
    const owner = await loginAs({ role: 'owner', name: 'Olive Owner' });
    const created = await page.request.post(`/api/teams/${owner.team?.id}/loans`, { data: sampleLoan({ borrowerName: 'Cancel Borrower' }) });
    expect(created.status(), await created.text()).toBe(201);
    const loan = (await created.json()) as LoanDetail;
    await page.goto(`/app/loans/${loan.id}`);
    const checklist = page.getByRole('region', { name: 'Document checklist' });
    const upload = checklist.getByRole('group', { name: `Upload ${ITEM}` });
    // On a slow link the versions arrive after the item opens: the upload waits for them, so their list never pushes it from under a finger.
    let letVersionsThrough: () => void = () => {};
    const versionsHeld = new Promise<void>((resolve) => (letVersionsThrough = resolve));
    const holdVersions = async (route: Route) => {
      await versionsHeld;
      await route.continue();
    };
    await page.route('**/versions', holdVersions);
    await checklist.getByRole('button', { name: `Documents: ${ITEM}` }).click();
    await expect(checklist.getByText('Loading the documents…')).toBeVisible();
    await expect(upload).toHaveCount(0);
    letVersionsThrough();
    await expect(checklist.getByText('Nothing uploaded yet.')).toBeVisible();
    await expect(upload).toBeVisible();
    await page.unroute('**/versions', holdVersions);
    const files = '**/uploads/*/files/*';

    // Cancelled while the file is on its way: the request is aborted, the upload deleted, the file still listed.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const hold = async (route: Route) => {
      await held;
      // The browser gave the request up when it was cancelled: nothing is left to let through.
      await route.continue().catch(() => {});
    };
    await page.route(files, hold);
    // Dropped onto the drop zone, as a file dragged from the desktop is.
    const bytes = [...(await samplePdf('Passport'))];
    const transfer = await page.evaluateHandle((pdf) => {
      const data = new DataTransfer();
      data.items.add(new File([new Uint8Array(pdf)], 'passport.pdf', { type: 'application/pdf' }));
      return data;
    }, bytes);
    const zone = upload.getByRole('button', { name: `Choose files: ${ITEM}` });
    for (const type of ['dragenter', 'dragover', 'drop']) await zone.dispatchEvent(type, { dataTransfer: transfer });
    await expect(upload.getByRole('list', { name: `Files to upload: ${ITEM}` })).toContainText('passport.pdf');
    await upload.getByRole('button', { name: 'Send 1 file' }).click();
    await expect(upload.getByRole('progressbar', { name: 'Sending passport.pdf' })).toBeVisible();
    const deleted = page.waitForResponse((response) => response.request().method() === 'DELETE' && /\/uploads\/[^/]+$/.test(response.url()));
    await upload.getByRole('button', { name: 'Cancel upload' }).click();
    expect((await deleted).status()).toBe(204);
    await expect(upload.getByRole('button', { name: 'Send 1 file' })).toBeVisible();
    await expect(upload.getByRole('progressbar')).toHaveCount(0);
    release();
    await page.unroute(files, hold);
    const versions = await page.request.get(`/api/loans/${loan.id}/checklist/items/${await itemId(page, loan.id)}/versions`);
    expect(await versions.json()).toEqual({ versions: [] });

    // The connection drops on the first try: the file says so, and Retry sends it again into the same upload.
    const dropped = consoleGuard.allow(/ERR_CONNECTION_FAILED/);
    let tries = 0;
    const dropFirst = async (route: Route) => (tries++ === 0 ? route.abort('connectionfailed') : route.continue());
    await page.route(files, dropFirst);
    await upload.getByRole('button', { name: 'Send 1 file' }).click();
    await expect(upload.getByText('The connection failed while sending this file.', { exact: true })).toBeVisible();
    await upload.getByRole('button', { name: 'Retry passport.pdf' }).click();
    await expect(page.getByText(`${ITEM}: version 1 uploaded.`)).toBeVisible();
    await page.unroute(files, dropFirst);
    expect(tries).toBe(2);
    expect(dropped).toHaveLength(1);
    await expect(checklist.getByRole('list', { name: `Versions of ${ITEM}` })).toContainText('passport.pdf');
    await expect(checklist.getByRole('listitem').filter({ hasText: ITEM }).first()).toContainText('Uploaded');
  });

  test('an overdue item shows its date in the warning colour with how late it is, to the team and to the borrower', async ({
    page,
    browser,
    loginAs,
    isMobile,
  }) => {
    test.skip(isMobile, 'the team on a desktop, the borrower on a phone: both set here');
    test.setTimeout(180_000);
    await page.setViewportSize(DESKTOP);
    const owner = await loginAs({ role: 'owner', name: 'Olive Owner' });
    const created = await page.request.post(`/api/teams/${owner.team?.id}/loans`, { data: sampleLoan({ borrowerName: 'Owen Overdue' }) });
    expect(created.status(), await created.text()).toBe(201);
    const loan = (await created.json()) as LoanDetail;
    const { context: phone, page: borrower } = await borrowerJoinsOnPhone(page, browser, loan.id, { name: 'Owen Overdue', emailLabel: 'owen.overdue' });

    // The ID was due 3 days ago (on the browser's calendar) and is still owed.
    const checklist = (await (await page.request.get(`/api/loans/${loan.id}/checklist`)).json()) as ChecklistView;
    const item = checklist.items.find((row) => row.label === ITEM)!;
    const due = new Date();
    due.setDate(due.getDate() - 3);
    const dueDate = new Intl.DateTimeFormat('en-CA').format(due);
    const moved = await page.request.patch(`/api/loans/${loan.id}/checklist/items/${item.id}`, { data: { version: item.version, dueDate } });
    expect(moved.status(), await moved.text()).toBe(200);

    await page.goto(`/app/loans/${loan.id}`);
    const teamLate = page.locator(`#item-${item.id}`).getByText('3 days overdue');
    await expect(teamLate).toBeVisible();
    await expect(teamLate).toHaveClass(/text-amber-800/);
    // The items not yet due read in plain grey, without a count.
    await expect(page.getByRole('region', { name: 'Document checklist' }).getByText('overdue')).toHaveCount(1);
    await expectNoAxeViolations(page);

    await borrower.reload();
    const borrowerLate = borrower.locator(`#item-${item.id}`).getByText('3 days overdue');
    await expect(borrowerLate).toBeVisible();
    await expect(borrowerLate).toHaveClass(/text-amber-800/);
    await expectNoAxeViolations(borrower);
    await phone.close();
  });
});

/** The id of the checklist item labelled ITEM on `loanId`, as the team's list gives it. */
async function itemId(page: Page, loanId: string): Promise<string> {
  const list = (await (await page.request.get(`/api/loans/${loanId}/checklist`)).json()) as ChecklistView;
  return list.items.find((item) => item.label === ITEM)?.id ?? '';
}
