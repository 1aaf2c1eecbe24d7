import type { Page } from '@playwright/test';
import type { ChecklistTemplateView, ChecklistView } from '../src/shared/schemas/checklist';
import type { LoanDetail } from '../src/shared/schemas/loans';
import { sampleLoan } from '../src/test/sample-loan';
import { expect, expectNoAxeViolations, test } from './fixtures';

const items = (page: Page) => page.getByRole('list', { name: /^Items/ }).getByRole('listitem');

/** The labels of the template as the server holds it now. */
async function savedLabels(page: Page, teamId: string) {
  const response = await page.request.get(`/api/teams/${teamId}/checklist-template`);
  return ((await response.json()) as ChecklistTemplateView).items.map((item) => item.label);
}

/** The page fits the screen: nothing scrolls sideways. */
async function expectNoSidewaysScroll(page: Page) {
  const width = page.viewportSize()?.width ?? 0;
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

test.describe("the team's checklist template", () => {
  test('an owner edits the built-in DSCR template (rename, add, move by keyboard, remove), saves it, and a new loan uses it', async ({ page, loginAs }) => {
    // A long editing session and a loan page: more than the default 60 s on a busy machine.
    test.setTimeout(180_000);
    const owner = await loginAs({ role: 'owner', name: 'Olive Owner' });
    const teamId = owner.team!.id;

    await page.goto('/app/team');
    await page.getByRole('navigation', { name: 'Team' }).getByRole('link', { name: 'Checklist template' }).click();
    await expect(page).toHaveURL('/app/team/templates');
    await expect(page.getByRole('heading', { name: 'Checklist template', level: 1 })).toBeVisible();
    await expect(page.getByRole('note')).toContainText('This is the built-in DSCR checklist.');
    await expect(items(page)).toHaveCount(26);
    await expect(items(page).first()).toContainText('Loan application (1003)');
    await expect(page.getByRole('button', { name: 'Reset to built-in' })).toHaveCount(0);
    await expectNoSidewaysScroll(page);
    await expectNoAxeViolations(page);

    // Rename: the item opens, the label changes, the row says so folded again.
    await page.getByRole('button', { name: 'Edit Government-issued photo ID' }).click();
    const idFields = page.getByRole('group', { name: 'Fields of Government-issued photo ID' });
    await idFields.getByLabel('Label').fill('Photo ID (both sides)');
    await page.getByRole('button', { name: 'Done editing Photo ID (both sides)' }).click();
    await expect(items(page).nth(1)).toContainText('Photo ID (both sides)');
    await expect(page.getByText('You have unsaved changes.')).toBeVisible();

    // Add: a new item opens at the end with its label focused; borrowers see it unless unticked.
    await page.getByRole('button', { name: 'Add an item' }).click();
    const added = page.getByRole('group', { name: 'Fields of Item 27' });
    await expect(added.getByLabel('Label')).toBeFocused();
    await added.getByLabel('Label').fill('Lease addendum');
    const fields = page.getByRole('group', { name: 'Fields of Lease addendum' });
    await fields.getByLabel('Category').selectOption('income');
    await fields.getByLabel('Valid for (days)').fill('30');
    await expect(fields.getByLabel('Borrowers see it')).toBeChecked();
    await expect(fields.getByRole('group', { name: 'Loan purposes' }).getByRole('checkbox')).toHaveCount(3);
    await expectNoAxeViolations(page); // with an item's fields open
    await page.getByRole('button', { name: 'Done editing Lease addendum' }).click();
    await expect(items(page).last()).toContainText('Valid 30 days');

    // Move by keyboard: focus stays on the button, and each move is announced.
    await page.getByRole('button', { name: 'Move Lease addendum up' }).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByText('Lease addendum moved to position 26 of 27')).toBeAttached();
    await expect(page.getByRole('button', { name: 'Move Lease addendum up' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByText('Lease addendum moved to position 25 of 27')).toBeAttached();
    await expect(items(page).nth(24)).toContainText('Lease addendum');

    // Remove, undo, remove again.
    await page.getByRole('button', { name: 'Remove Title commitment' }).click();
    await expect(items(page)).toHaveCount(26);
    await expect(page.getByText('Removed “Title commitment”.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Undo' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(items(page)).toHaveCount(27);
    await expect(items(page).filter({ hasText: 'Title commitment' })).toHaveCount(1);
    await page.getByRole('button', { name: 'Remove Title commitment' }).click();
    await expect(items(page)).toHaveCount(26);

    await page.getByRole('button', { name: 'Save template' }).click();
    await expect(page.getByText('The checklist template has been saved.')).toBeVisible();
    await expect(page.getByRole('note')).toHaveCount(0);
    await expect(page.getByText('Everything is saved.')).toBeVisible();

    // After a reload the page shows what was saved, in its order.
    await page.reload();
    await expect(items(page)).toHaveCount(26);
    await expect(items(page).nth(1)).toContainText('Photo ID (both sides)');
    await expect(items(page).nth(24)).toContainText('Lease addendum');
    await expect(items(page).filter({ hasText: 'Title commitment' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Reset to built-in' })).toBeVisible();
    const labels = await savedLabels(page, teamId);
    expect(labels[1]).toBe('Photo ID (both sides)');
    expect(labels[24]).toBe('Lease addendum');
    expect(labels).not.toContain('Title commitment');

    // A new single-family purchase gets the team's version.
    const created = await page.request.post(`/api/teams/${teamId}/loans`, { data: sampleLoan({ borrowerName: 'Template Borrower' }) });
    expect(created.status(), await created.text()).toBe(201);
    const loan = (await created.json()) as LoanDetail;
    await page.goto(`/app/loans/${loan.id}`);
    const checklist = page.getByRole('region', { name: 'Document checklist' });
    await expect(checklist).toContainText('Photo ID (both sides)');
    await expect(checklist).toContainText('Lease addendum');
    await expect(checklist).not.toContainText('Title commitment');
    await expect(checklist).not.toContainText('Government-issued photo ID');
    const onLoan = ((await (await page.request.get(`/api/loans/${loan.id}/checklist`)).json()) as ChecklistView).items;
    expect(onLoan.find((item) => item.label === 'Lease addendum')).toMatchObject({ validityDays: 30, borrowerVisible: true, category: 'income' });
  });

  test('the editor shows errors at their fields, asks before leaving unsaved changes, offers Reload after someone else saved, and resets to the built-in template', async ({
    page,
    loginAs,
    consoleGuard,
    isMobile,
  }) => {
    test.setTimeout(120_000);
    // The stale save's answer, which the page shows in its own words.
    consoleGuard.allow(/Failed to load resource: the server responded with a status of 409/);
    const owner = await loginAs({ role: 'owner', name: 'Esme Editor' });
    const teamId = owner.team!.id;
    await page.goto('/app/team');
    await page.getByRole('navigation', { name: 'Team' }).getByRole('link', { name: 'Checklist template' }).click();
    await expect(items(page)).toHaveCount(26);

    // With a mouse, drag and drop moves an item as the arrow buttons do, announced the same way (from the list's top, so nothing scrolls mid-drag).
    if (!isMobile) {
      // At once: the page scrolls smoothly otherwise, and a drag measured mid-scroll (slow on a busy machine) grabs another item.
      await page.getByRole('heading', { name: /^Items/ }).evaluate((heading) => heading.scrollIntoView({ behavior: 'instant' }));
      await items(page).nth(0).dragTo(items(page).nth(2));
      await expect(page.getByText('Loan application (1003) moved to position 3 of 26')).toBeAttached();
      await expect(items(page).nth(2)).toContainText('Loan application (1003)');
    } else {
      await page.getByRole('button', { name: 'Move Loan application (1003) down' }).click();
    }

    // Back in the browser asks first too; leaving goes back.
    await page.evaluate(() => history.back());
    const leaveBack = page.getByRole('dialog', { name: 'Leave without saving?' });
    await expect(leaveBack).toBeVisible();
    await leaveBack.getByRole('button', { name: 'Leave' }).click();
    await expect(page).toHaveURL('/app/team');
    await page.goForward();
    await expect(page).toHaveURL('/app/team/templates');
    await expect(items(page).nth(0)).toContainText('Loan application (1003)'); // nothing was saved

    // An empty label and a validity of zero days: both are said at their fields, and the first is focused.
    await page.getByRole('button', { name: 'Edit Operating agreement' }).click();
    const fields = page.getByRole('group', { name: 'Fields of Operating agreement' });
    await fields.getByLabel('Valid for (days)').fill('0');
    await fields.getByLabel('Label').fill('');
    await page.getByRole('button', { name: 'Save template' }).click();
    const open = page.getByRole('group', { name: 'Fields of Item 4' });
    await expect(open.getByLabel('Label')).toBeFocused();
    await expect(open.getByText('Give the item a label')).toBeVisible();
    await expect(open.getByText('Validity must be at least 1 day')).toBeVisible();
    await expect(page.getByText('One item needs attention')).toBeVisible();
    await expectNoAxeViolations(page);
    await open.getByLabel('Valid for (days)').fill('');
    await open.getByLabel('Label').fill('Operating agreement (signed)');

    // Leaving through a link asks first; staying keeps the edit.
    await page.getByRole('navigation', { name: 'Team' }).getByRole('link', { name: 'Members' }).click();
    const leave = page.getByRole('dialog', { name: 'Leave without saving?' });
    await expect(leave).toBeVisible();
    await leave.getByRole('button', { name: 'Cancel' }).click();
    await expect(page).toHaveURL('/app/team/templates');
    await expect(page.getByRole('group', { name: 'Fields of Operating agreement (signed)' }).getByLabel('Label')).toHaveValue('Operating agreement (signed)');

    // Someone else saves meanwhile: this save is refused, and Reload shows their version.
    const before = (await (await page.request.get(`/api/teams/${teamId}/checklist-template`)).json()) as ChecklistTemplateView;
    const theirs = await page.request.put(`/api/teams/${teamId}/checklist-template`, {
      data: { revision: before.revision, items: before.items.map((item, i) => (i === 0 ? { ...item, label: 'Loan application (their edit)' } : item)) },
    });
    expect(theirs.status(), await theirs.text()).toBe(200);
    await page.getByRole('button', { name: 'Save template' }).click();
    const conflict = page.getByRole('alert').filter({ hasText: 'Someone else changed the checklist template' });
    await expect(conflict).toBeVisible();
    await conflict.getByRole('button', { name: 'Reload' }).click();
    await expect(items(page).first()).toContainText('Loan application (their edit)');
    await expect(items(page).filter({ hasText: 'Operating agreement (signed)' })).toHaveCount(0);
    await expect(page.getByRole('note')).toHaveCount(0);

    // Reset to the built-in template, after a confirmation.
    await page.getByRole('button', { name: 'Reset to built-in' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reset to the built-in checklist?' });
    await dialog.getByRole('button', { name: 'Reset' }).click();
    await expect(page.getByRole('note')).toContainText('This is the built-in DSCR checklist.');
    await expect(items(page).first()).toContainText('Loan application (1003)');

    // With nothing unsaved, a link leaves at once.
    await page.getByRole('navigation', { name: 'Team' }).getByRole('link', { name: 'Members' }).click();
    await expect(page).toHaveURL('/app/team');
  });

  test('an assistant reads the template and has no editing controls', async ({ page, loginAs }) => {
    await loginAs({ role: 'assistant', name: 'Ari Assistant' });
    await page.goto('/app/team/templates');
    await expect(page.getByRole('heading', { name: 'Checklist template', level: 1 })).toBeVisible();
    await expect(page.getByText('Only the team’s owners change the template.')).toBeVisible();
    await expect(items(page)).toHaveCount(26);
    await expect(items(page).first()).toContainText('Loan application (1003)');
    await expect(page.getByRole('button')).not.toHaveCount(0); // the header's menu is there…
    for (const name of [/^Edit /, /^Move /, /^Remove /, 'Add an item', 'Save template', 'Reset to built-in'])
      await expect(page.getByRole('main').getByRole('button', { name })).toHaveCount(0); // …and nothing of the editor
    await expectNoSidewaysScroll(page);
    await expectNoAxeViolations(page);
  });
});
