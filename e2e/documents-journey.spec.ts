import { readFile } from 'node:fs/promises';
import type { Locator, Page, Route } from '@playwright/test';
import type { LoanDetail } from '../src/shared/schemas/loans';
import { samplePdf, samplePng } from '../src/test/sample-files';
import { sampleLoan } from '../src/test/sample-loan';
import { unzip } from '../src/test/unzip';
import { expectPdfDrawn } from './documents-helpers';
import { addSession, borrowerJoinsOnPhone, expect, mailedLink, test, uniqueEmail, watchPage } from './fixtures';

// Issue 16's whole documents journey in one run, with four people: a borrower
// on a phone, the assistant who reviews, the owner who approves and sends the
// package, and a title company with only a mailed link. The parts on their own
// (and their axe scans) are in documents.spec.ts, upload-link.spec.ts and
// lender-package.spec.ts; this spec checks that they add up.

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
const ID = 'Government-issued photo ID';
const TITLE = 'Title commitment';
const BORROWER = 'Nora Journey';
const REASON = 'The back of the ID is cut off: send both sides, whole.';

/** Picks `files` through an upload control's "Choose files" button, as the phone's picker would. */
async function chooseFiles(page: Page, scope: Locator, item: string, files: { name: string; mimeType: string; buffer: Buffer }[]) {
  const chooser = page.waitForEvent('filechooser');
  await scope.getByRole('button', { name: `Choose files: ${item}` }).click();
  await (await chooser).setFiles(files);
}

/** The loan's progress on its team page, in per cent. */
const loanProgress = async (page: Page) => Number(await page.getByRole('progressbar', { name: 'Progress' }).getAttribute('value'));

/** The pipeline's Outstanding docs cell of the loan: a count, or "None". */
const outstandingCell = (page: Page) => page.getByRole('row').filter({ hasText: BORROWER }).getByRole('cell').nth(4);

/** Approves the newest version of `item` from the team's loan page, with the document's date. */
async function approve(page: Page, item: string, versionNumber: number) {
  const checklist = page.getByRole('region', { name: 'Document checklist' });
  await checklist.getByRole('button', { name: `Documents: ${item}` }).click();
  await checklist.getByRole('button', { name: `Approve version ${versionNumber}: ${item}` }).click();
  const dialog = page.getByRole('dialog', { name: `Approve ${item}` });
  await dialog.getByLabel('Document date').fill('2026-11-02');
  await dialog.getByRole('button', { name: 'Approve' }).click();
  await expect(dialog).toBeHidden();
  await expect(checklist.getByRole('listitem').filter({ hasText: item }).first()).toContainText('Approved');
}

test.describe('the documents journey', () => {
  test.skip(({ isMobile }) => isMobile, 'the journey sets each person’s viewport itself');

  test('a borrower uploads from a phone, the assistant sends it back, version 2 is approved, a title company uploads through its link, and the package holds the approved files', async ({
    page,
    browser,
    createPerson,
  }) => {
    // Four people, a PDF drawn, two uploads from a phone, a mailed link and a zip: minutes on a busy machine.
    test.setTimeout(240_000);
    const owner = await createPerson({ role: 'owner', name: 'Olive Owner' });
    const assistant = await createPerson({ role: 'assistant', name: 'Asha Assistant', teamId: owner.team?.id ?? '' });
    const teamName = owner.team?.name ?? '';
    const baseURL = test.info().project.use.baseURL ?? '';
    // The assistant works in the test's own page (its console is guarded by the fixtures); the others beside them.
    await addSession(page.context(), assistant);
    await page.setViewportSize(DESKTOP);
    const ownerContext = await browser.newContext({ baseURL, viewport: DESKTOP, acceptDownloads: true });
    await addSession(ownerContext, owner);
    const ownerPage = await ownerContext.newPage();
    const ownerErrors = await watchPage(ownerPage);

    const created = await ownerPage.request.post(`/api/teams/${owner.team?.id}/loans`, {
      data: sampleLoan({ borrowerName: BORROWER, assigneeId: assistant.userId }),
    });
    expect(created.status(), await created.text()).toBe(201);
    const loan = (await created.json()) as LoanDetail;

    // The borrower accepts the mailed invitation on a phone and lands on the loan.
    const {
      context: phone,
      page: borrower,
      errors: borrowerErrors,
    } = await borrowerJoinsOnPhone(ownerPage, browser, loan.id, { name: BORROWER, emailLabel: 'nora.journey' });

    // 1. Two files to the ID, each with its progress while held on the way; then one version.
    const documents = borrower.getByRole('region', { name: 'Your documents' });
    const needed = documents.getByRole('region', { name: 'Still needed' });
    const upload = needed.getByRole('group', { name: `Upload ${ID}` });
    const front = await samplePdf('Government ID, front side');
    const back = samplePng(480, 300, 11);
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const hold = async (route: Route) => {
      await held;
      await route.continue();
    };
    await borrower.route('**/uploads/*/files/*', hold);
    await chooseFiles(borrower, upload, ID, [
      { name: 'id-front.pdf', mimeType: 'application/pdf', buffer: front },
      { name: 'id-back.png', mimeType: 'image/png', buffer: back },
    ]);
    await upload.getByRole('button', { name: 'Send 2 files' }).click();
    await expect(upload.getByRole('progressbar', { name: 'Sending id-front.pdf' })).toBeVisible();
    await expect(upload.getByRole('progressbar', { name: 'Sending id-back.png' })).toBeVisible();
    release();
    await expect(borrower.getByText(`${ID} uploaded: your team will review it.`)).toBeVisible();
    await borrower.unroute('**/uploads/*/files/*', hold);
    const waitingItem = documents.getByRole('region', { name: 'Waiting for review' }).getByRole('listitem').filter({ hasText: ID }).first();
    await expect(waitingItem).toContainText('Sent — waiting for review');

    // 2. The assistant previews the PDF (pdf.js draws it: In review), then sends the version back with a reason.
    await page.goto(`/app/loans/${loan.id}`);
    const checklist = page.getByRole('region', { name: 'Document checklist' });
    const row = checklist.getByRole('listitem').filter({ hasText: ID }).first();
    await checklist.getByRole('button', { name: `Documents: ${ID}` }).click();
    const versions = checklist.getByRole('list', { name: `Versions of ${ID}` });
    await expect(versions.getByRole('list', { name: 'Files of version 1' }).getByRole('listitem')).toHaveCount(2);
    await versions.getByRole('button', { name: 'Preview id-front.pdf' }).click();
    const preview = page.getByRole('dialog', { name: 'id-front.pdf' });
    await expectPdfDrawn(preview, 'id-front.pdf');
    await expect(row).toContainText('In review');
    await preview.getByRole('button', { name: 'Close' }).click();
    await versions.getByRole('button', { name: `Needs revision, version 1: ${ID}` }).click();
    const revision = page.getByRole('dialog', { name: `Needs revision: ${ID}` });
    await revision.getByLabel('Reason').fill(REASON);
    await revision.getByRole('button', { name: 'Send back' }).click();
    await expect(row).toContainText('Needs revision');

    // 3. The borrower reads the reason on the item and sends version 2.
    await borrower.reload();
    const again = needed.getByRole('listitem').filter({ hasText: ID }).first();
    await expect(again).toContainText(`Needs a new version: ${REASON}`);
    const bothSides = await samplePdf('Government ID, both sides');
    await chooseFiles(borrower, again, ID, [{ name: 'id-both-sides.pdf', mimeType: 'application/pdf', buffer: bothSides }]);
    await again.getByRole('button', { name: 'Send 1 file' }).click();
    await expect(borrower.getByText(`${ID} uploaded: your team will review it.`).first()).toBeVisible();
    await expect(waitingItem).toContainText('Sent — waiting for review');

    // 4. Before the approval: the pipeline's count and the loan's progress, as the owner sees them.
    await ownerPage.goto('/app/loans');
    await expect(outstandingCell(ownerPage)).toHaveText(/^\d+$/);
    const outstandingBefore = Number(await outstandingCell(ownerPage).textContent());
    await ownerPage.goto(`/app/loans/${loan.id}`);
    const progressBefore = await loanProgress(ownerPage);

    // 5. The owner approves version 2: the progress rises, the pipeline has one document fewer outstanding, the borrower sees it done.
    await approve(ownerPage, ID, 2);
    await expect.poll(() => loanProgress(ownerPage)).toBeGreaterThan(progressBefore);
    await ownerPage.goto('/app/loans');
    await expect(outstandingCell(ownerPage)).toHaveText(String(outstandingBefore - 1));
    await borrower.reload();
    await expect(documents.getByRole('region', { name: 'Done' })).toContainText(ID);

    // 6. The owner mails the title company an upload link; it arrives in the mail drop, and the company uploads from a phone.
    await ownerPage.goto(`/app/loans/${loan.id}`);
    const ownerChecklist = ownerPage.getByRole('region', { name: 'Document checklist' });
    await ownerChecklist.getByRole('button', { name: `Upload links: ${TITLE}` }).click();
    const links = ownerPage.getByRole('dialog', { name: `Upload links: ${TITLE}` });
    const titleEmail = uniqueEmail('closings.journey');
    await links.getByLabel('Name').fill('Lone Star Title');
    await links.getByLabel('E-mail').fill(titleEmail);
    await links.getByRole('button', { name: 'Send upload link' }).click();
    await expect(ownerPage.getByText(`Upload link sent to ${titleEmail}`)).toBeVisible();
    await links.getByRole('button', { name: 'Close' }).click();
    const titleContext = await browser.newContext({ baseURL, viewport: PHONE, isMobile: true, hasTouch: true });
    const title = await titleContext.newPage();
    const titleErrors = await watchPage(title);
    await title.goto(await mailedLink('main', titleEmail, 'upload'));
    await expect(title.getByRole('heading', { level: 1, name: `${teamName} asks you for: ${TITLE}` })).toBeVisible();
    // The link shows the loan's property, never the borrower.
    await expect(title.getByText(BORROWER)).toHaveCount(0);
    const commitment = await samplePdf('Title commitment, Schedule A');
    await title
      .getByLabel('Choose files, take a photo, or drop them here')
      .setInputFiles([{ name: 'commitment.pdf', mimeType: 'application/pdf', buffer: commitment }]);
    await title.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(title.getByRole('heading', { name: `Thank you — ${teamName} has your documents` })).toBeVisible();
    await titleContext.close();

    // 7. The owner approves the title commitment and downloads the package: the cover sheet and the two approved documents, byte for byte.
    await ownerPage.reload();
    await approve(ownerPage, TITLE, 1);
    const downloading = ownerPage.waitForEvent('download');
    await ownerPage.getByRole('link', { name: 'Download lender package' }).click();
    const download = await downloading;
    const entries = await unzip(await readFile((await download.path())!));
    const names = entries.map((entry) => entry.name);
    expect(names[0]).toBe('00 Cover sheet.pdf');
    const idEntry = entries.find((entry) => entry.name.endsWith(`${ID}/id-both-sides.pdf`));
    const titleEntry = entries.find((entry) => entry.name.endsWith(`${TITLE}/commitment.pdf`));
    expect(idEntry?.bytes.equals(bothSides)).toBe(true);
    expect(titleEntry?.bytes.equals(commitment)).toBe(true);
    // Only the approved version: the sent-back files stay out.
    expect(names.filter((name) => /id-front|id-back/.test(name))).toEqual([]);
    expect(entries).toHaveLength(3);

    expect(ownerErrors).toEqual([]);
    expect(borrowerErrors).toEqual([]);
    expect(titleErrors).toEqual([]);
    await ownerContext.close();
    await phone.close();
  });
});
