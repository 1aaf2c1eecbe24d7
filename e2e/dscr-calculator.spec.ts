import type { Page } from '@playwright/test';
import { expect, expectNoAxeViolations, test } from './fixtures';
import { holdScripts, painted } from './hold-scripts';

const FIELD_LABELS = [
  'Loan amount',
  'Interest rate',
  'Amortization (years)',
  'Interest-only',
  'Gross monthly rent',
  'Short-term rental',
  'Annual rental revenue',
  'Expense factor',
  'Annual property taxes',
  'Annual insurance',
  'Monthly HOA',
  'Target DSCR',
];
const RESULT_LABELS = ['Monthly P&I', 'PITIA', 'DSCR', 'Max loan at target DSCR', 'Rent needed for target DSCR'];

const result = (page: Page, name: 'pi' | 'pitia' | 'pitia-detail' | 'rent' | 'dscr' | 'band' | 'max-loan' | 'rent-needed') =>
  page.getByTestId(`result-${name}`);

/** The lender worked example of src/shared/domain/dscr.test.ts: $400,000 at 7.25 % over 30 years against $4,200 of rent. */
const workedExample = {
  'Loan amount': '400,000',
  'Interest rate': '7.25',
  'Amortization (years)': '30',
  'Gross monthly rent': '4,200',
  'Annual property taxes': '6,000',
  'Annual insurance': '1,800',
  'Monthly HOA': '0',
  'Target DSCR': '1.25',
};
const workedExampleQuery = 'amount=400000&rate=7.25&years=30&io=0&rent=4200&str=0&revenue=60000&expense=20&taxes=6000&insurance=1800&hoa=0&target=1.25';

async function expectWorkedExampleFigures(page: Page) {
  await expect(result(page, 'pi')).toHaveText('$2,728.71');
  await expect(result(page, 'pitia')).toHaveText('$3,378.71');
  await expect(result(page, 'dscr')).toHaveText('1.243');
  await expect(result(page, 'band')).toHaveText('Eligible');
  await expect(result(page, 'max-loan')).toHaveText('$397,258');
  await expect(result(page, 'rent-needed')).toHaveText('$4,223.39');
}

/**
 * Keeps the prerendered <h1> as it was parsed: after a clean hydration it is
 * still the node in the page; a hydration mismatch would make React render
 * the page afresh, with new nodes.
 */
async function rememberPrerenderedHeading(page: Page) {
  await page.addInitScript(() => {
    document.addEventListener('DOMContentLoaded', () => {
      (window as unknown as { prerenderedH1: Element | null }).prerenderedH1 = document.querySelector('h1');
    });
  });
}
const headingSurvivedHydration = (page: Page) =>
  page.evaluate(() => {
    const kept = (window as unknown as { prerenderedH1: Element | null }).prerenderedH1;
    return kept !== null && kept === document.querySelector('h1') && kept.isConnected;
  });

const hydrated = (page: Page) => page.locator('html[data-hydrated="true"]').waitFor();

test.describe('/dscr-calculator', () => {
  test('is prerendered with every field and result label, its title and description, without JavaScript', async ({ request }) => {
    const response = await request.get('/dscr-calculator');
    expect(response.status()).toBe(200);
    const html = await response.text();
    const text = html.replaceAll('&amp;', '&');
    for (const label of [...FIELD_LABELS, ...RESULT_LABELS]) expect(text, label).toContain(`>${label}<`);
    expect(html).toContain('<title>DSCR Calculator — Coverly</title>');
    expect(html).toMatch(/<meta name="description" content="[^"]*DSCR calculator[^"]*"/);
    expect(html).toMatch(/<h1[^>]*>DSCR Calculator<\/h1>/);
    // The default example's figures are in the HTML too: $300,000 at 7.25 % over 30 years is $2,046.53 a month.
    expect(text).toContain('$2,046.53');
    expect(html).toMatch(/<a[^>]*href="\/join-waitlist"[^>]*>Join Waitlist<\/a>/);
    expect(html).not.toMatch(/NaN|Infinity/);
  });

  test('computes as you type, keeps the inputs in the address, and restores them on reload', async ({ page, isMobile }) => {
    await page.goto('/dscr-calculator');
    await expect(page).toHaveTitle('DSCR Calculator — Coverly');
    await expect(page.getByRole('heading', { level: 1, name: 'DSCR Calculator' })).toBeVisible();
    await hydrated(page);
    // The defaults: $300,000 at 7.25 % over 30 years (P&I from dscr.ts), $2,800 of rent, $3,600 of taxes, $1,500 of insurance.
    await expect(result(page, 'pi')).toHaveText('$2,046.53');
    await expect(result(page, 'pitia')).toHaveText('$2,471.53');
    await expect(result(page, 'dscr')).toHaveText('1.133');
    await expect(page).toHaveURL(/\/dscr-calculator$/);

    for (const [label, value] of Object.entries(workedExample)) await page.getByLabel(label, { exact: true }).fill(value);
    await expectWorkedExampleFigures(page);
    const summary = page.getByRole('complementary', { name: 'DSCR summary' });
    if (isMobile) await expect(summary).toContainText('DSCR 1.243 Eligible');
    else await expect(summary).toBeHidden();
    await expect(page).toHaveURL(new RegExp(`/dscr-calculator\\?${workedExampleQuery.replaceAll('.', '\\.')}$`));

    // Interest-only: 400,000 × 7.25 % ÷ 12 = 2,416.67; + 650 = 3,066.67; 4,200 ÷ 3,066.67 = 1.370 → Strong.
    await page.getByLabel('Interest-only').check();
    await expect(result(page, 'pi')).toHaveText('$2,416.67');
    await expect(result(page, 'dscr')).toHaveText('1.370');
    await expect(result(page, 'band')).toHaveText('Strong');
    await expect(page).toHaveURL(/[?&]io=1&/);
    await page.getByLabel('Interest-only').uncheck();

    await page.reload();
    await hydrated(page);
    for (const [label, value] of Object.entries(workedExample)) await expect(page.getByLabel(label, { exact: true })).toHaveValue(value);
    await expect(page.getByLabel('Interest-only')).not.toBeChecked();
    await expectWorkedExampleFigures(page);
  });

  test('shows PITIA as the sum of the lines it shows, each to the cent', async ({ page }) => {
    // The example: $200,000 at 6.5 % over 30 years, $2,600 of taxes and $1,200 of insurance a year.
    await page.goto('/dscr-calculator?amount=200000&rate=6.5&years=30&io=0&rent=2000&str=0&taxes=2600&insurance=1200&hoa=0&target=1.25');
    await hydrated(page);
    await expect(result(page, 'pi')).toHaveText('$1,264.14');
    await expect(result(page, 'pitia-detail')).toHaveText('$1,264.14 P&I + $216.67 taxes + $100.00 insurance + $0.00 HOA');
    await expect(result(page, 'pitia')).toHaveText('$1,580.81');
    // 2,000 ÷ 1,580.81 = 1.265; 1.25 × 1,580.81 = 1,976.0125 → $1,976.02.
    await expect(result(page, 'dscr')).toHaveText('1.265');
    await expect(result(page, 'rent-needed')).toHaveText('$1,976.02');
  });

  test('opens a shared link with its inputs, hydrating cleanly', async ({ page }) => {
    await rememberPrerenderedHeading(page);
    // The link a broker sends: the worked example, as a short-term rental (revenue $72,000, 25 % of expenses).
    await page.goto(`/dscr-calculator?${workedExampleQuery.replace('str=0', 'str=1').replace('revenue=60000&expense=20', 'revenue=72000&expense=25')}`);
    await hydrated(page);
    await expect(page.getByLabel('Loan amount')).toHaveValue('400,000');
    await expect(page.getByLabel('Short-term rental')).toBeChecked();
    await expect(page.getByLabel('Annual rental revenue')).toHaveValue('72,000');
    await expect(page.getByLabel('Expense factor')).toHaveValue('25');
    // 72,000 ÷ 12 × 0.75 = 4,500; 4,500 ÷ 3,378.71 = 1.332 → Strong (dscr.test.ts).
    await expect(result(page, 'rent')).toHaveText('$4,500.00');
    await expect(result(page, 'pitia')).toHaveText('$3,378.71');
    await expect(result(page, 'dscr')).toHaveText('1.332');
    await expect(result(page, 'band')).toHaveText('Strong');
    expect(await headingSurvivedHydration(page)).toBe(true);
    // Opening it did not rewrite it.
    await expect(page).toHaveURL(/str=1&revenue=72000&expense=25/);
  });

  test('a link with garbage in it opens on the defaults for the bad values', async ({ page }) => {
    await rememberPrerenderedHeading(page);
    await page.goto('/dscr-calculator?amount=-1&rate=abc&years=30&rent=%E0%A4%A&taxes=Infinity&target=NaN&io=maybe');
    await hydrated(page);
    await expect(page.getByLabel('Loan amount')).toHaveValue('300,000');
    await expect(page.getByLabel('Interest rate')).toHaveValue('7.25');
    await expect(result(page, 'pi')).toHaveText('$2,046.53');
    await expect(page.getByRole('main')).not.toContainText(/NaN|Infinity/);
    expect(await headingSurvivedHydration(page)).toBe(true);
  });

  test('the short-term-rental switch reveals its two fields', async ({ page }) => {
    await page.goto('/dscr-calculator');
    await hydrated(page);
    const revenue = page.getByLabel('Annual rental revenue');
    const expense = page.getByLabel('Expense factor');
    await expect(revenue).toBeHidden();
    await expect(expense).toBeHidden();
    await expect(page.getByLabel('Gross monthly rent')).toBeVisible();
    await page.getByLabel('Short-term rental').check();
    await expect(revenue).toBeVisible();
    await expect(expense).toBeVisible();
    await expect(expense).toHaveValue('20');
    await expect(page.getByLabel('Gross monthly rent')).toBeHidden();
    // $60,000 a year less 20 % is $4,000 a month.
    await expect(result(page, 'rent')).toHaveText('$4,000.00');
    await expect(page).toHaveURL(/[?&]str=1&/);
    await page.getByLabel('Short-term rental').uncheck();
    await expect(revenue).toBeHidden();
    await expect(result(page, 'rent')).toHaveText('$2,800.00');
  });

  test('shows a message beside each bad value, and never NaN or Infinity', async ({ page }) => {
    await page.goto('/dscr-calculator');
    await hydrated(page);
    const amount = page.getByLabel('Loan amount');
    await amount.fill('');
    await expect(amount).toHaveAttribute('aria-invalid', 'true');
    await expect(amount).toHaveAccessibleDescription('Enter the loan amount.');
    await expect(result(page, 'pi')).toHaveText('—');
    await expect(result(page, 'dscr')).toHaveText('—');
    await expect(page.getByTestId('results-incomplete')).toBeVisible();

    await page.getByLabel('Monthly HOA').fill('-50');
    await expect(page.getByLabel('Monthly HOA')).toHaveAccessibleDescription('Enter a number that is not negative.');
    await page.getByLabel('Interest rate').fill('7.25.1');
    await expect(page.getByLabel('Interest rate')).toHaveAccessibleDescription('Enter a percent, like 7.25.');
    await page.getByLabel('Amortization (years)').fill('99');
    await expect(page.getByLabel('Amortization (years)')).toHaveAccessibleDescription('Enter 1 to 40 years.');
    await page.getByLabel('Target DSCR').fill('0');
    await expect(page.getByLabel('Target DSCR')).toHaveAccessibleDescription(/Enter a ratio from 0\.50 to 3\.00\./);
    await expect(page.getByRole('main')).not.toContainText(/NaN|Infinity/);
    await expectNoAxeViolations(page);

    await amount.fill('250000');
    await page.getByLabel('Monthly HOA').fill('0');
    await page.getByLabel('Interest rate').fill('7');
    await page.getByLabel('Amortization (years)').fill('30');
    await page.getByLabel('Target DSCR').fill('1.2');
    await expect(page.getByTestId('results-incomplete')).toBeHidden();
    await expect(page.locator('[aria-invalid="true"]')).toHaveCount(0);
    // $250,000 at 7 % over 30 years: 250,000 × (0.07/12) ÷ (1 − 1.0058333^−360) = 1,663.26.
    await expect(result(page, 'pi')).toHaveText('$1,663.26');
  });

  test('is reached from the landing page footer and ends with the Join Waitlist call to action', async ({ page }) => {
    await page.goto('/');
    const link = page.getByRole('contentinfo').getByRole('link', { name: 'DSCR Calculator' });
    await expect(link).toHaveAttribute('href', '/dscr-calculator');
    await link.click();
    await expect(page).toHaveURL(/\/dscr-calculator$/);
    await expect(page.getByRole('heading', { level: 1, name: 'DSCR Calculator' })).toBeVisible();
    await expect(page).toHaveTitle('DSCR Calculator — Coverly');
    await expect(result(page, 'pi')).toHaveText('$2,046.53');
    const cta = page.getByRole('region', { name: 'Run every DSCR loan from one shared file' });
    await cta.getByRole('link', { name: 'Join Waitlist' }).click();
    await expect(page).toHaveURL(/\/join-waitlist$/);
    await expect(page.getByRole('heading', { name: 'Join the Waitlist' })).toBeVisible();
  });

  test('has no axe violations, with either income shown', async ({ page, isMobile }) => {
    await page.goto('/dscr-calculator');
    await hydrated(page);
    await expectNoAxeViolations(page);
    if (isMobile) {
      // The phone's results bar never covers the end of the footer.
      const last = page.getByRole('contentinfo').getByRole('link', { name: 'Accessibility' });
      await last.scrollIntoViewIfNeeded();
      const [linkBox, barBox] = await Promise.all([last.boundingBox(), page.getByRole('complementary', { name: 'DSCR summary' }).boundingBox()]);
      expect(linkBox && barBox && linkBox.y + linkBox.height <= barBox.y).toBe(true);
    }
    await page.getByLabel('Short-term rental').check();
    await expect(page.getByLabel('Annual rental revenue')).toBeVisible();
    await expectNoAxeViolations(page);
  });
});

test.describe('/dscr-calculator before its scripts have run', () => {
  test('keeps what was typed before the app arrived, beside what the address says', async ({ page }) => {
    const release = await holdScripts(page);
    await page.goto(`/dscr-calculator?${workedExampleQuery}`, { waitUntil: 'commit' });
    await painted(page);
    // The prerendered form holds the defaults until the app reads the address; the visitor types meanwhile.
    await page.getByLabel('Loan amount').fill('350,000');
    await page.getByLabel('Interest-only').check();
    release();
    await hydrated(page);
    await expect(page.getByLabel('Loan amount')).toHaveValue('350,000');
    await expect(page.getByLabel('Interest-only')).toBeChecked();
    await expect(page.getByLabel('Gross monthly rent')).toHaveValue('4,200');
    // Interest-only: 350,000 × 7.25 % ÷ 12 = 2,114.58.
    await expect(result(page, 'pi')).toHaveText('$2,114.58');
    // A change after hydration keeps the earlier ones.
    await page.getByLabel('Target DSCR').fill('1.2');
    await expect(page.getByLabel('Loan amount')).toHaveValue('350,000');
    await expect(page).toHaveURL(/[?&]amount=350000&/);
    await expect(page).toHaveURL(/[?&]io=1&/);
    await expect(page).toHaveURL(/[?&]target=1\.2$/);
  });
});
