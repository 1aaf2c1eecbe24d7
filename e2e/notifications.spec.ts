import type { APIRequestContext } from '@playwright/test';
import type { ChecklistView } from '../src/shared/schemas/checklist';
import type { CreateLoan, LoanDetail } from '../src/shared/schemas/loans';
import type { NotificationPreferences } from '../src/shared/schemas/notifications';
import { addSession, expect, expectNoAxeViolations, MAIL_TIMEOUT, readMailDrop, test } from './fixtures';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

const sampleLoan: CreateLoan = {
  borrowerName: 'Ines Investor',
  propertyStreet: '77 Bellwether Lane',
  propertyCity: 'Austin',
  propertyState: 'TX',
  propertyZip: '78704',
  propertyType: 'single_family',
  purpose: 'purchase',
  valueCents: 500_000_00,
  loanAmountCents: 350_000_00,
  noteRatePercent: 7,
  monthlyRentCents: 3_400_00,
  annualTaxesCents: 7_000_00,
  annualInsuranceCents: 2_000_00,
};

/** A 1×1 PNG: enough for the content check. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

/** Uploads one version to an item through the API, as the documents page does: announce, send the file, complete. */
async function upload(request: APIRequestContext, loanId: string, itemId: string) {
  const base = `/api/loans/${loanId}/checklist/items/${itemId}/uploads`;
  const started = await request.post(base, { data: { files: [{ name: 'scan.png', size: PNG.length }] } });
  expect(started.status(), await started.text()).toBe(201);
  const { id } = (await started.json()) as { id: string };
  const sent = await request.put(`${base}/${id}/files/1`, { data: PNG, headers: { 'content-type': 'image/png' } });
  expect(sent.ok(), await sent.text()).toBe(true);
  const completed = await request.post(`${base}/${id}/complete`, { data: {} });
  expect(completed.ok(), await completed.text()).toBe(true);
}

test.describe('notifications', () => {
  test.skip(({ isMobile }) => isMobile, 'the test sets both viewports itself');

  test('the bell counts what arrived, the inbox opens and reads it, the profile and the mailed unsubscribe page choose e-mail per kind', async ({
    page,
    browser,
    loginAs,
    createPerson,
    baseURL,
  }) => {
    test.setTimeout(180_000);
    await page.setViewportSize(DESKTOP);
    const owner = await loginAs({ role: 'owner', name: 'Odette Owner' });
    const assistant = await createPerson({ role: 'assistant', name: 'Aiden Assistant', teamId: owner.team!.id });
    const created = await page.request.post(`/api/teams/${owner.team!.id}/loans`, { data: { ...sampleLoan, assigneeId: owner.userId } });
    expect(created.status(), await created.text()).toBe(201);
    const loan = (await created.json()) as LoanDetail;

    // The assistant uploads three documents to the owner's loan: the owner hears of each.
    const work = await browser.newContext({ baseURL });
    await addSession(work, assistant);
    const items = ((await (await work.request.get(`/api/loans/${loan.id}/checklist`)).json()) as ChecklistView).items.filter((i) => i.provider === 'borrower');
    for (const item of items.slice(0, 3)) await upload(work.request, loan.id, item.id);
    await work.close();

    await page.goto('/app/loans');
    const bell = page.getByRole('link', { name: 'Notifications, 3 unread' });
    await expect(bell).toBeVisible();
    await expectNoAxeViolations(page);

    // The inbox: newest first; opening a row goes to the loan and reads it.
    await bell.click();
    await expect(page).toHaveURL(/\/app\/inbox$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Notifications' })).toBeVisible();
    await expect(page.getByText('3 unread notifications.', { exact: true })).toBeVisible();
    const rows = page.getByRole('list', { name: 'Notifications' }).getByRole('listitem');
    await expect(rows).toHaveCount(3);
    await expect(rows.first()).toContainText(`Aiden Assistant uploaded ${items[2]!.label}`);
    await expectNoAxeViolations(page);
    await rows.first().getByRole('link').click();
    await expect(page).toHaveURL(new RegExp(`/app/loans/${loan.id}#item-${items[2]!.id}$`));
    await expect(page.getByRole('link', { name: 'Notifications, 2 unread' })).toBeVisible();
    await page.getByRole('link', { name: 'Notifications, 2 unread' }).click();
    await page.getByRole('button', { name: 'Mark all read' }).click();
    await expect(page.getByText('You are all caught up.')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Notifications', exact: true })).toBeVisible();

    // On a phone the inbox reads as well.
    await page.setViewportSize(PHONE);
    await expectNoAxeViolations(page);
    await page.setViewportSize(DESKTOP);

    // Each upload was mailed with a one-click unsubscribe; its link opens a page that asks first.
    let unsubscribe = '';
    await expect
      .poll(
        async () => {
          const mails = (await readMailDrop('main')).map((m) => m.replace(/=\r?\n/g, '').replace(/\r?\n(?=[ \t])/g, ''));
          const mail = mails.find((m) => m.includes(`To: ${owner.email}`) && m.includes('List-Unsubscribe-Post: List-Unsubscribe=One-Click'));
          unsubscribe = /List-Unsubscribe: <([^>]+)>/.exec(mail ?? '')?.[1] ?? '';
          return unsubscribe;
        },
        { timeout: MAIL_TIMEOUT },
      )
      .toMatch(/\/unsubscribe\?token=/);
    const stranger = await browser.newContext({ baseURL, viewport: PHONE, isMobile: true, hasTouch: true });
    const phone = await stranger.newPage();
    await phone.goto(unsubscribe);
    await expect(phone.getByRole('heading', { name: 'Unsubscribe' })).toBeVisible();
    await expect(phone.getByText('Stop e-mails about documents uploaded to your loans?')).toBeVisible();
    await expectNoAxeViolations(phone);
    // Opening the page changed nothing.
    const before = (await (await page.request.get('/api/me/notification-preferences')).json()) as NotificationPreferences;
    expect(before.preferences.find((p) => p.kind === 'document_uploaded')?.channel).toBe('email');
    await phone.getByRole('button', { name: 'Unsubscribe' }).click();
    await expect(phone.getByRole('heading', { name: 'You are unsubscribed' })).toBeVisible();
    await expectNoAxeViolations(phone);
    await stranger.close();

    // The profile shows the choice, and turns e-mail back on.
    await page.goto('/app/profile');
    const settings = page.getByRole('region', { name: 'Notification e-mails' });
    const uploads = settings.getByRole('group', { name: 'Documents uploaded to your loans' });
    await expect(uploads.getByRole('radio', { name: 'In the app only' })).toBeChecked();
    await expect(settings.getByRole('group', { name: 'Invitations' })).toContainText('Always by e-mail');
    await expectNoAxeViolations(page);
    await uploads.getByRole('radio', { name: 'E-mail too' }).check();
    await settings.getByRole('group', { name: '@mentions of you' }).getByRole('radio', { name: 'In the app only' }).check();
    await settings.getByRole('button', { name: 'Save notification settings' }).click();
    await expect(page.getByText('Your notification settings have been saved.')).toBeVisible();
    await page.reload();
    await expect(page.getByRole('group', { name: 'Documents uploaded to your loans' }).getByRole('radio', { name: 'E-mail too' })).toBeChecked();
    await expect(page.getByRole('group', { name: '@mentions of you' }).getByRole('radio', { name: 'In the app only' })).toBeChecked();
    await page.setViewportSize(PHONE);
    await expectNoAxeViolations(page);
  });

  test('an unsubscribe link that is not whole says so and changes nothing', async ({ page }) => {
    await page.setViewportSize(PHONE);
    await page.goto('/unsubscribe?token=not-a-token');
    await expect(page.getByRole('alert')).toContainText('This unsubscribe link is not valid');
    await expect(page.getByRole('button', { name: 'Unsubscribe' })).toHaveCount(0);
    await expectNoAxeViolations(page);
  });
});
