import type { Browser, Page } from '@playwright/test';
import { E2E_ACCOUNTS_PORT } from '../playwright.config';
import { enrolAuthenticator, expect, expectNoAxeViolations, mailedLink, readMailDrop, signOutOf, test, uniqueEmail } from './fixtures';

const base = `http://127.0.0.1:${E2E_ACCOUNTS_PORT}`;
const PASSWORD = 'amber harbor lighthouse keeper';

/** Opens an invitation link and creates the account it invites. */
async function acceptAsNewAccount(page: Page, link: string, name: string, invitedAs: string) {
  await page.goto(link);
  await expect(page.getByText(invitedAs)).toBeVisible();
  await page.getByLabel('Your name').fill(name);
  await page.getByLabel('Choose a password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
}

async function newPage(browser: Browser) {
  const context = await browser.newContext({ baseURL: base });
  return context.newPage();
}

test.describe('from the waitlist to a team', () => {
  test.skip(({ isMobile }) => isMobile, 'invitations work once: the journey runs in the desktop project');

  test('an admin invites a broker from the waitlist; the broker enrols TOTP, builds and brands a team, and invites an assistant who joins', async ({
    page,
    browser,
    request,
    loginAs,
    consoleGuard,
  }) => {
    test.setTimeout(240_000);
    // Refused codes (401), the signed-out session checks (401) and the removed assistant's team page (404).
    consoleGuard.allow(/Failed to load resource: the server responded with a status of (401|404)/);
    const brokerEmail = uniqueEmail('bea');
    const assistantEmail = uniqueEmail('ash');

    // 1. A platform admin with an authenticator starts signed in (the login fixture; accounts.spec.ts covers the first admin's own way in).
    await loginAs({ role: 'admin', name: 'Jo Journey', server: 'accounts' });
    await page.goto(`${base}/app`);
    await expect(page).toHaveURL(`${base}/app`);

    // 2. A broker joins the waitlist; the admin invites them from the console.
    expect((await request.post(`${base}/api/waitlist`, { data: { fullName: 'Bea Broker', email: brokerEmail, company: 'Lakeside Lending' } })).status()).toBe(
      200,
    );
    await page.getByRole('navigation', { name: 'App' }).getByRole('link', { name: 'Admin' }).click();
    await expect(page).toHaveURL(`${base}/app/admin/waitlist`);
    const row = page.getByRole('row').filter({ hasText: brokerEmail });
    await row.getByRole('button', { name: /Invite as broker/ }).click();
    await expect(row).toContainText('Invited');
    await signOutOf(page, 'Jo Journey');
    await expect(page).toHaveURL(`${base}/signin`);

    // 3. The broker accepts, and must enrol an authenticator before anything else.
    await acceptAsNewAccount(page, await mailedLink('accounts', brokerEmail, 'invite'), 'Bea Broker', 'as a mortgage broker.');
    await enrolAuthenticator(page, PASSWORD);

    // 4. …then founds the team and brands it.
    await expect(page).toHaveURL(`${base}/app/team/new`);
    await expect(page.getByRole('heading', { name: 'Create your team', level: 1 })).toBeVisible();
    await expectNoAxeViolations(page);
    await page.getByLabel('Team name').fill('Lakeside Lending');
    await page.getByRole('button', { name: 'Create team' }).click();
    await expect(page).toHaveURL(`${base}/app/team/branding`);
    await expect(page.getByRole('heading', { name: 'Branding', level: 1 })).toBeVisible();
    await page.getByRole('textbox', { name: 'Accent colour', exact: true }).fill('#0f766e');
    await page.getByRole('button', { name: 'Save branding' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Success!' }).first()).toBeVisible();
    await expect(page.getByTestId('team-accent')).toHaveCSS('background-color', 'rgb(15, 118, 110)');
    await page.getByLabel('Logo', { exact: true }).setInputFiles('e2e/assets/team-logo.png');
    await page.getByRole('button', { name: 'Upload logo' }).click();
    const headerLogo = page.getByRole('banner').getByRole('img', { name: 'Lakeside Lending' });
    await expect(headerLogo).toBeVisible();
    expect(await headerLogo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(64);
    await expectNoAxeViolations(page);

    // 5. …and invites an assistant, whose e-mail carries the team's brand.
    await page.getByRole('navigation', { name: 'Team' }).getByRole('link', { name: 'Members' }).click();
    await expect(page).toHaveURL(`${base}/app/team`);
    await page.getByRole('textbox', { name: 'E-mail', exact: true }).fill(assistantEmail);
    await page.getByRole('button', { name: 'Invite', exact: true }).click();
    await expect(page.getByText(`Invitation sent to ${assistantEmail}`).first()).toBeVisible();
    await expect(page.getByRole('region', { name: 'Pending invitations' })).toContainText(assistantEmail);
    await expectNoAxeViolations(page);
    const assistantLink = await mailedLink('accounts', assistantEmail, 'invite');
    const mail = (await readMailDrop('accounts')).map((m) => m.replace(/=\r?\n/g, '')).find((m) => m.includes(`To: ${assistantEmail}`));
    expect(mail).toContain('Subject: Bea Broker invited you to Lakeside Lending');
    expect(mail).toMatch(/border-top:4px solid #0f766e/);
    expect(mail).toMatch(/api\/team-logos\//);

    // 6. The assistant accepts in another browser, enrols, and sees the team.
    const assistant = await newPage(browser);
    await acceptAsNewAccount(assistant, assistantLink, 'Ash Assistant', 'to join Lakeside Lending as an assistant.');
    await enrolAuthenticator(assistant, PASSWORD);
    await expect(assistant).toHaveURL(`${base}/app/team`);
    await expect(assistant.getByRole('banner').getByRole('img', { name: 'Lakeside Lending' })).toBeVisible();
    const assistantRows = assistant.getByRole('row');
    await expect(assistantRows.filter({ hasText: brokerEmail })).toContainText('Owner');
    await expect(assistantRows.filter({ hasText: assistantEmail })).toContainText('Assistant');
    await expect(assistant.getByRole('button', { name: 'Invite', exact: true })).toHaveCount(0);
    await expectNoAxeViolations(assistant);

    // 7. The owner sees the assistant enrolled, then removes them: access ends at once.
    await page.goto(`${base}/app/team`);
    // The team keeps an owner: its only owner is offered no action that would fail.
    await expect(page.getByRole('row').filter({ hasText: brokerEmail })).toContainText("The team's only owner");
    const ashRow = page.getByRole('row').filter({ hasText: assistantEmail });
    await expect(ashRow).toContainText('On');
    await ashRow.getByRole('button', { name: /^Remove/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove member' }).click();
    await expect(page.getByRole('row').filter({ hasText: assistantEmail })).toHaveCount(0);
    await assistant.reload();
    await expect(assistant.getByRole('navigation', { name: 'App' }).getByRole('link', { name: 'Team' })).toHaveCount(0);
    await expect(assistant.getByRole('row').filter({ hasText: brokerEmail })).toHaveCount(0);

    // 8. The team's audit log tells the story.
    await page.getByRole('navigation', { name: 'Team' }).getByRole('link', { name: 'Audit log' }).click();
    await expect(page).toHaveURL(`${base}/app/team/audit`);
    for (const action of [
      'Removed a member',
      'Set up two-step verification',
      'Accepted an invitation',
      'Sent an invitation',
      'Changed the branding',
      'Created the team',
    ]) {
      await expect(page.getByRole('rowheader', { name: action, exact: true }).first(), action).toBeVisible();
    }
    await expectNoAxeViolations(page);
    await assistant.context().close();

    // 9. On a phone every page of the team and the person fits the screen and passes axe.
    await page.setViewportSize({ width: 390, height: 844 });
    for (const [path, heading] of [
      ['/app/team', 'Team'],
      ['/app/team/branding', 'Branding'],
      ['/app/team/audit', 'Audit log'],
      ['/app/security', 'Security'],
      ['/app/profile', 'Profile'],
    ] as const) {
      await page.goto(`${base}${path}`);
      await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
      await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(390);
      await expectNoAxeViolations(page);
    }
    await page.getByRole('button', { name: 'Bea Broker', exact: true }).click();
    await expect(page.getByRole('menuitem', { name: 'Sign out' })).toBeVisible();
  });
});
