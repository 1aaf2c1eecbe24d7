import type { Page } from '@playwright/test';
import { expect, expectNoAxeViolations, test } from './fixtures';

/** The DSCR panel's figure for `label` (a <dt>/<dd> pair). */
const figure = (page: Page, scope: string, label: string) =>
  page
    .getByRole('complementary', { name: scope, exact: true })
    .or(page.getByRole('region', { name: scope, exact: true }))
    .locator(`dt:text-is("${label}") + dd`);

test.describe('the loan file', () => {
  test('an owner creates a loan through the form, sees its DSCR, edits it, moves its stage and archives it', async ({ page, loginAs }, testInfo) => {
    // Runs at both widths (desktop 1280, phone 390): the axe scans and the layout checks are at the project's.
    test.setTimeout(240_000);
    const width = testInfo.project.use.viewport?.width ?? 1280;
    await loginAs({ role: 'owner', name: 'Asha Owner' });
    await page.goto('/app/loans/new');
    await expect(page.getByRole('heading', { level: 1, name: 'New loan' })).toBeVisible();
    await expectNoAxeViolations(page);

    await page.getByLabel('Borrower name').fill('Marcus Lee');
    await page.getByLabel('Borrower e-mail').fill('marcus@example.com');
    await page.getByLabel('Street').fill('418 Oakwood Ave');
    await page.getByLabel('City').fill('Raleigh');
    await page.getByLabel('State').selectOption('NC');
    await page.getByLabel('ZIP').fill('2760');
    await page.getByLabel('Purchase price ($)').fill('400,000');
    await page.getByLabel('Loan amount ($)').fill('300,000');
    await page.getByLabel('Note rate (%)').fill('7.25');
    // The panel recomputes as the inputs change: $300,000 at 7.25 % over 30 years.
    await expect(figure(page, 'DSCR', 'Monthly P&I')).toHaveText('$2,046.53');
    await expect(page.getByLabel('Loan amount ($)')).toHaveAccessibleDescription('LTV 75.00 %');
    await page.getByLabel('Gross monthly rent ($)').fill('3,100');
    await page.getByLabel('Annual property taxes ($)').fill('6,000');
    await page.getByLabel('Annual insurance ($)').fill('1,800');
    // PITIA is the sum of the lines shown: 2,046.53 + 500.00 + 150.00.
    await expect(figure(page, 'DSCR', 'Taxes a month')).toHaveText('$500.00');
    await expect(figure(page, 'DSCR', 'Insurance a month')).toHaveText('$150.00');
    await expect(figure(page, 'DSCR', 'PITIA')).toHaveText('$2,696.53');
    // 3,100 ÷ 2,696.53 = 1.14963…, shown to 3 decimals, Eligible at the default bands.
    await expect(page.getByTestId('dscr-value')).toHaveText('1.150');
    await expect(page.getByRole('complementary', { name: 'DSCR' }).getByText('Eligible', { exact: true })).toBeVisible();

    // A bad field: its message beside it, nothing sent.
    await page.getByRole('button', { name: 'Create loan' }).click();
    await expect(page.getByLabel('ZIP')).toHaveAccessibleDescription('ZIP must be 5 digits (or ZIP+4)');
    await expect(page.getByLabel('ZIP')).toHaveAttribute('aria-invalid', 'true');
    await expect(page).toHaveURL(/\/app\/loans\/new$/);
    await page.getByLabel('ZIP').fill('27605');
    await page.getByRole('button', { name: 'Create loan' }).click();

    // The loan file.
    await expect(page).toHaveURL(/\/app\/loans\/[0-9a-f-]{36}$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Marcus Lee' })).toBeVisible();
    await expect(page.getByText('418 Oakwood Ave, Raleigh, NC 27605').first()).toBeVisible();
    await expect(page.getByText('$300,000', { exact: true })).toBeVisible();
    await expect(figure(page, 'DSCR analysis', 'Monthly P&I')).toHaveText('$2,046.53');
    await expect(page.getByRole('region', { name: 'DSCR analysis' }).getByTestId('dscr-value')).toHaveText('1.150');
    await expect(page.locator('[data-testid=timeline-step][data-state=current]')).toHaveText(/Lead/);
    // One creation line, its assignee (the creator, by default) in it: no separate "assigned the loan" line.
    await expect(page.getByText('Asha Owner opened the loan file at Lead and assigned it to themselves', { exact: true })).toBeVisible();
    await expect(page.getByText(/assigned the loan to/)).toHaveCount(0);
    await expectNoAxeViolations(page);

    // An edit sends the changed field; the history says it in words.
    await page.getByRole('button', { name: 'Edit loan' }).click();
    await expect(page.getByLabel('Loan amount ($)')).toHaveValue('300,000');
    await page.getByLabel('Loan amount ($)').fill('280,000');
    await expect(figure(page, 'DSCR', 'Monthly P&I')).toHaveText('$1,910.09');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByText('Asha Owner changed Loan amount from $300,000.00 to $280,000.00')).toBeVisible();
    await expect(page.getByText('$280,000', { exact: true })).toBeVisible();
    await expect(figure(page, 'DSCR analysis', 'Monthly P&I')).toHaveText('$1,910.09');

    // A stage move with a note.
    await page.getByLabel('Move to').selectOption('application');
    await page.getByLabel('Note (optional)').fill('Application signed on the call');
    await page.getByRole('button', { name: 'Move stage' }).click();
    await expect(page.locator('[data-testid=timeline-step][data-state=current]')).toHaveText(/Application/);
    const history = page.getByRole('list', { name: 'Stage history' });
    await expect(history.getByText('Lead → Application')).toBeVisible();
    await expect(history.getByText('Application signed on the call')).toBeVisible();
    await expect(page.getByText('Asha Owner moved the loan from Lead to Application')).toBeVisible();

    // An exit needs its reason.
    await page.getByLabel('Move to').selectOption('withdrawn');
    await page.getByRole('button', { name: 'Move stage' }).click();
    await expect(page.getByLabel('Reason')).toHaveAccessibleDescription(/Give the reason the loan is withdrawn/);

    // Archive, then restore.
    await page.getByRole('button', { name: 'Archive loan' }).click();
    await expect(page.getByText(/This loan was archived on/)).toBeVisible();
    await expect(page.getByText('Restore the loan to move it.')).toBeVisible();
    await page.getByRole('button', { name: 'Restore loan' }).click();
    await expect(page.getByText(/This loan was archived on/)).toHaveCount(0);
    await expect(page.getByText('Asha Owner restored the loan')).toBeVisible();

    // Nothing scrolls sideways, the restored page passes axe, and so does an edit form showing its errors.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: 'Edit loan' }).click();
    await page.getByLabel('Note rate (%)').fill('abc');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByLabel('Note rate (%)')).toHaveAccessibleDescription('Note rate must be a percentage, like 7.25');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await expectNoAxeViolations(page);
  });

  test('an owner deletes a loan after typing its street; a wrong street is refused beside the field', async ({ page, loginAs, consoleGuard }) => {
    // The browser logs the refused deletion's 400 itself.
    consoleGuard.allow(/status of 400/);
    await loginAs({ role: 'owner', name: 'Dee Owner' });
    await page.goto('/app/loans/new');
    await page.getByLabel('Borrower name').fill('Rita Delete');
    await page.getByLabel('Street').fill('12 Elm St');
    await page.getByLabel('City').fill('Austin');
    await page.getByLabel('State').selectOption('TX');
    await page.getByLabel('ZIP').fill('78701');
    await page.getByLabel('Purchase price ($)').fill('250000');
    await page.getByLabel('Loan amount ($)').fill('200000');
    await page.getByLabel('Note rate (%)').fill('7');
    await page.getByRole('button', { name: 'Create loan' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Rita Delete' })).toBeVisible();

    await page.getByRole('button', { name: 'Delete loan…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this loan?' });
    await dialog.getByLabel(/Type the property street/).fill('13 Elm St');
    await dialog.getByRole('button', { name: 'Delete loan' }).click();
    await expect(dialog.getByLabel(/Type the property street/)).toHaveAccessibleDescription('Type the property address (12 Elm St) to confirm');
    await dialog.getByLabel(/Type the property street/).fill('12 elm st');
    await dialog.getByRole('button', { name: 'Delete loan' }).click();
    await expect(page).toHaveURL(/\/app\/loans$/);
  });
});
