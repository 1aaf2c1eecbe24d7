import type { Page } from '@playwright/test';
import type { LoanDetail } from '../src/shared/schemas/loans';
import { TEST_SUPPORT_SECRET_ENV, TEST_SUPPORT_SECRET_HEADER } from '../src/server/test-support/test-support.schema';
import { sampleLoan } from '../src/test/sample-loan';
import { borrowerJoinsOnPhone, expect, expectNoAxeViolations, MAIL_TIMEOUT, readMailDrop, serverUrl, test } from './fixtures';

const DESKTOP = { width: 1280, height: 900 };

/** The number the bell says, read from its accessible name ("Notifications, 3 unread"; none is 0). */
async function bellCount(page: Page): Promise<number> {
  const label = (await page.getByRole('link', { name: /^Notifications/ }).getAttribute('aria-label')) ?? '';
  return Number(/(\d+) unread/.exec(label)?.[1] ?? 0);
}

test.describe('an @mention by e-mail', () => {
  test('the broker mentions the borrower: her bell counts it live, the mail lands with a one-click unsubscribe, and its link opens the comment', async ({
    page,
    browser,
    loginAs,
    isMobile,
  }) => {
    test.skip(isMobile, 'the test sets both viewports itself, with two people');
    test.setTimeout(240_000);
    const owner = await loginAs({ role: 'owner', name: 'Mona Owner' });
    await page.setViewportSize(DESKTOP);
    const created = await page.request.post(`/api/teams/${owner.team?.id}/loans`, { data: sampleLoan({ borrowerName: 'Tess Investor' }) });
    expect(created.status(), await created.text()).toBe(201);
    const loan = (await created.json()) as LoanDetail;

    // The borrower joins on a phone, then looks at her list of loans: what is said on the loan meanwhile is unseen.
    const {
      email: borrowerEmail,
      context: phone,
      page: borrower,
    } = await borrowerJoinsOnPhone(page, browser, loan.id, { name: 'Tess Investor', emailLabel: 'tess.mention', password: 'harbor lantern quietly 57' });
    await borrower.goto('/app/my-loans');
    await expect(borrower.getByRole('link', { name: /^Notifications/ })).toBeVisible();
    const before = await bellCount(borrower);

    // The broker mentions her with the picker.
    await page.goto(`/app/loans/${loan.id}`);
    const discussion = page.getByRole('region', { name: 'Discussion' });
    const composer = discussion.getByRole('textbox', { name: 'New comment' });
    await composer.click();
    await composer.pressSequentially('Quick question @Te');
    await discussion
      .getByRole('listbox', { name: 'People to mention' })
      .getByRole('option', { name: /Tess Investor/ })
      .click();
    await composer.pressSequentially('is the lease signed by both of you?');
    const posted = page.waitForResponse((response) => response.url().endsWith(`/api/loans/${loan.id}/comments`) && response.request().method() === 'POST');
    await composer.press('Control+Enter');
    const commentId = ((await (await posted).json()) as { id: string }).id;
    // The broker leaves the loan, so nothing else on the page is waiting to be read by them.
    await page.goto('/app/loans');

    // Her bell counts it without a reload.
    await expect.poll(() => bellCount(borrower)).toBe(before + 1);

    // The digest waits three minutes for more comments; the test support makes it due now.
    const due = await page.request.post(`${serverUrl('main')}/api/test-support/jobs/due`, {
      headers: { [TEST_SUPPORT_SECRET_HEADER]: process.env[TEST_SUPPORT_SECRET_ENV] ?? '' },
      data: { queue: 'notifications.comment-digest' },
    });
    expect(due.status(), await due.text()).toBe(200);
    let mail = '';
    await expect
      .poll(
        async () => {
          const mails = (await readMailDrop('main')).filter((m) => m.includes(`To: ${borrowerEmail}`) && m.includes(`#comment-${commentId}`));
          mail = mails.at(-1)?.replace(/=\r?\n/g, '') ?? '';
          return mail;
        },
        { timeout: MAIL_TIMEOUT },
      )
      .not.toBe('');
    // A long header is folded onto the next line (RFC 5322): unfolded, it is one line.
    expect(mail.replace(/\r?\n[ \t]+/g, ' ')).toMatch(/^List-Unsubscribe: <http:\/\/127\.0\.0\.1:\d+\/unsubscribe\?token=[\w.-]+>$/m);
    expect(mail).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click/m);
    expect(mail).toContain('is the lease signed by both of you?');
    const link = new RegExp(`http://127\\.0\\.0\\.1:\\d+/app/loans/${loan.id}#comment-${commentId}`).exec(mail)?.[0];
    expect(link, 'the mail links to the comment').toBeTruthy();

    // The link opens the loan at the comment, which takes the focus.
    await borrower.goto(link!);
    const target = borrower.locator(`[id="comment-${commentId}"]`);
    await expect(target).toBeFocused();
    await expect(target).toContainText('is the lease signed by both of you?');
    await expectNoAxeViolations(borrower);
    await phone.close();
  });
});
