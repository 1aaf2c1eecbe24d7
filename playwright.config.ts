import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';

// One data folder per run, shared with the workers through the environment,
// so tests can read the mail drop of the server they talk to.
process.env.E2E_DATA_DIR ??= mkdtempSync(path.join(tmpdir(), 'coverly-e2e-'));
const dataDir = process.env.E2E_DATA_DIR;
// The run's secret for the servers' test-support routes (src/server/test-support), which the login
// fixture (e2e/fixtures.ts) calls; the workers get it through the environment too.
process.env.E2E_TEST_SUPPORT_SECRET ??= randomBytes(32).toString('base64url');
const testSupportSecret = process.env.E2E_TEST_SUPPORT_SECRET;

// The three servers' ports: free ones, chosen when the run starts, so a run goes beside anything else
// listening on this machine (another run, a dev server). The main process chooses them and hands them to
// the workers, which evaluate this file again, through the environment, as the data folder above.
// E2E_PORTS=3100,3101,3102 pins them.
process.env.E2E_PORTS ??= freePorts().join(',');
const [mainPort, limitedPort, accountsPort] = parsePorts(process.env.E2E_PORTS);
export const E2E_PORT = mainPort;
/** A second, white-labelled server with a tight waitlist rate limit. */
export const E2E_LIMITED_PORT = limitedPort;
/** A third server whose first admin was invited from the CLI before it started. */
export const E2E_ACCOUNTS_PORT = accountsPort;
/** That first admin, as the README's quick start invites one. Every other test makes its people with the login fixture. */
export const E2E_ADMIN_EMAIL = 'admin@coverly.test';

/**
 * Three different ports free on 127.0.0.1 now: the system's answer to listening on port 0, asked in a
 * child process because a config is evaluated synchronously. Another program could take one in the
 * seconds before its server starts; that start then fails plainly ("… is already used").
 */
function freePorts(): [number, number, number] {
  const script = `
    const net = require('node:net');
    const servers = Array.from({ length: 3 }, () => net.createServer());
    Promise.all(servers.map((s) => new Promise((resolve, reject) => s.once('error', reject).listen(0, '127.0.0.1', resolve)))).then(
      () => { console.log(servers.map((s) => s.address().port).join(',')); for (const s of servers) s.close(); },
      (error) => { console.error(error.message); process.exit(1); },
    );`;
  const result = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 30_000 });
  if (result.status !== 0) throw new Error(`playwright.config.ts: no free ports for the e2e servers: ${result.stderr || result.error?.message}`);
  return parsePorts(result.stdout);
}

function parsePorts(list: string): [number, number, number] {
  const ports = list.trim().split(',').map(Number);
  if (ports.length !== 3 || ports.some((port) => !Number.isInteger(port) || port <= 0 || port > 65_535) || new Set(ports).size !== 3) {
    throw new Error(`playwright.config.ts: E2E_PORTS must be three different ports, as 3100,3101,3102 (it is "${list.trim()}")`);
  }
  return ports as [number, number, number];
}

const server = (port: number, name: string, env: Record<string, string>, command = 'node dist/server/main.js') => ({
  command,
  url: `http://127.0.0.1:${port}/readyz`,
  reuseExistingServer: false,
  timeout: 60_000,
  stdout: 'ignore' as const,
  stderr: 'pipe' as const,
  env: {
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: path.join(dataDir, name),
    LOG_LEVEL: 'warn',
    NOTIFY_EMAIL: 'team@coverly.test',
    // Unset counts as production, where a server with the test-support secret refuses to start. Nothing else
    // of ours reads NODE_ENV; better-auth's few development differences (a session's address 127.0.0.1 when no
    // header names one, a wordier /api/auth/error page) touch no test.
    NODE_ENV: 'development',
    E2E_TEST_SUPPORT_SECRET: testSupportSecret,
    ...env,
  },
});

export default defineConfig({
  testDir: './e2e',
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  retries: process.env.CI ? 1 : 0,
  workers: 2,
  // Sized for a busy machine (two cores at a load of 20), where the same tests take several times as long.
  // Every wait is for a state, so a longer limit costs a passing test nothing. An expect waits up to 30 s:
  // there the first render of an app page (its lazily loaded route, then its requests) took up to 18 s. A
  // test has 60 s, or the limit it declares for the long work it does (several people, PDFs drawn); the
  // time of its axe scans does not count (expectNoAxeViolations in e2e/fixtures.ts).
  timeout: 60_000,
  expect: { timeout: 30_000 },
  use: {
    baseURL: `http://127.0.0.1:${E2E_PORT}`,
    trace: 'retain-on-failure',
    launchOptions: {
      // Debian's Chromium; Playwright never downloads a browser here.
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [
    { name: 'desktop', use: { browserName: 'chromium', viewport: { width: 1280, height: 800 } } },
    { name: 'phone', use: { browserName: 'chromium', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 } },
  ],
  webServer: [
    server(E2E_PORT, 'main', {
      WAITLIST_RATE_LIMIT: '10000',
      CONTACT_EMAIL: 'deals@coverly.test',
      CONTACT_PHONE: '(555) 010-0142',
      CONTACT_CITY: 'Austin, TX',
    }),
    server(E2E_LIMITED_PORT, 'limited', {
      WAITLIST_RATE_LIMIT: '2',
      WAITLIST_RATE_WINDOW_SECONDS: '3600',
      BRAND_NAME: 'Keystone Loans',
      CONTACT_EMAIL: 'hello@keystone.test',
    }),
    // As the README says: invite the first admin from the command line, then start.
    server(E2E_ACCOUNTS_PORT, 'accounts', {}, `node dist/server/cli.js invite-admin ${E2E_ADMIN_EMAIL} && node dist/server/main.js`),
  ],
});
