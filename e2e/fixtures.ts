import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Browser, type BrowserContext, type Cookie, type Page } from '@playwright/test';
import { E2E_ACCOUNTS_PORT, E2E_LIMITED_PORT, E2E_PORT } from '../playwright.config';
import { TEST_SUPPORT_SECRET_ENV, TEST_SUPPORT_SECRET_HEADER, type CreateTestPerson, type TestPerson } from '../src/server/test-support/test-support.schema';
import { totpCode } from '../src/test/totp';

export type { TestPerson };

/** The e2e servers, by the name of their data folder (playwright.config.ts). */
export type ServerName = 'main' | 'limited' | 'accounts';
export const serverUrl = (server: ServerName) => `http://127.0.0.1:${{ main: E2E_PORT, limited: E2E_LIMITED_PORT, accounts: E2E_ACCOUNTS_PORT }[server]}`;

/** Who to make: a role (`admin`, `owner`, `assistant`), with an authenticator unless `mfa: false`, on `server` (default `main`). */
export type PersonOptions = CreateTestPerson & { server?: ServerName };

interface ConsoleGuard {
  /** Allows console errors matching `pattern` in this test, and returns what matched. */
  allow(pattern: RegExp): string[];
}

interface Fixtures {
  consoleGuard: ConsoleGuard;
  /**
   * Makes a person with the grants of a role on the server (its test-support
   * routes, src/server/test-support), signed in there but not in this test's
   * browser: for a test that starts signed out (a password reset).
   */
  createPerson: (options: PersonOptions) => Promise<TestPerson>;
  /**
   * Makes a person as `createPerson` does and puts their session in this
   * page's browser context: the test starts signed in, without the sign-in
   * form (accounts.spec.ts covers that). An enrolled person's session has
   * passed the second step.
   */
  loginAs: (options: PersonOptions) => Promise<TestPerson>;
}

/** Every page fails its test on an unexpected console error or uncaught exception (CSP violations included). */
export const test = base.extend<Fixtures>({
  consoleGuard: [
    async ({ page }, use) => {
      const allowed: { pattern: RegExp; seen: string[] }[] = [];
      const unexpected: string[] = [];
      const record = (text: string) => {
        const match = allowed.find((a) => a.pattern.test(text));
        if (match) match.seen.push(text);
        else unexpected.push(text);
      };
      page.on('console', (message) => {
        if (message.type() === 'error') record(message.text());
      });
      page.on('pageerror', (error) => record(`uncaught: ${error.message}`));
      // A CSP violation that script swallowed still counts.
      await page.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (event) => {
          console.error(`CSP violation: ${event.violatedDirective} blocked ${event.blockedURI || 'inline code'}`);
        });
      });
      await use({
        allow(pattern) {
          const entry = { pattern, seen: [] as string[] };
          allowed.push(entry);
          return entry.seen;
        },
      });
      expect(unexpected, 'unexpected console errors').toEqual([]);
    },
    { auto: true },
  ],
  createPerson: async ({ request }, use) => {
    await use(async ({ server = 'main', ...person }) => {
      // playwright.config.ts gives each server and every worker the run's secret.
      const secret = process.env[TEST_SUPPORT_SECRET_ENV] ?? '';
      const response = await request.post(`${serverUrl(server)}/api/test-support/people`, { headers: { [TEST_SUPPORT_SECRET_HEADER]: secret }, data: person });
      expect(response.status(), await response.text()).toBe(201);
      const created = (await response.json()) as TestPerson;
      // The server spent one code of the new authenticator on the sign-in: the test's codes come after it.
      if (created.totp) usedSteps.set(created.totp.secret, created.totp.usedStep);
      return created;
    });
  },
  loginAs: async ({ page, createPerson }, use) => {
    await use(async (options) => {
      const person = await createPerson(options);
      await addSession(page.context(), person);
      return person;
    });
  },
});
export { expect };

/** Puts `person`'s session into another browser context than the test's page: a second person working beside the first. */
export async function addSession(context: BrowserContext, person: TestPerson) {
  await context.addCookies(person.cookies.flatMap((setCookie) => browserCookie(setCookie) ?? []));
}

/** A Set-Cookie value of an e2e server (all on 127.0.0.1) as Playwright adds it to a browser context; null for one that deletes a cookie. */
function browserCookie(setCookie: string): Cookie | null {
  const [pair = '', ...attributes] = setCookie.split(';').map((part) => part.trim());
  const eq = pair.indexOf('=');
  const cookie: Cookie = {
    name: pair.slice(0, eq),
    value: pair.slice(eq + 1),
    domain: '127.0.0.1',
    path: '/',
    expires: -1,
    httpOnly: false,
    secure: false,
    sameSite: 'Lax',
  };
  for (const attribute of attributes) {
    const [key = '', value = ''] = attribute.split('=');
    switch (key.toLowerCase()) {
      case 'path':
        cookie.path = value;
        break;
      case 'max-age':
        cookie.expires = Math.floor(Date.now() / 1000) + Number(value);
        break;
      case 'httponly':
        cookie.httpOnly = true;
        break;
      case 'secure':
        cookie.secure = true;
        break;
      case 'samesite':
        cookie.sameSite = ({ strict: 'Strict', lax: 'Lax', none: 'None' } as const)[value.toLowerCase() as 'strict' | 'lax' | 'none'] ?? 'Lax';
        break;
    }
  }
  return cookie.value === '' || (cookie.expires !== -1 && cookie.expires <= Date.now() / 1000) ? null : cookie;
}

/** How long one axe scan may take: a scan of a loan page took up to a minute on a busy two-core machine. */
const AXE_SCAN_LIMIT = 120_000;

/**
 * Runs axe (WCAG 2.2 A/AA and best practices) and expects no violations.
 *
 * The scan's time does not count against the test's limit, which is for what the test does: the limit
 * grows by what the scan took (a scan that hangs fails after AXE_SCAN_LIMIT). On a busy machine the
 * scans are most of a long test's time, and how long they take depends on the page's size far more than
 * on the test.
 *
 * In axe's legacy mode: it runs in the page alone, where the default mode also opens a blank page and
 * loads axe into it a second time to put the results of the page's frames together. That halves a scan's
 * cost (on a busy two-core machine one scan of the landing page took 34–58 s, 16–26 s in legacy mode,
 * with the same results). What legacy mode leaves out is frames from another origin, which the app has
 * none of and its CSP (default-src 'self') would block.
 */
export async function expectNoAxeViolations(page: Page) {
  const info = test.info();
  const limit = info.timeout;
  const started = Date.now();
  if (limit > 0) info.setTimeout(limit + AXE_SCAN_LIMIT);
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']).setLegacyMode().analyze();
  if (limit > 0) info.setTimeout(limit + (Date.now() - started));
  const summary = results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
  expect(summary).toEqual([]);
}

/** Axe at phone width (390×844), then at desktop width (1280×900), leaving the page at `back`. */
export async function axeAtBothWidths(page: Page, back: { width: number; height: number }) {
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoAxeViolations(page);
  await page.setViewportSize({ width: 1280, height: 900 });
  await expectNoAxeViolations(page);
  await page.setViewportSize(back);
}

/**
 * Every console error, uncaught exception and CSP violation of a page the
 * fixtures do not watch (a second person's browser context): pdf.js and the
 * live stream must run under the app's CSP as it is.
 */
export async function watchPage(page: Page): Promise<string[]> {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(`CSP violation: ${event.violatedDirective} blocked ${event.blockedURI || 'inline code'}`);
    });
  });
  return errors;
}

/**
 * A borrower asks about a checklist item from her "Your documents" list: the
 * item's comments open, the comment is posted there and shows in the item's
 * thread. Returns the list and the item's comments region.
 */
export async function askOnItem(borrower: Page, item: string, text: string) {
  const documents = borrower.getByRole('region', { name: 'Your documents' });
  await documents
    .getByRole('button', { name: `Comments (0) on ${item}` })
    .first()
    .click();
  const onItem = documents.getByRole('region', { name: `Comments on ${item}` });
  await onItem.getByRole('textbox', { name: `Comment on ${item}` }).fill(text);
  await onItem.getByRole('button', { name: 'Post comment' }).click();
  await expect(onItem.getByRole('list', { name: `Comments on ${item}` })).toContainText(text);
  return { documents, onItem };
}

/**
 * A borrower invited to the loan by `inviter` (a signed-in team member's
 * page) who accepts the mailed invitation on a phone (390×844, touch) and
 * lands on the loan. Their page is watched (`watchPage`).
 */
export async function borrowerJoinsOnPhone(
  inviter: Page,
  browser: Browser,
  loanId: string,
  { name, emailLabel, password = 'lantern orchard quietly 42' }: { name: string; emailLabel: string; password?: string },
) {
  const email = uniqueEmail(emailLabel);
  const invited = await inviter.request.post(`/api/loans/${loanId}/invitations`, { data: { email, role: 'borrower' } });
  expect(invited.status(), await invited.text()).toBe(201);
  const context = await browser.newContext({ baseURL: test.info().project.use.baseURL, viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  const errors = await watchPage(page);
  await page.goto(await mailedLink('main', email, 'invite'));
  await page.getByLabel('Your name').fill(name);
  await page.getByLabel('Choose a password').fill(password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(new RegExp(`/app/loans/${loanId}$`));
  return { email, context, page, errors };
}

/**
 * How long a test waits for a mail to land in a mail drop: the server sends it from a job once the
 * request's transaction has committed, which on a busy machine can take longer than the expect timeout
 * (meant for what a page shows).
 */
export const MAIL_TIMEOUT = 60_000;

/** The .eml files the server with `name` wrote to its mail drop, as text. */
export async function readMailDrop(name: 'main' | 'limited' | 'accounts'): Promise<string[]> {
  const dir = path.join(process.env.E2E_DATA_DIR ?? '', name, 'mail');
  const files = await readdir(dir).catch(() => [] as string[]);
  return Promise.all(files.filter((f) => f.endsWith('.eml')).map((f) => readFile(path.join(dir, f), 'utf8')));
}

/** A unique address per test run, so parallel tests never share waitlist entries. */
export const uniqueEmail = (label: string) => `${label}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`;

/**
 * The newest link of `kind` mailed to `to` by the server with `server`'s mail
 * drop, waiting until it arrives (quoted-printable soft breaks undone).
 */
export async function mailedLink(server: 'main' | 'limited' | 'accounts', to: string, kind: 'invite' | 'reset-password' | 'upload'): Promise<string> {
  let link = '';
  await expect
    .poll(
      async () => {
        const mails = (await readMailDrop(server)).filter((m) => m.includes(`To: ${to}`)).map((m) => m.replace(/=\r?\n/g, ''));
        link = mails.flatMap((m) => m.match(new RegExp(`http://127\\.0\\.0\\.1:\\d+/${kind}#[A-Za-z0-9_-]+`, 'g')) ?? []).at(-1) ?? '';
        return link;
      },
      { timeout: MAIL_TIMEOUT },
    )
    .not.toBe('');
  return link;
}

/** Signs out through the person's menu in the app header (the button is named after the person). */
export async function signOutOf(page: Page, personName: string) {
  await page.getByRole('button', { name: personName, exact: true }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
}

const STEP_MS = 30_000;
/**
 * How long a code must stay good after it is made: typing it in and sending it can take seconds on a busy
 * machine, and a code the server gets after its window has passed is refused.
 */
const CODE_LIFE_MS = 15_000;
/** The newest 30-second step each authenticator secret gave a code for, in this worker. */
const usedSteps = new Map<string, number>();

/**
 * A code the authenticator app would show that has not been used yet. The
 * server accepts the previous, current and next step's code, and each code
 * only once: steps go strictly forward, and a fourth code within one window
 * waits for the clock.
 */
export async function unusedTotpCode(secret: string): Promise<string> {
  for (;;) {
    const now = Date.now();
    const current = Math.floor(now / STEP_MS);
    // The previous step's code only early in a window, so it is still good when the request arrives.
    const step = Math.max(now % STEP_MS < STEP_MS - CODE_LIFE_MS ? current - 1 : current, (usedSteps.get(secret) ?? -Infinity) + 1);
    if (step <= current + 1) {
      usedSteps.set(secret, step);
      return totpCode(secret, step * STEP_MS);
    }
    await new Promise((resolve) => setTimeout(resolve, (current + 1) * STEP_MS - now + 50));
  }
}

/** Six digits that are no code of `secret` for the previous, current or next step. */
function wrongTotpCode(secret: string): string {
  const valid = new Set([-1, 0, 1].map((offset) => totpCode(secret, Date.now() + offset * STEP_MS)));
  for (let n = 0; ; n++) {
    const candidate = String(n).padStart(6, '0');
    if (!valid.has(candidate)) return candidate;
  }
}

/**
 * Enrols an authenticator on the set-up page, where the app shell sends an
 * admin, a broker or an assistant first: a wrong code is refused, the right
 * one (computed here from the key the page shows, RFC 6238) accepted, and the
 * backup codes kept. Returns the secret and one backup code.
 */
export async function enrolAuthenticator(page: Page, password: string): Promise<{ secret: string; backupCode: string }> {
  await expect(page).toHaveURL(/\/app\/security\/setup$/);
  await expect(page.getByRole('heading', { name: 'Set up two-step verification', level: 1 })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  await expectNoAxeViolations(page);
  const secret = (await page.getByTestId('totp-secret').innerText()).replace(/\s/g, '');
  await page.getByLabel('Authenticator code').fill(wrongTotpCode(secret));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByText('That code is not right.')).toBeVisible();
  await page.getByLabel('Authenticator code').fill(await unusedTotpCode(secret));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('heading', { name: 'Save your backup codes' })).toBeVisible();
  const codes = await page.getByRole('list', { name: 'Backup codes' }).getByRole('listitem').allInnerTexts();
  expect(codes).toHaveLength(10);
  await expectNoAxeViolations(page);
  await expect(page.getByRole('button', { name: 'Continue' })).toBeDisabled();
  await page.getByLabel('I have saved my backup codes').check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { name: 'Save your backup codes' })).toHaveCount(0);
  return { secret, backupCode: codes[0] ?? '' };
}

export type SecondStep = { secret: string } | { backupCode: string };

/** Answers the sign-in's second step, once the password was right, with an unused authenticator code or a backup code; lands in the app. */
export async function passSecondStep(page: Page, base: string, code: SecondStep) {
  await expect(page.getByRole('heading', { name: 'Two-step verification' })).toBeVisible();
  await expectNoAxeViolations(page);
  if ('backupCode' in code) {
    await page.getByRole('button', { name: 'Use a backup code instead' }).click();
    await page.getByLabel('Backup code').fill(code.backupCode);
  } else {
    await page.getByLabel('Authenticator code').fill(await unusedTotpCode(code.secret));
  }
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(`${base}/app`);
}

/** Signs an enrolled account in at `base`: the password, then the second step. */
export async function signInWithCode(page: Page, base: string, account: { email: string; password: string }, code: SecondStep) {
  await page.goto(`${base}/signin`);
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await passSecondStep(page, base, code);
}
