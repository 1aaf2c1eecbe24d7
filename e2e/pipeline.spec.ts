import type { APIRequestContext, Page } from '@playwright/test';
import { LOAN_STAGES, STAGE_LABELS, type LoanStage } from '../src/shared/domain/loan-stages';
import type { ChecklistView } from '../src/shared/schemas/checklist';
import type { CreateLoan, LoanDetail } from '../src/shared/schemas/loans';
import { sampleLoan } from '../src/test/sample-loan';
import { addSession, expect, expectNoAxeViolations, test, type TestPerson } from './fixtures';

/**
 * The pipeline at /app/loans, on loans made through the real API by the
 * signed-in owner (the session the login fixture put in the page's context).
 * Each test makes its own owner and team, so the two viewports run side by side.
 */

/** The API tests' sample loan, worth $600,000 and with no borrower e-mail. */
const loan = (overrides: Partial<CreateLoan>): CreateLoan => sampleLoan({ borrowerEmail: undefined, valueCents: 600_000_00, ...overrides });

async function createLoan(request: APIRequestContext, owner: TestPerson, input: CreateLoan): Promise<LoanDetail> {
  const response = await request.post(`/api/teams/${owner.team?.id}/loans`, { data: input });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as LoanDetail;
}

/** Walks a loan along the line to `to` (exits need a reason), as the loan page would. */
async function moveTo(request: APIRequestContext, created: LoanDetail, path: LoanStage[]): Promise<void> {
  let from = created.stage;
  for (const to of path) {
    const response = await request.post(`/api/loans/${created.id}/stage`, {
      data: { from, to, ...(to === 'withdrawn' || to === 'declined' ? { note: 'test' } : {}) },
    });
    expect(response.status(), await response.text()).toBe(200);
    from = to;
  }
}

async function stageOf(request: APIRequestContext, loanId: string): Promise<LoanStage> {
  const response = await request.get(`/api/loans/${loanId}`);
  expect(response.status()).toBe(200);
  return ((await response.json()) as LoanDetail).stage;
}

/** Waives the first `count` required items of the loan's checklist (all of them without a count), as the checklist panel would. */
async function waiveRequired(request: APIRequestContext, loanId: string, count?: number): Promise<number> {
  const checklist = (await (await request.get(`/api/loans/${loanId}/checklist`)).json()) as ChecklistView;
  const required = checklist.items.filter((item) => item.required).slice(0, count);
  for (const item of required) {
    const response = await request.post(`/api/loans/${loanId}/checklist/items/${item.id}/waive`, {
      data: { version: item.version, reason: 'Not for this deal' },
    });
    expect(response.status(), await response.text()).toBe(200);
  }
  return checklist.outstandingRequired - required.length;
}

/** A stage by its label, as the board's columns are named. */
const STAGE_OF = Object.fromEntries(LOAN_STAGES.map((stage) => [STAGE_LABELS[stage], stage])) as Record<string, LoanStage>;

const daysFromToday = (n: number) => {
  const date = new Date();
  date.setDate(date.getDate() + n);
  const pad = (v: number) => String(v).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
};

/** The borrower names of the table's rows, top to bottom. */
const rowNames = (page: Page) => page.getByRole('table').getByRole('rowheader').getByRole('link').allInnerTexts();

test.describe('pipeline', () => {
  test('the list: search and filters live in the address, survive a reload and Back; columns sort; the CSV link carries the view', async ({
    page,
    loginAs,
  }) => {
    // Many steps, each a round trip, on a machine the parallel project shares.
    test.setTimeout(180_000);
    const owner = await loginAs({ role: 'owner', name: 'Priya Pipeline', teamName: 'Pipeline Lending' });
    const request = page.request;
    const ana = await createLoan(request, owner, loan({ borrowerName: 'Ana Garcia', loanAmountCents: 300_000_00, assigneeId: owner.userId }));
    const ben = await createLoan(
      request,
      owner,
      loan({
        borrowerName: 'Ben Okafor',
        entityName: 'Okafor Holdings LLC',
        loanAmountCents: 450_000_00,
        lenderLoanNumber: 'LN-7781',
        propertyStreet: '88 Elm St',
      }),
    );
    const cara = await createLoan(request, owner, loan({ borrowerName: 'Cara Diaz', loanAmountCents: 200_000_00, targetClosingDate: daysFromToday(-3) }));
    const dev = await createLoan(request, owner, loan({ borrowerName: 'Dev Patel', loanAmountCents: 500_000_00 }));
    await moveTo(request, ben, ['application']);
    await moveTo(request, cara, ['application', 'underwriting']);
    await moveTo(request, dev, ['funded']);
    // Outstanding documents: none left for Ana, one fewer for Cara than for Ben.
    expect(await waiveRequired(request, ana.id)).toBe(0);
    const caraOutstanding = await waiveRequired(request, cara.id, 1);
    const benOutstanding = caraOutstanding + 1;

    // Team members land on the pipeline.
    await page.goto('/app');
    await expect(page).toHaveURL(/\/app\/loans$/);
    await expect(page.getByRole('heading', { name: 'Pipeline', level: 1 })).toBeVisible();
    await expect(page).toHaveTitle('Pipeline — Coverly');
    await expect(page.getByRole('navigation', { name: 'App' }).getByRole('link', { name: 'Pipeline' })).toHaveAttribute('aria-current', 'page');
    await expect(page.getByRole('status').filter({ hasText: '3 loans' })).toBeVisible();
    // Open loans only, last activity first; funded ones are under their status.
    await expect.poll(() => rowNames(page)).toEqual(['Cara Diaz', 'Ana Garcia', 'Ben Okafor']);
    const benRow = page.getByRole('row').filter({ hasText: 'Ben Okafor' });
    await expect(benRow).toContainText('Okafor Holdings LLC');
    await expect(benRow).toContainText('88 Elm St, Austin, TX 78704');
    await expect(benRow).toContainText('$450,000');
    await expect(benRow).toContainText('Application');
    // Application is 0.6 × 1 ÷ 10 of the way, and no document is approved yet.
    await expect(benRow).toContainText('6%');
    await expect(benRow).toContainText('0 days');
    const outstandingCell = (name: string) => page.getByRole('row').filter({ hasText: name }).getByRole('cell').nth(4);
    await expect(outstandingCell('Ben Okafor')).toHaveText(String(benOutstanding));
    await expect(outstandingCell('Cara Diaz')).toHaveText(String(caraOutstanding));
    await expect(outstandingCell('Ana Garcia')).toHaveText('None');
    await expect(page.getByRole('row').filter({ hasText: 'Cara Diaz' })).toContainText('Overdue');
    await expect(page.getByRole('row').filter({ hasText: 'Ana Garcia' })).toContainText('Priya Pipeline');
    await expect(page.getByRole('list', { name: 'Filter by stage' }).getByRole('button', { name: /Underwriting 1/ })).toBeVisible();
    await expectNoAxeViolations(page);

    // A search by lender loan number: typed, then written to the address (replacing it).
    await page.getByLabel('Search').fill('ln-7781');
    await expect(page).toHaveURL(/\/app\/loans\?q=ln-7781$/);
    await expect(page.getByRole('status').filter({ hasText: '1 matching loan' })).toBeVisible();
    await expect.poll(() => rowNames(page)).toEqual(['Ben Okafor']);
    await page.reload();
    await expect(page.getByLabel('Search')).toHaveValue('ln-7781');
    await expect(page.getByRole('status').filter({ hasText: '1 matching loan' })).toBeVisible();

    // Filters push: Back steps through them.
    await page.getByLabel('Search').fill('');
    await expect(page).toHaveURL(/\/app\/loans$/);
    const stageChips = page.getByRole('list', { name: 'Filter by stage' });
    await stageChips.getByRole('button', { name: /^Application/ }).click();
    await expect(page).toHaveURL(/\?stage=application$/);
    await expect(stageChips.getByRole('button', { name: /^Application/ })).toHaveAttribute('aria-pressed', 'true');
    await expect.poll(() => rowNames(page)).toEqual(['Ben Okafor']);
    await page.getByLabel('Target closing').selectOption('overdue');
    await expect(page).toHaveURL(/\?stage=application&closing=overdue$/);
    await expect(page.getByText('No loans match this view.')).toBeVisible();
    await page.goBack();
    await expect(page).toHaveURL(/\?stage=application$/);
    await expect(page.getByLabel('Target closing')).toHaveValue('');
    await expect.poll(() => rowNames(page)).toEqual(['Ben Okafor']);
    await page.goBack();
    await expect(page).toHaveURL(/\/app\/loans$/);
    await expect(stageChips.getByRole('button', { name: /^All stages/ })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByRole('status').filter({ hasText: '3 loans' })).toBeVisible();

    await page.getByLabel('Target closing').selectOption('overdue');
    await expect.poll(() => rowNames(page)).toEqual(['Cara Diaz']);
    await page.getByLabel('Target closing').selectOption('');
    await page.getByLabel('Assignee').selectOption({ label: 'Priya Pipeline' });
    await expect(page).toHaveURL(new RegExp(`\\?assignee=${owner.userId}$`));
    await expect(page.getByRole('status').filter({ hasText: '1 matching loan' })).toBeVisible();
    await expect.poll(() => rowNames(page)).toEqual(['Ana Garcia']);
    await page.getByLabel('Assignee').selectOption('none');
    await expect(page.getByRole('status').filter({ hasText: '2 matching loans' })).toBeVisible();
    await page.getByLabel('Assignee').selectOption('');
    await page.getByLabel('Status').selectOption('funded');
    await expect(page).toHaveURL(/\?status=funded$/);
    await expect.poll(() => rowNames(page)).toEqual(['Dev Patel']);
    await page.getByLabel('Status').selectOption('open');

    // Fewest outstanding documents first, then most.
    await page.getByRole('button', { name: 'Outstanding docs' }).click();
    await expect(page).toHaveURL(/\?sort=outstanding$/);
    await expect(page.getByRole('columnheader', { name: 'Outstanding docs' })).toHaveAttribute('aria-sort', 'ascending');
    await expect.poll(() => rowNames(page)).toEqual(['Ana Garcia', 'Cara Diaz', 'Ben Okafor']);
    await page.getByRole('button', { name: 'Outstanding docs' }).click();
    await expect.poll(() => rowNames(page)).toEqual(['Ben Okafor', 'Cara Diaz', 'Ana Garcia']);

    // Sorting by a column: largest first, then flipped; the header says so, and a reload keeps it.
    await page.getByRole('button', { name: 'Loan amount' }).click();
    await expect(page).toHaveURL(/\?sort=amount$/);
    await expect(page.getByRole('columnheader', { name: 'Loan amount' })).toHaveAttribute('aria-sort', 'descending');
    await expect.poll(() => rowNames(page)).toEqual(['Ben Okafor', 'Ana Garcia', 'Cara Diaz']);
    await page.getByRole('button', { name: 'Loan amount' }).click();
    await expect(page).toHaveURL(/\?sort=amount&dir=asc$/);
    await expect.poll(() => rowNames(page)).toEqual(['Cara Diaz', 'Ana Garcia', 'Ben Okafor']);
    await page.getByRole('button', { name: 'Borrower' }).click();
    await expect(page.getByRole('columnheader', { name: 'Borrower' })).toHaveAttribute('aria-sort', 'ascending');
    await expect(page.getByRole('columnheader', { name: 'Loan amount' })).not.toHaveAttribute('aria-sort', /.+/);
    await expect.poll(() => rowNames(page)).toEqual(['Ana Garcia', 'Ben Okafor', 'Cara Diaz']);
    await page.getByRole('button', { name: 'Borrower' }).click();
    await page.reload();
    await expect(page.getByRole('columnheader', { name: 'Borrower' })).toHaveAttribute('aria-sort', 'descending');
    await expect.poll(() => rowNames(page)).toEqual(['Cara Diaz', 'Ben Okafor', 'Ana Garcia']);

    // The export is the view on screen, every page of it.
    await page.getByLabel('Search').fill('garcia');
    await expect(page.getByRole('status').filter({ hasText: '1 matching loan' })).toBeVisible();
    const exportLink = page.getByRole('link', { name: 'Export CSV' });
    const csvQuery = new URLSearchParams({ status: 'open', sort: 'borrower', dir: 'desc', q: 'garcia' });
    await expect(exportLink).toHaveAttribute('href', `/api/teams/${owner.team?.id}/loans.csv?${csvQuery}`);
    const csv = await request.get((await exportLink.getAttribute('href')) ?? '');
    expect(csv.status()).toBe(200);
    const lines = (await csv.text()).trim().split(/\r?\n/);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('Ana Garcia');

    // Rows open the loan file.
    await expect(page.getByRole('link', { name: 'Ana Garcia' })).toHaveAttribute('href', `/app/loans/${ana.id}`);
    await expect(page.getByRole('link', { name: 'New loan' })).toHaveAttribute('href', '/app/loans/new');
    await expectNoAxeViolations(page);
  });

  test('the board: columns by stage; a card moves by keyboard, asks a reason to exit, and a stale move is refused', async ({ page, loginAs, consoleGuard }) => {
    // The move refused because the loan moved meanwhile (409).
    consoleGuard.allow(/Failed to load resource: the server responded with a status of 409/);
    test.setTimeout(180_000);
    const owner = await loginAs({ role: 'owner', name: 'Bo Board', teamName: 'Board Lending' });
    const request = page.request;
    const ana = await createLoan(request, owner, loan({ borrowerName: 'Ana Garcia', propertyStreet: '5 Oak Ln' }));
    const ben = await createLoan(request, owner, loan({ borrowerName: 'Ben Okafor' }));
    const cara = await createLoan(request, owner, loan({ borrowerName: 'Cara Diaz' }));

    await page.goto('/app/loans');
    await page.getByRole('group', { name: 'Layout' }).getByRole('button', { name: 'Board' }).click();
    await expect(page).toHaveURL(/\/app\/loans\?view=board$/);
    const board = page.getByRole('region', { name: 'Board by stage' });
    const column = (name: string) => board.locator(`[data-stage="${STAGE_OF[name]}"]`);
    await expect(column('Lead').getByRole('heading', { level: 2 })).toHaveText('Lead: 3 loans');
    await expect(column('Lead')).toContainText('5 Oak Ln, Austin, TX 78704');
    await expect(column('Lead')).toContainText('$300,000');
    await expect(column('Lead')).toContainText('0 days in stage');
    await expect(column('Funded').getByRole('heading', { level: 2 })).toHaveText('Funded: 0 loans');
    // The columns scroll sideways in their region; the page itself never does.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(page.viewportSize()?.width);
    await expectNoAxeViolations(page);

    // By keyboard: the card's menu lists the stages it may move to; Enter picks one.
    const menuButton = page.getByRole('button', { name: 'Move to…: Ana Garcia' });
    await menuButton.focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu', { name: 'Move Ana Garcia to' });
    await expect(menu.getByRole('menuitem')).toHaveCount(12);
    await expect(menu.getByRole('menuitem', { name: 'Application' })).toBeFocused();
    await expectNoAxeViolations(page);
    await page.keyboard.press('ArrowDown');
    await expect(menu.getByRole('menuitem', { name: 'Borrower invited' })).toBeFocused();
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Enter');
    await expect(column('Application')).toContainText('Ana Garcia');
    await expect(column('Lead')).not.toContainText('Ana Garcia');
    await expect(page.getByRole('status').filter({ hasText: 'Ana Garcia moved to Application.' })).toBeAttached();
    await expect(column('Application').getByRole('heading', { level: 2 })).toHaveText('Application: 1 loan');
    await expect.poll(() => stageOf(request, ana.id)).toBe('application');
    // A reload shows the server's board, with the view still in the address.
    await page.reload();
    await expect(column('Application')).toContainText('Ana Garcia');
    await expect(column('Lead').getByRole('heading', { level: 2 })).toHaveText('Lead: 2 loans');

    // An exit asks for its reason first.
    await page.getByRole('button', { name: 'Move to…: Ben Okafor' }).click();
    await page.getByRole('menu', { name: 'Move Ben Okafor to' }).getByRole('menuitem', { name: 'Withdrawn' }).click();
    const dialog = page.getByRole('dialog', { name: 'Mark Ben Okafor as withdrawn' });
    await expect(dialog).toBeVisible();
    await expectNoAxeViolations(page);
    await dialog.getByRole('button', { name: 'Mark withdrawn' }).click();
    await expect(dialog.getByText('Give the reason')).toBeVisible();
    await dialog.getByLabel('Reason').fill('Chose another lender');
    await dialog.getByRole('button', { name: 'Mark withdrawn' }).click();
    await expect(dialog).toBeHidden();
    await expect(board).not.toContainText('Ben Okafor');
    await expect.poll(() => stageOf(request, ben.id)).toBe('withdrawn');
    // Withdrawn loans are under their status, where the card offers Reopen to the step it left.
    await page.getByLabel('Status').selectOption('closed');
    await expect(page).toHaveURL(/\?status=closed&view=board$/);
    await expect(column('Withdrawn')).toContainText('Ben Okafor');
    await page.getByRole('button', { name: 'Reopen…: Ben Okafor' }).click();
    await expect(page.getByRole('menu', { name: 'Move Ben Okafor to' }).getByRole('menuitem')).toHaveText(['Lead']);
    await page.keyboard.press('Escape');
    await expect(page.getByRole('button', { name: 'Reopen…: Ben Okafor' })).toBeFocused();
    await page.goBack();
    await expect(page).toHaveURL(/\?view=board$/);

    // Someone else moved Cara meanwhile: the move is refused with the server's words, and the board catches up.
    await expect(page.getByRole('status').filter({ hasText: '2 loans' }).getByTestId('spinner')).toHaveCount(0);
    await expect(column('Lead')).toContainText('Cara Diaz');
    await moveTo(request, cara, ['underwriting']);
    await column('Lead').getByRole('button', { name: 'Move to…: Cara Diaz' }).click();
    await page.getByRole('menu', { name: 'Move Cara Diaz to' }).getByRole('menuitem', { name: 'Appraisal ordered' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'This loan was moved to Underwriting by someone else meanwhile.' })).toBeVisible();
    await expect(column('Underwriting')).toContainText('Cara Diaz');
    await expect(column('Appraisal ordered')).not.toContainText('Cara Diaz');
    expect(await stageOf(request, cara.id)).toBe('underwriting');
  });

  test('the board: a card moves by drag and drop', async ({ page, loginAs, isMobile }) => {
    test.skip(isMobile, 'dragging is for a mouse; on a phone the card’s menu moves it');
    const owner = await loginAs({ role: 'owner', name: 'Dee Drag', teamName: 'Drag Lending' });
    const created = await createLoan(page.request, owner, loan({ borrowerName: 'Ana Garcia' }));
    await page.goto('/app/loans?view=board');
    const board = page.getByRole('region', { name: 'Board by stage' });
    const column = (name: string) => board.locator(`[data-stage="${STAGE_OF[name]}"]`);
    await expect(column('Lead')).toContainText('Ana Garcia');
    await column('Lead').getByRole('listitem').filter({ hasText: 'Ana Garcia' }).dragTo(column('Application'));
    await expect(column('Application')).toContainText('Ana Garcia');
    await expect(column('Lead')).not.toContainText('Ana Garcia');
    await expect.poll(() => stageOf(page.request, created.id)).toBe('application');
  });

  test('a loan with comments the person has not read says how many, on the list and on the board', async ({
    page,
    browser,
    loginAs,
    createPerson,
    baseURL,
  }) => {
    const owner = await loginAs({ role: 'owner', name: 'Una Unread', teamName: 'Unread Lending' });
    const quiet = await createLoan(page.request, owner, loan({ borrowerName: 'Quinn Quiet' }));
    const talked = await createLoan(page.request, owner, loan({ borrowerName: 'Tara Talked' }));
    // The assistant writes twice on one loan, in their own browser.
    const assistant = await createPerson({ role: 'assistant', name: 'Asha Notes', teamId: owner.team?.id });
    const theirs = await browser.newContext({ baseURL });
    await addSession(theirs, assistant);
    for (const body of ['Statements are in', 'Lender wants 6 months of reserves']) {
      const posted = await theirs.request.post(`/api/loans/${talked.id}/comments`, { data: { body, visibility: 'internal' } });
      expect(posted.status(), await posted.text()).toBe(201);
    }
    await theirs.close();

    await page.goto('/app/loans');
    await expect(page.getByRole('rowheader', { name: /Tara Talked/ })).toContainText('2 unread comments');
    await expect(page.getByRole('rowheader', { name: /Quinn Quiet/ })).not.toContainText('unread');
    await expectNoAxeViolations(page);
    await page.goto('/app/loans?view=board');
    await expect(page.locator(`[data-loan-id="${talked.id}"]`)).toContainText('2 unread comments');
    await expect(page.locator(`[data-loan-id="${quiet.id}"]`)).not.toContainText('unread');
  });

  test('the list for a wide screen and the keyboard: every column fits, compact rows are remembered, keys move and open, a row opens its loan', async ({
    page,
    loginAs,
    isMobile,
  }) => {
    test.skip(isMobile, 'the wide screen and the keys are the desktop’s');
    const owner = await loginAs({ role: 'owner', name: 'Wanda Wide', teamName: 'Wide Lending' });
    const names = Array.from({ length: 14 }, (_, i) => `Wide Borrower ${String(i + 1).padStart(2, '0')}`);
    const made = [];
    for (const name of names) made.push(await createLoan(page.request, owner, loan({ borrowerName: name, entityName: 'Washington Real Estate Holdings LLC' })));
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto('/app/loans?sort=borrower&dir=asc');
    const table = page.getByRole('table');
    await expect(table.getByRole('rowheader')).toHaveCount(14);

    // Every column fits a 1440 px screen: neither the table's region nor the page scrolls sideways.
    const sideways = () =>
      page.evaluate(() => {
        const region = document.querySelector('table')!.closest('[role="region"]')!;
        return { region: region.scrollWidth - region.clientWidth, page: document.documentElement.scrollWidth - window.innerWidth };
      });
    expect(await sideways()).toEqual({ region: 0, page: 0 });

    // Compact rows: at least twelve loans on the first screen, and the choice survives a reload.
    await page.getByRole('button', { name: 'Compact' }).click();
    await expect(page.getByRole('button', { name: 'Compact' })).toHaveAttribute('aria-pressed', 'true');
    const rowsOnScreen = () =>
      page.evaluate(() => [...document.querySelectorAll('tbody tr')].filter((row) => row.getBoundingClientRect().bottom <= window.innerHeight).length);
    await expect.poll(rowsOnScreen).toBeGreaterThanOrEqual(12);
    await page.reload();
    await expect(page.getByRole('button', { name: 'Compact' })).toHaveAttribute('aria-pressed', 'true');
    expect(await sideways()).toEqual({ region: 0, page: 0 });

    // The skip link is the first stop of the Tab key and lands past the header.
    await page.keyboard.press('Tab');
    await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.locator('main')).toBeFocused();

    // "/" goes to the search box; J and K move between loans; Enter opens one.
    await page.keyboard.press('/');
    await expect(page.getByLabel('Search')).toBeFocused();
    await page.getByLabel('Search').blur();
    await page.keyboard.press('j');
    await expect(table.getByRole('link', { name: names[0] })).toBeFocused();
    await page.keyboard.press('j');
    await page.keyboard.press('ArrowDown');
    await expect(table.getByRole('link', { name: names[2] })).toBeFocused();
    await page.keyboard.press('k');
    await expect(table.getByRole('link', { name: names[1] })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`/app/loans/${made[1]!.id}$`));

    // A click anywhere on a row opens its loan, not only on the name.
    await page.goBack();
    await table.getByRole('row').filter({ hasText: names[3]! }).getByRole('cell').nth(2).click();
    await expect(page).toHaveURL(new RegExp(`/app/loans/${made[3]!.id}$`));
    await page.goBack();
    await expectNoAxeViolations(page);
  });

  test('a team without loans sees where to start', async ({ page, loginAs }) => {
    await loginAs({ role: 'assistant', name: 'Asha Empty' });
    await page.goto('/app/loans');
    await expect(page.getByRole('heading', { name: 'No open loan files yet' })).toBeVisible();
    await expect(page.getByRole('main').getByRole('link', { name: 'New loan' }).last()).toHaveAttribute('href', '/app/loans/new');
    await expectNoAxeViolations(page);
  });
});
