import type { Page } from '@playwright/test';
import type { CreateLoan, LoanDetail } from '../src/shared/schemas/loans';
import { expect, expectNoAxeViolations, mailedLink, test, uniqueEmail } from './fixtures';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

const sampleLoan: CreateLoan = {
  borrowerName: 'Nora Investor',
  propertyStreet: '27 Harbor Lane',
  propertyCity: 'Raleigh',
  propertyState: 'NC',
  propertyZip: '27605',
  propertyType: 'single_family',
  purpose: 'purchase',
  valueCents: 400_000_00,
  loanAmountCents: 300_000_00,
  noteRatePercent: 7.25,
  monthlyRentCents: 3_100_00,
  annualTaxesCents: 6_000_00,
  annualInsuranceCents: 1_800_00,
};

/** Every console error and uncaught exception of a page the fixtures do not watch (a second browser context). */
function watchConsole(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
  return errors;
}

test.describe('the live loan page', () => {
  test.skip(({ isMobile }) => isMobile, 'the broker works at a desk and the borrower on a phone, in one test');

  test('a broker and a borrower on one loan see each other’s changes without reloading, also after the borrower was offline', async ({
    page,
    browser,
    loginAs,
  }) => {
    test.setTimeout(240_000);
    await page.setViewportSize(DESKTOP);
    const owner = await loginAs({ role: 'owner', name: 'Omar Owner', teamName: 'Live Lending' });
    const created = await page.request.post(`/api/teams/${owner.team?.id}/loans`, { data: { ...sampleLoan, assigneeId: owner.userId } });
    expect(created.status(), await created.text()).toBe(201);
    const loan = (await created.json()) as LoanDetail;

    // The borrower accepts the invitation on a phone and lands on the loan.
    const borrowerEmail = uniqueEmail('nora.live');
    const invited = await page.request.post(`/api/loans/${loan.id}/invitations`, { data: { email: borrowerEmail, role: 'borrower' } });
    expect(invited.status(), await invited.text()).toBe(201);
    const baseURL = test.info().project.use.baseURL ?? '';
    const phone = await browser.newContext({ baseURL, viewport: PHONE, isMobile: true, hasTouch: true });
    const borrower = await phone.newPage();
    const borrowerErrors = watchConsole(borrower);
    await borrower.goto(await mailedLink('main', borrowerEmail, 'invite'));
    await borrower.getByLabel('Your name').fill('Nora Investor');
    await borrower.getByLabel('Choose a password').fill('lantern orchard quietly 42');
    await borrower.getByRole('button', { name: 'Create account' }).click();
    await expect(borrower).toHaveURL(new RegExp(`/app/loans/${loan.id}$`));
    const stageMeaning = borrower.getByTestId('stage-meaning');
    await expect(stageMeaning).toContainText('Lead:');
    // Anything that reloads the page loses this.
    await borrower.evaluate(() => Object.assign(window, { stillTheSamePage: true }));

    // 1. Each sees the other there: the broker sees the borrower by name, the borrower sees the team.
    await page.goto(`/app/loans/${loan.id}`);
    await expect(page.getByTestId('also-viewing')).toHaveText('Also viewing: Nora Investor');
    await expect(borrower.getByTestId('also-viewing')).toHaveText('Also viewing: Live Lending');
    await expectNoAxeViolations(page);
    await expectNoAxeViolations(borrower);

    // 2. The broker moves the stage; the borrower's page follows at once.
    await page.getByLabel('Move to').selectOption('application');
    await page.getByRole('button', { name: 'Move stage' }).click();
    await expect(stageMeaning).toContainText('Application:');
    await expect(borrower.getByText('Live Lending moved the loan from Lead to Application')).toBeVisible();

    // 3. The broker starts editing the loan; the borrower's phone goes offline.
    await page.getByRole('button', { name: 'Edit loan' }).click();
    const lender = page.getByLabel('Lender', { exact: true });
    await lender.fill('Typed Lender LLC');
    await phone.setOffline(true);

    // 4. While the borrower is offline: an internal note and a stage move (made in another tab of the broker's).
    const current = (await (await page.request.get(`/api/loans/${loan.id}`)).json()) as LoanDetail;
    const noted = await page.request.patch(`/api/loans/${loan.id}`, { data: { version: current.version, internalNotes: 'INTERNAL: rate lock pending' } });
    expect(noted.status(), await noted.text()).toBe(200);
    const moved = await page.request.post(`/api/loans/${loan.id}/stage`, { data: { from: 'application', to: 'borrower_invited' } });
    expect(moved.status(), await moved.text()).toBe(200);
    // The broker's page shows the move live, and keeps what they were typing.
    await expect(page.locator('main header').getByText('Borrower invited', { exact: true })).toBeVisible();
    await expect(lender).toHaveValue('Typed Lender LLC');

    // 5. Back online: the borrower's page catches up without a reload, and nothing internal came with it.
    await phone.setOffline(false);
    await expect(stageMeaning).toContainText('Borrower invited:');
    await expect(borrower.getByText('Live Lending moved the loan from Application to Borrower invited')).toBeVisible();
    await expect(borrower.getByText('Live Lending moved the loan from Lead to Application')).toBeVisible();
    expect(await borrower.evaluate(() => (window as unknown as { stillTheSamePage?: boolean }).stillTheSamePage)).toBe(true);
    await expect(borrower.locator('body')).not.toContainText('rate lock pending');
    await expectNoAxeViolations(borrower);

    // 6. The broker leaves: the borrower no longer sees the team there.
    await page.goto('/app/loans');
    await expect(borrower.getByTestId('also-viewing')).toHaveText('');
    expect(borrowerErrors).toEqual([]);
    await phone.close();
  });
});
