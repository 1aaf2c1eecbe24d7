import type { Page } from '@playwright/test';
import type { CreateLoan, LoanDetail } from '../src/shared/schemas/loans';
import { expect, expectNoAxeViolations, MAIL_TIMEOUT, mailedLink, readMailDrop, test, uniqueEmail } from './fixtures';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
const PASSWORD = 'lantern orchard quietly 42';

const sampleLoan: CreateLoan = {
  borrowerName: 'Nora Investor',
  propertyStreet: '418 Oakwood Ave',
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
  internalNotes: 'INTERNAL: thin credit file',
};

/** The stage e-mail the main server's mail drop holds for `to` about `stage` (its .eml text, soft line breaks and folded header lines undone). */
async function stageMail(to: string, stage: string): Promise<string> {
  let found = '';
  await expect
    .poll(
      async () => {
        const mails = (await readMailDrop('main')).map((m) => m.replace(/=\r?\n/g, '').replace(/\r?\n(?=[ \t])/g, ''));
        found = mails.find((m) => m.includes(`To: ${to}`) && m.includes(`: ${stage}`)) ?? '';
        return found;
      },
      { timeout: MAIL_TIMEOUT },
    )
    .not.toBe('');
  return found;
}

/** Every console error and uncaught exception of a page the fixtures do not watch (a second browser context). */
function watchConsole(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
  return errors;
}

test.describe('a borrower on their loan', () => {
  test.skip(({ isMobile }) => isMobile, 'the journey sets both viewports itself; invitations work once');

  test('an owner invites a borrower, who accepts on a phone, follows the timeline and hears of the next stage', async ({ page, browser, loginAs }) => {
    test.setTimeout(180_000);
    await page.setViewportSize(DESKTOP);
    const owner = await loginAs({ role: 'owner', name: 'Omar Owner' });
    const created = await page.request.post(`/api/teams/${owner.team?.id}/loans`, { data: { ...sampleLoan, assigneeId: owner.userId } });
    expect(created.status(), await created.text()).toBe(201);
    const loan = (await created.json()) as LoanDetail;

    // 1. The owner invites the borrower from the loan page.
    const borrowerEmail = uniqueEmail('nora');
    await page.goto(`/app/loans/${loan.id}`);
    const panel = page.getByRole('region', { name: 'Borrowers' });
    await expect(panel.getByText('No borrower follows this loan yet.')).toBeVisible();
    await panel.getByLabel('E-mail').fill(borrowerEmail);
    await panel.getByLabel('Role').selectOption('borrower');
    await panel.getByRole('button', { name: 'Send invitation' }).click();
    await expect(page.getByText(`Invitation sent to ${borrowerEmail}`)).toBeVisible();
    await expect(panel.getByText(borrowerEmail, { exact: true })).toBeVisible();
    await expectNoAxeViolations(page);

    // 2. The borrower opens the mailed link on a phone and creates their account.
    const link = await mailedLink('main', borrowerEmail, 'invite');
    const phone = await browser.newContext({ baseURL: new URL(page.url()).origin, viewport: PHONE, isMobile: true, hasTouch: true });
    const borrower = await phone.newPage();
    const borrowerErrors = watchConsole(borrower);
    await borrower.goto(link);
    await expect(borrower.getByText('418 Oakwood Ave', { exact: false }).first()).toBeVisible();
    await borrower.getByLabel('Your name').fill('Nora Investor');
    await borrower.getByLabel('Choose a password').fill(PASSWORD);
    await borrower.getByRole('button', { name: 'Create account' }).click();

    // 3. They land on their loan: the team's branding, the timeline, the contact; nothing internal.
    await expect(borrower).toHaveURL(new RegExp(`/app/loans/${loan.id}$`));
    await expect(borrower.getByRole('heading', { level: 1, name: /418 Oakwood Ave/ })).toBeVisible();
    await expect(borrower.locator('[data-testid=timeline-step][data-state=current]')).toHaveText(/Lead/);
    await expect(borrower.getByRole('link', { name: owner.email })).toHaveAttribute('href', `mailto:${owner.email}`);
    await expect(borrower.getByText('INTERNAL')).toHaveCount(0);
    await expect(borrower.getByText('DSCR')).toHaveCount(0);
    expect(await borrower.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await expectNoAxeViolations(borrower);
    await borrower.setViewportSize(DESKTOP);
    await expectNoAxeViolations(borrower);
    await borrower.setViewportSize(PHONE);

    // 3b. Their documents: what is needed from them, none of the team's internal items; one does not apply to them.
    const documents = borrower.getByRole('region', { name: 'Your documents' });
    const needed = documents.getByRole('region', { name: 'Still needed' });
    await expect(needed).toContainText('Government-issued photo ID');
    await expect(documents).not.toContainText('Title commitment');
    await needed.getByRole('button', { name: "Doesn't apply to me: Signed leases" }).click();
    const why = borrower.getByRole('dialog', { name: "Signed leases doesn't apply to me" });
    await why.getByRole('button', { name: 'Send' }).click();
    await expect(why.getByText('Give the reason')).toBeVisible();
    await why.getByLabel('Reason').fill('The house is vacant until closing.');
    await why.getByRole('button', { name: 'Send' }).click();
    await expect(documents.getByRole('region', { name: 'Waiting for review' })).toContainText('Sent — waiting for review');
    await expectNoAxeViolations(borrower);

    // 4. "My loans" (where their /app opens): the loan as a card in the team's branding.
    await borrower.getByRole('link', { name: '← My loans' }).click();
    await expect(borrower).toHaveURL(/\/app\/my-loans$/);
    await expect(borrower.getByRole('heading', { level: 1, name: 'My loans' })).toBeVisible();
    await expect(borrower.getByRole('navigation', { name: 'App' }).getByRole('link', { name: 'My loans' })).toHaveAttribute('aria-current', 'page');
    await borrower.goto('/app');
    await expect(borrower).toHaveURL(/\/app\/my-loans$/);
    const card = borrower.getByRole('list', { name: 'Your loans' }).getByRole('link');
    await expect(card).toHaveCount(1);
    await expect(card).toContainText('418 Oakwood Ave');
    await expect(card).toContainText('Lead');
    await expect(borrower.getByRole('link', { name: 'Pipeline' })).toHaveCount(0);
    expect(await borrower.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await expectNoAxeViolations(borrower);
    await borrower.setViewportSize(DESKTOP);
    await expectNoAxeViolations(borrower);
    await borrower.setViewportSize(PHONE);

    // 5. The owner sees them on the loan, confirms the lease does not apply, and moves the loan on with a note for the team only.
    await page.reload();
    await expect(panel.getByRole('list', { name: 'Borrowers on this loan' })).toContainText('Nora Investor');
    const checklist = page.getByRole('region', { name: 'Document checklist' });
    await expect(checklist).toContainText('Reason: The house is vacant until closing.');
    await checklist.getByRole('button', { name: 'Confirm not applicable: Signed leases' }).click();
    await expect(checklist.getByRole('button', { name: 'Confirm not applicable: Signed leases' })).toHaveCount(0);
    const moved = await page.request.post(`/api/loans/${loan.id}/stage`, {
      data: { from: 'lead', to: 'documents_collecting', note: 'TEAM ONLY: chase the lease' },
    });
    expect(moved.status(), await moved.text()).toBe(200);

    // 6. The borrower is mailed, in the team's branding, without the note; after a reload they see the new stage.
    const mail = await stageMail(borrowerEmail, 'Documents collecting');
    expect(mail).toContain(`/app/loans/${loan.id}`);
    // Headed with the team's name (HTML-escaped in the HTML part).
    expect(mail).toContain((owner.team?.name ?? '').replace(/'/g, '&#39;'));
    expect(mail).not.toContain('TEAM ONLY');
    await card.click();
    await expect(borrower.locator('[data-testid=timeline-step][data-state=current]')).toHaveText(/Documents collecting/);
    await borrower.reload();
    await expect(borrower.locator('[data-testid=timeline-step][data-state=current]')).toHaveText(/Documents collecting/);
    await expect(borrower.getByTestId('stage-meaning')).toContainText('collecting the documents');
    await expect(borrower.getByText('TEAM ONLY')).toHaveCount(0);
    // Their activity says what the team did in the team's name, never which team member.
    const activity = borrower.getByRole('list', { name: 'Activity' });
    await expect(activity).toContainText(`${owner.team?.name} moved the loan from Lead to Documents collecting`);
    await expect(activity).toContainText('Nora Investor joined the loan');
    await expect(activity).toContainText(`${owner.team?.name} opened the loan file at Lead`);
    await expect(activity).not.toContainText(/Omar Owner (moved|opened)/);
    await expectNoAxeViolations(borrower);

    expect(borrowerErrors).toEqual([]);
    await phone.close();
  });
});
