import { request as playwrightRequest } from '@playwright/test';
import type { LoanDetail } from '../src/shared/schemas/loans';
import { sampleLoan } from '../src/test/sample-loan';
import { expect, expectNoAxeViolations, MAIL_TIMEOUT, mailedLink, readMailDrop, test, uniqueEmail } from './fixtures';

const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

test.describe('reminders for owed documents', () => {
  test('the owner turns a loan’s reminders off and on, sends one now (a mail lands in the drop), and sets the team’s time zone', async ({
    page,
    loginAs,
    consoleGuard,
  }) => {
    test.setTimeout(180_000);
    await page.setViewportSize(DESKTOP);
    const owner = await loginAs({ role: 'owner', name: 'Olive Owner' });
    const created = await page.request.post(`/api/teams/${owner.team?.id}/loans`, { data: sampleLoan({ borrowerName: 'Remy Reminded' }) });
    expect(created.status(), await created.text()).toBe(201);
    const loan = (await created.json()) as LoanDetail;

    // A borrower joins through the invitation's link (accepted by the API, as the page does).
    const borrowerEmail = uniqueEmail('remy.reminded');
    const invited = await page.request.post(`/api/loans/${loan.id}/invitations`, { data: { email: borrowerEmail, role: 'borrower' } });
    expect(invited.status(), await invited.text()).toBe(201);
    const token = new URL(await mailedLink('main', borrowerEmail, 'invite')).hash.slice(1);
    const baseURL = test.info().project.use.baseURL ?? '';
    const borrower = await playwrightRequest.newContext({ baseURL, extraHTTPHeaders: { origin: baseURL } });
    const accepted = await borrower.post('/api/invitations/accept', { data: { token, name: 'Remy Reminded', password: 'lantern orchard quietly 42' } });
    expect(accepted.status(), await accepted.text()).toBe(200);
    await borrower.dispose();

    await page.goto(`/app/loans/${loan.id}`);
    const panel = page.getByRole('region', { name: 'Reminders' });
    const toggle = panel.getByRole('switch', { name: 'Automatic reminders' });
    await expect(toggle).toHaveAttribute('aria-checked', 'true');
    await expect(panel).toContainText('None yet');
    await expectNoAxeViolations(page);

    // The next reminder: a day from today on (the checklist's items are due ahead), never one already past.
    const nextReminder = panel.locator('dd').nth(2);
    await expect(nextReminder).toHaveText(/^(Today, within 15 minutes|(Today|[A-Z][a-z]{2} \d{1,2}, \d{4}), from 8:00 \(.+\))$/);
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-checked', 'false');
    await expect(page.getByText('Reminders are off for this loan.')).toBeVisible();
    await expect(nextReminder).toHaveText('None: automatic reminders are off');
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-checked', 'true');
    await expect(nextReminder).not.toContainText('None');

    await panel.getByRole('button', { name: 'Send reminder now' }).click();
    await expect(page.getByText(/Reminder sent to 1 person about \d+ documents?\./)).toBeVisible();
    await expect(panel).not.toContainText('None yet');
    await expect(page.getByRole('list', { name: 'Activity' })).toContainText('Olive Owner sent Remy Reminded a reminder of');
    // A second press within the minute sends nothing more, and says why (the browser logs the 429).
    const refused = consoleGuard.allow(/status of 429/);
    await panel.getByRole('button', { name: 'Send reminder now' }).click();
    await expect(page.getByText('A reminder went to the borrowers less than a minute ago.')).toBeVisible();
    expect(refused).toHaveLength(1);
    await expect
      .poll(async () => (await readMailDrop('main')).filter((mail) => mail.includes(`To: ${borrowerEmail}`) && mail.includes('a reminder')).length, {
        timeout: MAIL_TIMEOUT,
      })
      .toBe(1);

    await page.setViewportSize(PHONE);
    await expect(panel.getByRole('button', { name: 'Send reminder now' })).toBeVisible();
    await expectNoAxeViolations(page);

    // The team's time zone, in Branding.
    await page.setViewportSize(DESKTOP);
    await page.goto('/app/team/branding');
    const zone = page.getByLabel('Team time zone');
    await expect(zone).toHaveValue('America/New_York');
    await zone.selectOption('Pacific/Auckland');
    await page.getByRole('button', { name: 'Save time zone' }).click();
    await expect(page.getByText('Your time zone is now Pacific/Auckland.')).toBeVisible();
    await expectNoAxeViolations(page);
    await page.reload();
    await expect(page.getByLabel('Team time zone')).toHaveValue('Pacific/Auckland');
  });
});
