import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Page } from '@playwright/test';

interface ConsoleGuard {
  /** Allows console errors matching `pattern` in this test, and returns what matched. */
  allow(pattern: RegExp): string[];
}

/** Every page fails its test on an unexpected console error or uncaught exception (CSP violations included). */
export const test = base.extend<{ consoleGuard: ConsoleGuard }>({
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
});
export { expect };

/** Runs axe (WCAG 2.2 A/AA and best practices) and expects no violations. */
export async function expectNoAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']).analyze();
  const summary = results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
  expect(summary).toEqual([]);
}

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
export async function mailedLink(server: 'main' | 'limited' | 'accounts', to: string, kind: 'invite' | 'reset-password'): Promise<string> {
  let link = '';
  await expect
    .poll(async () => {
      const mails = (await readMailDrop(server)).filter((m) => m.includes(`To: ${to}`)).map((m) => m.replace(/=\r?\n/g, ''));
      link = mails.flatMap((m) => m.match(new RegExp(`http://127\\.0\\.0\\.1:\\d+/${kind}#[A-Za-z0-9_-]+`, 'g')) ?? []).at(-1) ?? '';
      return link;
    })
    .not.toBe('');
  return link;
}

/** Signs out through the person's menu in the app header (the button is named after the person). */
export async function signOutOf(page: Page, personName: string) {
  await page.getByRole('button', { name: personName, exact: true }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
}
