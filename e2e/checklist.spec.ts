import type { LoanDetail } from '../src/shared/schemas/loans';
import type { ChecklistView } from '../src/shared/schemas/checklist';
import { sampleLoan } from '../src/test/sample-loan';
import { expect, expectNoAxeViolations, test } from './fixtures';

test.describe("a loan's document checklist", () => {
  test('the team sees the checklist of the deal, waives an item with a reason, reorders by keyboard and adds an item', async ({ page, loginAs }) => {
    const owner = await loginAs({ role: 'owner', name: 'Olive Owner' });
    const created = await page.request.post(`/api/teams/${owner.team?.id}/loans`, { data: sampleLoan({ borrowerName: 'Checklist Borrower' }) });
    expect(created.status(), await created.text()).toBe(201);
    const loan = (await created.json()) as LoanDetail;
    const order = async () => ((await (await page.request.get(`/api/loans/${loan.id}/checklist`)).json()) as ChecklistView).items.map((item) => item.label);

    await page.goto(`/app/loans/${loan.id}`);
    const checklist = page.getByRole('region', { name: 'Document checklist' });
    await expect(checklist).toContainText('Purchase contract');
    await expect(checklist).toContainText('Appraisal with rent schedule (1007)');
    await expect(checklist).not.toContainText('Current mortgage statement');
    const outstanding = checklist.getByText(/required documents outstanding/);
    const before = await outstanding.textContent();
    await expectNoAxeViolations(page);

    // Waive: the reason is asked for, then shown; one fewer outstanding.
    await checklist.getByRole('button', { name: 'Waive Signed leases' }).click();
    const dialog = page.getByRole('dialog', { name: 'Waive Signed leases' });
    await dialog.getByLabel('Reason').fill('Vacant property; the lender waived it.');
    await dialog.getByRole('button', { name: 'Waive' }).click();
    await expect(checklist).toContainText('Reason: Vacant property; the lender waived it.');
    await expect(outstanding).not.toHaveText(before ?? '');
    await expect(page.getByRole('list', { name: 'Activity' })).toContainText('Olive Owner waived “Signed leases”');

    // Reorder by keyboard: the first item moves down one place, and stays there after a reload.
    const [first, second] = await order();
    await checklist.getByRole('button', { name: `Move ${first} down` }).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByText(`${first} moved to position 2`)).toBeAttached();
    await expect.poll(async () => (await order()).slice(0, 2)).toEqual([second, first]);

    // Add an item of the team's own.
    await checklist.getByRole('button', { name: 'Add an item' }).click();
    await checklist.getByLabel('Label').fill('Lease addendum');
    await checklist.getByLabel('Category').selectOption('income');
    await checklist.getByRole('button', { name: 'Add item' }).click();
    await expect(checklist.getByRole('listitem').last()).toContainText('Lease addendum');
    await page.reload();
    await expect(page.getByRole('region', { name: 'Document checklist' }).getByRole('listitem').last()).toContainText('Lease addendum');
    await expectNoAxeViolations(page);
  });
});
