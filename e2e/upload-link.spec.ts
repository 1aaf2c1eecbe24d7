import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import type { LoanDetail } from '../src/shared/schemas/loans';
import { samplePdf } from '../src/test/sample-files';
import { sampleLoan } from '../src/test/sample-loan';
import { expect, expectNoAxeViolations, mailedLink, test, uniqueEmail } from './fixtures';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

function watchConsole(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
  return errors;
}

test.describe("a third party's upload link", () => {
  test.skip(({ isMobile }) => isMobile, 'the test sets both viewports itself; a link works once');

  test('the owner mails a title company a link; it uploads two files from a phone, once, and the team sees them', async ({ page, browser, loginAs }) => {
    test.setTimeout(180_000);
    await page.setViewportSize(DESKTOP);
    const owner = await loginAs({ role: 'owner', name: 'Olive Owner' });
    const teamName = owner.team?.name ?? '';
    const created = await page.request.post(`/api/teams/${owner.team?.id}/loans`, { data: sampleLoan({ borrowerName: 'Linked Borrower' }) });
    expect(created.status(), await created.text()).toBe(201);
    const loan = (await created.json()) as LoanDetail;

    // 1. The owner sends the link from the item's dialog.
    await page.goto(`/app/loans/${loan.id}`);
    const checklist = page.getByRole('region', { name: 'Document checklist' });
    await checklist.getByRole('button', { name: 'Upload links: Title commitment' }).click();
    const dialog = page.getByRole('dialog', { name: 'Upload links: Title commitment' });
    await expect(dialog.getByText('No link sent for this item yet.')).toBeVisible();
    const email = uniqueEmail('closings');
    await dialog.getByLabel('Name').fill('Lone Star Title');
    await dialog.getByLabel('E-mail').fill(email);
    await dialog.getByLabel('The link works for').selectOption('3');
    await dialog.getByRole('button', { name: 'Send upload link' }).click();
    await expect(page.getByText(`Upload link sent to ${email}`)).toBeVisible();
    await expect(dialog.getByRole('listitem').filter({ hasText: 'Lone Star Title' })).toContainText('Active');
    await expectNoAxeViolations(page);
    await dialog.getByRole('button', { name: 'Close' }).click();

    // 2. The title company opens the mailed link on a phone: no account, no navigation.
    const link = await mailedLink('main', email, 'upload');
    const phone = await browser.newContext({ baseURL: new URL(page.url()).origin, viewport: PHONE, isMobile: true, hasTouch: true });
    const third = await phone.newPage();
    const errors = watchConsole(third);
    const opened = await third.goto(link);
    expect(opened?.headers()['referrer-policy']).toBe('no-referrer');
    await expect(third.getByRole('heading', { level: 1, name: `${teamName} asks you for: Title commitment` })).toBeVisible();
    await expect(third.getByText('a property in Austin, TX')).toBeVisible();
    await expect(third.getByText('Linked Borrower')).toHaveCount(0);
    await expect(third.getByRole('navigation')).toHaveCount(0);
    await expectNoAxeViolations(third);
    await third.setViewportSize(DESKTOP);
    await expectNoAxeViolations(third);
    await third.setViewportSize(PHONE);

    // 3. Two files, each with its progress; then the thanks.
    const pdf = await samplePdf('Title commitment, Schedule A');
    const png = await readFile('e2e/assets/team-logo.png');
    await third.getByLabel('Choose files, take a photo, or drop them here').setInputFiles([
      { name: 'commitment.pdf', mimeType: 'application/pdf', buffer: pdf },
      { name: 'schedule-b.png', mimeType: 'image/png', buffer: png },
    ]);
    const files = third.getByRole('list', { name: 'Files to send' });
    await expect(files.getByRole('progressbar')).toHaveCount(2);
    await expect(files.getByRole('progressbar', { name: 'commitment.pdf: 0% sent' })).toBeVisible();
    await expectNoAxeViolations(third);
    await third.getByRole('button', { name: 'Send 2 files' }).click();
    await expect(third.getByRole('heading', { name: `Thank you — ${teamName} has your documents` })).toBeVisible();
    await expect(third.getByRole('list', { name: 'Files sent' })).toContainText('commitment.pdf');
    await expect(third.getByRole('list', { name: 'Files sent' })).toContainText('schedule-b.png');
    await expectNoAxeViolations(third);

    // 4. The link worked once: opened again, it says so.
    await third.reload();
    await expect(third.getByRole('alert')).toContainText(`This link was already used: ${teamName} has your documents.`);
    expect(errors.filter((e) => !e.includes('410'))).toEqual([]);
    await phone.close();

    // 5. The team sees the item uploaded, the link used, and who sent it in the activity.
    await page.reload();
    await expect(checklist.getByRole('listitem').filter({ hasText: 'Title commitment' })).toContainText('Uploaded');
    await checklist.getByRole('button', { name: 'Upload links: Title commitment' }).click();
    await expect(dialog.getByRole('listitem').filter({ hasText: 'Lone Star Title' })).toContainText('Used');
    await expect(page.getByRole('list', { name: 'Activity' })).toContainText(
      `Olive Owner sent Lone Star Title (${email}) an upload link for “Title commitment”`,
    );
  });
});
