import type { LoanDetail } from '../src/shared/schemas/loans';
import { sampleLoan } from '../src/test/sample-loan';
import { askOnItem, axeAtBothWidths, borrowerJoinsOnPhone, expect, test } from './fixtures';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
const ITEM = 'Government-issued photo ID';
const SECRET = 'Internal: her credit file is thin';

test.describe('the discussion on a loan', () => {
  test('the broker and a borrower talk in threads; the internal note never reaches the borrower; mentions by keyboard, edits and deletions', async ({
    page,
    browser,
    loginAs,
    isMobile,
  }) => {
    test.skip(isMobile, 'the conversation sets both viewports itself, with two people');
    test.setTimeout(360_000);
    const owner = await loginAs({ role: 'owner', name: 'Olive Owner' });
    await page.setViewportSize(DESKTOP);
    const created = await page.request.post(`/api/teams/${owner.team?.id}/loans`, { data: sampleLoan({ borrowerName: 'Nora Investor' }) });
    expect(created.status(), await created.text()).toBe(201);
    const loan = (await created.json()) as LoanDetail;

    // The borrower joins on a phone.
    const {
      context: phone,
      page: borrower,
      errors: borrowerErrors,
    } = await borrowerJoinsOnPhone(page, browser, loan.id, { name: 'Nora Investor', emailLabel: 'nora.talk' });

    // 1. The broker writes to the borrower, mentioning her with the keyboard alone.
    await page.goto(`/app/loans/${loan.id}`);
    const discussion = page.getByRole('region', { name: 'Discussion' });
    await expect(discussion.getByText('No comments yet. Start the conversation.')).toBeVisible();
    const composer = discussion.getByRole('textbox', { name: 'New comment' });
    await composer.click();
    await composer.pressSequentially('Welcome @No');
    const people = discussion.getByRole('listbox', { name: 'People to mention' });
    await expect(people.getByRole('option')).toHaveText(['Nora InvestorBorrower']);
    await expect(people.getByRole('option', { name: /Nora Investor/ })).toHaveAttribute('aria-selected', 'true');
    const activeId = await people.getByRole('option', { name: /Nora Investor/ }).getAttribute('id');
    await expect(composer).toHaveAttribute('aria-activedescendant', activeId ?? 'missing');
    await composer.press('Enter');
    await expect(people).toBeHidden();
    await expect(composer).toHaveValue('Welcome @Nora Investor ');
    // Only the people who may see a comment are offered: the owner sees themself and the borrower, nobody else.
    await composer.pressSequentially('— send your ID here, or see https://example.com/checklist. @');
    await expect(people.getByRole('option')).toHaveCount(2);
    await composer.press('Escape');
    await expect(people).toBeHidden();
    await composer.press('Backspace');
    await composer.press('Control+Enter');
    const threads = discussion.getByRole('list', { name: 'Comments' });
    const welcome = threads.getByRole('listitem').filter({ hasText: 'Welcome' }).first();
    await expect(welcome).toContainText('Olive Owner');
    await expect(welcome.locator('time')).toHaveText('just now');
    await expect(welcome.getByText('@Nora Investor')).toBeVisible();
    await expect(composer).toHaveValue('');

    // 2. An internal note: marked, and the borrower is no one to mention in it.
    await discussion.getByText('Internal: team only').click();
    await composer.fill(SECRET);
    await discussion.getByRole('button', { name: 'Post internal note' }).click();
    const note = threads.getByRole('listitem', { name: /^Internal thread/ });
    await expect(note).toContainText(SECRET);
    await expect(note.getByText('Internal', { exact: true })).toBeVisible();
    await axeAtBothWidths(page, DESKTOP);

    // The broker leaves the loan: what arrives while they look elsewhere stays unread (a page that shows it live reads it).
    await page.goto('/app/loans');

    // 3. The borrower (a reload: the welcome came while their page was open) sees the welcome as new, never the note, and replies with a link.
    await borrower.reload();
    const theirs = borrower.getByRole('region', { name: 'Discussion' });
    const theirWelcome = theirs.getByRole('list', { name: 'Comments' }).getByRole('listitem').filter({ hasText: 'Welcome' }).first();
    await expect(theirWelcome).toContainText('New');
    await expect(borrower.locator('body')).not.toContainText('credit file');
    await expect(theirs.getByRole('list', { name: 'Comments' }).getByRole('listitem', { name: /^Internal/ })).toHaveCount(0);
    const link = theirWelcome.getByRole('link', { name: 'https://example.com/checklist' });
    await expect(link).toHaveAttribute('rel', 'noopener noreferrer nofollow');
    await expect(link).toHaveAttribute('target', '_blank');
    await theirWelcome.getByRole('button', { name: 'Reply to Olive Owner' }).click();
    const reply = theirs.getByRole('textbox', { name: 'Reply to Olive Owner' });
    await expect(reply).toBeFocused();
    await reply.fill('Thanks! My lease: https://example.com/lease.pdf');
    await reply.press('Control+Enter');
    await expect(theirWelcome.getByRole('list', { name: 'Replies' })).toContainText('Thanks! My lease');
    // A question on the ID item, from the checklist.
    const { documents, onItem } = await askOnItem(borrower, ITEM, 'Is a passport fine instead?');
    await expect(documents.getByRole('button', { name: `Comments (1) on ${ITEM}` })).toBeVisible();
    // The question shows twice, in the discussion and in the item's open thread; an id is still the page's once,
    // and the discussion's copy is the one a #comment-… link lands on.
    await expect(theirs.getByRole('list', { name: 'Comments' })).toContainText('Is a passport fine instead?');
    const repeatedIds = await borrower.evaluate(() => {
      const ids = [...document.querySelectorAll('[id]')].map((element) => element.id);
      return ids.filter((id, index) => ids.indexOf(id) !== index);
    });
    expect(repeatedIds).toEqual([]);
    await expect(theirs.locator('article[id^="comment-"]').filter({ hasText: 'Is a passport fine instead?' })).toHaveCount(1);
    await expect(onItem.locator('article[id^="comment-"]')).toHaveCount(0);
    await axeAtBothWidths(borrower, PHONE);

    // 4. The broker comes back (a new visit, at the top of the page): two unread, the first one a jump away; the item shows its comment.
    await page.goto(`/app/loans/${loan.id}`);
    await expect(discussion.getByText('2 unread comments')).toBeVisible();
    await discussion.getByRole('button', { name: 'Jump to first unread' }).click();
    await expect(page.locator('article:focus')).toContainText('Thanks! My lease');
    await expect(threads.getByRole('listitem').filter({ hasText: 'Is a passport fine' }).first()).toContainText(`About: ${ITEM}`);
    await expect(page.getByRole('region', { name: 'Document checklist' }).getByRole('button', { name: `Comments (1) on ${ITEM}` })).toBeVisible();
    // The end of the discussion on screen with the tab visible: read, and the count says so.
    await discussion.getByRole('textbox', { name: 'New comment' }).scrollIntoViewIfNeeded();
    await expect(discussion.getByText('You are all caught up.')).toBeVisible();

    // 5. Edits and deletions: the broker edits the welcome; the borrower deletes the reply, which stays as deleted.
    await welcome
      .getByRole('button', { name: /^Edit your comment/ })
      .first()
      .click();
    const editor = welcome.getByRole('textbox', { name: 'Edit your comment' });
    await expect(editor).toBeFocused();
    await editor.fill('Welcome @Nora Investor! Send your ID when you can.');
    await editor.press('Control+Enter');
    await expect(welcome.getByText('Send your ID when you can.')).toBeVisible();
    await expect(welcome.getByText('edited', { exact: true })).toBeVisible();
    await borrower.reload();
    await expect(theirWelcome).toContainText('Send your ID when you can.');
    await theirWelcome.getByRole('button', { name: /^Delete the comment by Nora Investor/ }).click();
    const confirm = borrower.getByRole('dialog', { name: 'Delete this comment?' });
    await confirm.getByRole('button', { name: 'Delete comment' }).click();
    await expect(confirm).toBeHidden();
    await expect(theirWelcome.getByText('This comment was deleted.')).toBeVisible();
    await expect(borrower.locator('body')).not.toContainText('My lease');
    // The broker cannot edit the borrower's words, and sees the deletion too.
    await page.reload();
    await expect(welcome.getByText('This comment was deleted.')).toBeVisible();
    await expect(welcome.getByRole('button', { name: /^Edit/ })).toHaveCount(1);

    expect(borrowerErrors).toEqual([]);
    await phone.close();
  });

  test('a comment typed just after another is sent is sent too, also while the page is slow to take in the first', async ({ page, loginAs, isMobile }) => {
    test.skip(isMobile, 'one person at a desk');
    const owner = await loginAs({ role: 'owner', name: 'Olive Owner' });
    await page.setViewportSize(DESKTOP);
    const created = await page.request.post(`/api/teams/${owner.team?.id}/loans`, { data: sampleLoan({ borrowerName: 'Nora Investor' }) });
    expect(created.status(), await created.text()).toBe(201);
    const loan = (await created.json()) as LoanDetail;
    await page.goto(`/app/loans/${loan.id}`);
    const discussion = page.getByRole('region', { name: 'Discussion' });
    await expect(discussion.getByText('No comments yet. Start the conversation.')).toBeVisible();
    // The loan's activity is held back until the test lets it through: the first comment shows in the discussion
    // (the live stream) while its sending still settles.
    let letActivityThrough: () => void = () => {};
    const activityHeld = new Promise<void>((resolve) => (letActivityThrough = resolve));
    await page.route(`**/api/loans/${loan.id}/activity**`, async (route) => {
      await activityHeld;
      await route.continue();
    });
    const composer = discussion.getByRole('textbox', { name: 'New comment' });
    const threads = discussion.getByRole('list', { name: 'Comments' });
    await composer.fill('The appraisal is on Tuesday.');
    await composer.press('Control+Enter');
    await expect(threads.getByRole('article').filter({ hasText: 'The appraisal is on Tuesday.' })).toHaveCount(1);
    // Meanwhile the composer holds what was sent, read-only: nothing typed now could be emptied with it.
    await expect(composer).toHaveValue('The appraisal is on Tuesday.');
    await expect(composer).not.toBeEditable();
    letActivityThrough();
    // Typing at once: the composer takes the next one as soon as the first is through, and keeps it whole.
    await composer.fill('And the inspection on Wednesday.');
    await expect(composer).toHaveValue('And the inspection on Wednesday.');
    await discussion.getByRole('button', { name: 'Post comment' }).click();
    await expect(threads.getByRole('article').filter({ hasText: 'And the inspection on Wednesday.' })).toHaveCount(1);
    await expect(threads.getByRole('article').filter({ hasText: 'The appraisal is on Tuesday.' })).toHaveCount(1);
    await expect(composer).toHaveValue('');
    await expect(discussion.getByRole('alert')).toHaveCount(0);
  });
});
