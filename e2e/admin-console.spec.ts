import type { APIRequestContext, Page } from '@playwright/test';
import { E2E_ACCOUNTS_PORT } from '../playwright.config';
import { enrolAuthenticator, expect, expectNoAxeViolations, mailedLink, readMailDrop, test, uniqueEmail } from './fixtures';

const base = `http://127.0.0.1:${E2E_ACCOUNTS_PORT}`;

const invitationLinkFor = (to: string) => mailedLink('accounts', to, 'invite');

/**
 * The admin's first session, opened by the login fixture: with no
 * authenticator yet, the app sends them to set one up, and the admin console
 * (pages and API) stays closed until then.
 */
async function openAppAndEnrol(page: Page, password: string) {
  await page.goto(`${base}/app`);
  await expect(page).toHaveURL(`${base}/app/security/setup`);
  await expect(page.getByText('The admin console holds the waitlist')).toBeVisible();
  await page.goto(`${base}/app/admin/waitlist`);
  await expect(page).toHaveURL(`${base}/app/security/setup`);
  const closed = await page.request.get(`${base}/api/admin/waitlist`);
  expect(closed.status()).toBe(401);
  expect(await closed.json()).toMatchObject({ code: 'mfa_required' });
  await enrolAuthenticator(page, password);
  await expect(page).toHaveURL(`${base}/app`);
}

async function joinWaitlist(request: APIRequestContext, entry: { fullName: string; email: string; company: string; phone?: string }) {
  const response = await request.post(`${base}/api/waitlist`, { data: entry });
  expect(response.status()).toBe(200);
}

test.describe('admin console', () => {
  test.describe.configure({ mode: 'serial' });
  test.skip(({ isMobile }) => isMobile, 'one project is enough: the flow sends real invitations');

  test('an admin enrols an authenticator, searches the waitlist, invites a broker, and exports the current view', async ({
    page,
    request,
    loginAs,
    consoleGuard,
  }) => {
    // Enrolling an authenticator comes first.
    test.setTimeout(120_000);
    // The wrong code the enrolment tries first (401).
    consoleGuard.allow(/Failed to load resource: the server responded with a status of 401/);
    const kim = uniqueEmail('kim');
    const lee = uniqueEmail('lee');
    await joinWaitlist(request, { fullName: 'Kim Harbor', email: kim, company: 'Harbor Lending', phone: '+1 555 010 0177' });
    await joinWaitlist(request, { fullName: 'Lee Lender', email: lee, company: 'Lee Capital' });
    const admin = await loginAs({ role: 'admin', mfa: false, name: 'Connie Console', server: 'accounts' });

    await openAppAndEnrol(page, admin.password);
    // Two-step verification stays on for an admin: the security page offers no way to turn it off.
    await page.goto(`${base}/app/security`);
    await expect(page.getByText('Two-step verification stays on for platform admins')).toBeVisible();
    await expect(page.getByRole('form', { name: 'Turn off two-step verification' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Turn off' })).toHaveCount(0);
    await page.getByRole('navigation', { name: 'App' }).getByRole('link', { name: 'Admin' }).click();
    await expect(page).toHaveURL(`${base}/app/admin/waitlist`);
    await expect(page.getByRole('heading', { name: 'Waitlist', level: 1 })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Admin' })).toHaveAttribute('aria-current', 'page');
    await expect(page).toHaveTitle('Waitlist — Admin — Coverly');
    const kimRow = page.getByRole('row').filter({ hasText: kim });
    await expect(kimRow).toBeVisible();
    await expect(page.getByRole('row').filter({ hasText: lee })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Failed e-mails' })).toBeVisible();

    // Searching narrows the table to the one entry, and the export link follows the view.
    await page.getByLabel('Search').fill(kim);
    await expect(page.getByRole('status').filter({ hasText: '1 matching entry' })).toBeVisible();
    await expect(page.getByRole('row').filter({ hasText: lee })).toHaveCount(0);
    await expect(kimRow).toContainText('Harbor Lending');
    await expect(kimRow).toContainText('+1 555 010 0177');
    await expect(kimRow).toContainText('New');
    const exportLink = page.getByRole('link', { name: 'Export CSV' });
    await expect(exportLink).toHaveAttribute('href', `/api/admin/waitlist.csv?${new URLSearchParams({ q: kim, sort: 'createdAt', dir: 'desc' })}`);

    await page.getByRole('button', { name: 'Name', exact: true }).click();
    await expect(page.getByRole('columnheader', { name: 'Name', exact: true })).toHaveAttribute('aria-sort', 'ascending');
    await expect(exportLink).toHaveAttribute('href', `/api/admin/waitlist.csv?${new URLSearchParams({ q: kim, sort: 'fullName', dir: 'asc' })}`);
    const csv = await page.request.get(`${base}${await exportLink.getAttribute('href')}`);
    expect(csv.headers()['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers()['content-disposition']).toMatch(/^attachment; filename="waitlist-\d{4}-\d{2}-\d{2}\.csv"$/);
    const csvText = await csv.text();
    expect(csvText).toContain(`"Kim Harbor","${kim}","'+1 555 010 0177","Harbor Lending","new",`);
    expect(csvText).not.toContain(lee);

    await expectNoAxeViolations(page);

    await kimRow.getByRole('button', { name: /Invite as broker/ }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Success!' })).toContainText(`Invitation sent to ${kim}.`);
    await expect(kimRow).toContainText('Invited');
    await expect(kimRow.getByRole('button', { name: /Invite again/ })).toBeEnabled();

    // The broker's invitation arrives and opens as one.
    const link = await invitationLinkFor(kim);
    const mail = (await readMailDrop('accounts')).find((m) => m.includes(`To: ${kim}`) && m.includes('Subject: Your invitation to Coverly'));
    expect(mail).toBeDefined();
    const lookup = await request.post(`${base}/api/invitations/lookup`, { data: { token: link.split('#')[1] } });
    expect(await lookup.json()).toMatchObject({ email: kim, role: 'broker', hasAccount: false });
    await expectNoAxeViolations(page);

    // On a phone the table scrolls inside its region; the page itself never scrolls sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    // The platform's audit log holds the invitation just sent, by whom, to whom.
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Audit log' }).click();
    await expect(page).toHaveURL(`${base}/app/admin/audit`);
    await expect(page.getByRole('heading', { name: 'Audit log', level: 1 })).toBeVisible();
    const sent = page
      .getByRole('row')
      .filter({ has: page.getByRole('rowheader', { name: 'Sent an invitation', exact: true }) })
      .filter({ hasText: kim });
    await expect(sent).toContainText(admin.email);
    await page.getByLabel('Action').selectOption({ label: 'Signed in' });
    await expect(page.getByRole('rowheader', { name: 'Sent an invitation', exact: true })).toHaveCount(0);
    await expect(page.getByRole('rowheader', { name: 'Signed in', exact: true }).first()).toBeVisible();
    await expectNoAxeViolations(page);
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });
});
