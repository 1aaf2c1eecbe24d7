import type { Locator, Page } from '@playwright/test';
import type { LoanDetail } from '../src/shared/schemas/loans';
import { sampleLoan } from '../src/test/sample-loan';
import { addSession, askOnItem, axeAtBothWidths, borrowerJoinsOnPhone, expect, test, watchPage } from './fixtures';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
const ITEM = 'Government-issued photo ID';
const SECRET = 'Internal: appraisal came in low, keep it quiet';

/** The comments of a discussion (threads and replies alike) that say `text`: one, when it arrived once. */
const saying = (discussion: Locator, text: string) => discussion.getByRole('article').filter({ hasText: text });

/** Anything that reloads the page loses this mark. */
const markPage = (page: Page) => page.evaluate(() => Object.assign(window, { stillTheSamePage: true }));
const samePage = (page: Page) => page.evaluate(() => (window as unknown as { stillTheSamePage?: boolean }).stillTheSamePage === true);

test.describe('the live conversation on a loan', () => {
  test.skip(({ isMobile }) => isMobile, 'the broker works at a desk and the borrower on a phone, in one test');

  test('a borrower and the broker talk live about an item; the assistant’s internal note never reaches the borrower; what was posted while she was offline arrives once, and her draft survives', async ({
    page,
    browser,
    loginAs,
    createPerson,
  }) => {
    test.setTimeout(360_000);
    await page.setViewportSize(DESKTOP);
    const owner = await loginAs({ role: 'owner', name: 'Omar Owner', teamName: 'Harbor Lending' });
    const assistant = await createPerson({ role: 'assistant', name: 'Asha Assistant', teamId: owner.team?.id ?? '' });
    const created = await page.request.post(`/api/teams/${owner.team?.id}/loans`, {
      data: sampleLoan({ borrowerName: 'Nora Investor', assigneeId: assistant.userId }),
    });
    expect(created.status(), await created.text()).toBe(201);
    const loan = (await created.json()) as LoanDetail;
    const baseURL = test.info().project.use.baseURL ?? '';

    // The borrower accepts the invitation on a phone and lands on the loan.
    const {
      context: phone,
      page: borrower,
      errors: borrowerErrors,
    } = await borrowerJoinsOnPhone(page, browser, loan.id, { name: 'Nora Investor', emailLabel: 'nora.conversation' });
    const theirs = borrower.getByRole('region', { name: 'Discussion' });
    await expect(theirs.getByText('No messages yet. Ask your team anything here.')).toBeVisible();
    await markPage(borrower);

    // The broker opens the loan at a desk; the assistant in a browser of her own.
    await page.goto(`/app/loans/${loan.id}`);
    const ours = page.getByRole('region', { name: 'Discussion' });
    await expect(ours.getByText('No comments yet. Start the conversation.')).toBeVisible();
    await expect(page.getByTestId('also-viewing')).toHaveText('Also viewing: Nora Investor');
    await markPage(page);
    const desk = await browser.newContext({ baseURL, viewport: DESKTOP });
    await addSession(desk, assistant);
    const assistantPage = await desk.newPage();
    const assistantErrors = await watchPage(assistantPage);
    await assistantPage.goto(`/app/loans/${loan.id}`);
    const hers = assistantPage.getByRole('region', { name: 'Discussion' });
    await expect(hers.getByText('No comments yet. Start the conversation.')).toBeVisible();

    // 1. The borrower asks about an item, from her checklist; the broker's page shows it at once, on the item too.
    const { onItem } = await askOnItem(borrower, ITEM, 'Is a passport fine instead of a driver’s license?');
    const question = ours.getByRole('list', { name: 'Comments' }).getByRole('listitem').filter({ hasText: 'Is a passport fine' }).first();
    await expect(question).toContainText('Nora Investor');
    await expect(question).toContainText(`About: ${ITEM}`);
    await expect(page.getByRole('region', { name: 'Document checklist' }).getByRole('button', { name: `Comments (1) on ${ITEM}` })).toBeVisible();

    // 2. The broker replies in the thread; the borrower's page shows the reply at once, in the discussion and on the item.
    await question.getByRole('button', { name: 'Reply to Nora Investor' }).click();
    const reply = ours.getByRole('textbox', { name: 'Reply to Nora Investor' });
    await reply.fill('A passport is perfect. Upload both pages with the photo.');
    await reply.press('Control+Enter');
    await expect(question.getByRole('list', { name: 'Replies' })).toContainText('A passport is perfect');
    const theirQuestion = theirs.getByRole('list', { name: 'Comments' }).getByRole('listitem').filter({ hasText: 'Is a passport fine' }).first();
    await expect(theirQuestion.getByRole('list', { name: 'Replies' })).toContainText('A passport is perfect');
    await expect(theirQuestion).toContainText('Omar Owner');
    await expect(onItem).toContainText('A passport is perfect');

    // 3. The assistant writes an internal note: the broker sees it live; then a shared comment of the broker's reaches the borrower, and the note never did.
    await hers.getByText('Internal: team only').click();
    await hers.getByRole('textbox', { name: 'New comment' }).fill(SECRET);
    await hers.getByRole('button', { name: 'Post internal note' }).click();
    await expect(hers.getByRole('list', { name: 'Comments' }).getByRole('listitem', { name: /^Internal thread/ })).toContainText(SECRET);
    const note = ours.getByRole('list', { name: 'Comments' }).getByRole('listitem', { name: /^Internal thread/ });
    await expect(note).toContainText(SECRET);
    await expect(note).toContainText('Asha Assistant');
    const composer = ours.getByRole('textbox', { name: 'New comment' });
    await composer.fill('Your appraisal is scheduled for Thursday.');
    await ours.getByRole('button', { name: 'Post comment' }).click();
    await expect(saying(ours, 'Your appraisal is scheduled for Thursday.')).toHaveCount(1);
    await expect(saying(theirs, 'Your appraisal is scheduled for Thursday.')).toHaveCount(1);
    await expect(borrower.locator('body')).not.toContainText('keep it quiet');
    await expect(theirs.getByRole('list', { name: 'Comments' }).getByRole('listitem', { name: /^Internal/ })).toHaveCount(0);

    // 4. The borrower starts typing, and her phone loses the network; the broker posts twice meanwhile.
    const draft = 'I will send the passport tonight, and';
    const theirComposer = theirs.getByRole('textbox', { name: 'New message to your team' });
    await theirComposer.fill(draft);
    await phone.setOffline(true);
    for (const text of ['While you were away: the lender approved the rate.', 'And the title company has the contract.']) {
      await composer.fill(text);
      await ours.getByRole('button', { name: 'Post comment' }).click();
      await expect(saying(ours, text)).toHaveCount(1);
    }

    // 5. The network returns: both arrive, once each and in order, without a reload, and the draft is still there.
    await phone.setOffline(false);
    await expect(saying(theirs, 'While you were away: the lender approved the rate.')).toHaveCount(1);
    await expect(saying(theirs, 'And the title company has the contract.')).toHaveCount(1);
    await expect(theirs.getByRole('list', { name: 'Comments' }).getByRole('listitem', { name: /^Thread started by/ })).toContainText([
      'Is a passport fine',
      'Your appraisal is scheduled',
      'While you were away',
      'And the title company',
    ]);
    await expect(theirComposer).toHaveValue(draft);
    expect(await samePage(borrower)).toBe(true);
    expect(await samePage(page)).toBe(true);
    await expect(borrower.locator('body')).not.toContainText('keep it quiet');

    // 6. The loan page with its discussion passes axe at both widths, for the borrower and the broker.
    await axeAtBothWidths(borrower, PHONE);
    await axeAtBothWidths(page, DESKTOP);

    expect(borrowerErrors).toEqual([]);
    expect(assistantErrors).toEqual([]);
    await desk.close();
    await phone.close();
  });
});
