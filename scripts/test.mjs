// `npm test`: every test there is. Installs and builds when needed, then runs
// the type check, lint, the formatting check, the unit and API tests (Vitest: PGlite always,
// PostgreSQL too when TEST_DATABASE_URL is set; again on the Node.js binary TEST_ALSO_NODE
// names, when set) and the browser tests (Playwright in Chromium), and ends with one summary line.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { missingChromium } from './lib/chromium.mjs';
import { ensureBuilt, ensureInstalled, root } from './lib/ensure.mjs';

// Before installing or building anything: without Chromium every browser test would fail, one by one.
const chromiumProblem = missingChromium();
if (chromiumProblem) {
  console.error(chromiumProblem);
  console.log('\ntotal: 0 passed, 1 failed, 0 skipped');
  process.exit(1);
}

ensureInstalled();
ensureBuilt();

const bin = (name) => path.join(root, 'node_modules/.bin', name);
const out = mkdtempSync(path.join(tmpdir(), 'coverly-test-'));
const totals = { passed: 0, failed: 0, skipped: 0 };
const failedSteps = [];

function step(name, command, args, env = {}) {
  console.log(`\n=== ${name}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  return result.status === 0;
}

function check(name, command, args) {
  const ok = step(name, command, args);
  totals[ok ? 'passed' : 'failed'] += 1;
  if (!ok) failedSteps.push(name);
}

function readJson(file) {
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null;
}

// The names of the tests that failed, repeated at the end: a CI log is often read from its tail.
const failedTests = [];
function noteVitestFailures(report, where) {
  for (const file of report?.testResults ?? []) {
    const failed = file.assertionResults.filter((test) => test.status === 'failed');
    for (const test of failed) {
      const why = (test.failureMessages?.[0] ?? '').split('\n')[0].slice(0, 240);
      failedTests.push(`${where}: ${path.relative(root, file.name)} › ${test.fullName}${why ? `\n      ${why}` : ''}`);
    }
    if (file.status === 'failed' && failed.length === 0) failedTests.push(`${where}: ${path.relative(root, file.name)} (${file.message || 'the file failed'})`);
  }
}
function notePlaywrightFailures(suites, titles = []) {
  for (const suite of suites ?? []) {
    const inner = suite.title && !suite.file?.endsWith(suite.title) ? [...titles, suite.title] : titles;
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests) {
        if (test.status === 'unexpected') failedTests.push(`Playwright [${test.projectName}]: ${spec.file} › ${[...inner, spec.title].join(' › ')}`);
      }
    }
    notePlaywrightFailures(suite.suites, inner);
  }
}

check('type check', bin('tsc'), ['--noEmit', '-p', '.']);
check('lint', bin('eslint'), ['--max-warnings', '0', '.']);
check('format (Prettier)', bin('prettier'), ['--check', '--log-level', 'warn', '.']);

if (!process.env.TEST_DATABASE_URL) {
  console.log('\nTEST_DATABASE_URL is not set: API tests run on PGlite only.');
}
const vitestJson = path.join(out, 'vitest.json');
const vitestOk = step('unit and API tests (Vitest)', bin('vitest'), ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestJson}`]);
const vitest = readJson(vitestJson);
noteVitestFailures(vitest, 'Vitest');
if (vitest) {
  totals.passed += vitest.numPassedTests;
  totals.failed += vitest.numFailedTests;
  totals.skipped += vitest.numPendingTests + vitest.numTodoTests;
}
if (!vitestOk) failedSteps.push('Vitest');
if (!vitestOk && !vitest?.numFailedTests) totals.failed += 1;

// TEST_ALSO_NODE: another Node.js binary (.ci/run passes Node 24 LTS) that runs the unit and API tests
// again, on the same install; its results count in the total like the first run's.
const otherNode = process.env.TEST_ALSO_NODE;
if (otherNode) {
  const version = spawnSync(otherNode, ['--version'], { encoding: 'utf8' }).stdout?.trim() || 'unknown version';
  const name = `Vitest on Node ${version}`;
  const otherJson = path.join(out, 'vitest-other-node.json');
  const ok = step(`unit and API tests again on Node ${version} (${otherNode})`, otherNode, [
    path.join(root, 'node_modules/vitest/vitest.mjs'),
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${otherJson}`,
  ]);
  const other = readJson(otherJson);
  noteVitestFailures(other, name);
  if (other) {
    totals.passed += other.numPassedTests;
    totals.failed += other.numFailedTests;
    totals.skipped += other.numPendingTests + other.numTodoTests;
  }
  if (!ok) failedSteps.push(name);
  if (!ok && !other?.numFailedTests) totals.failed += 1;
}

const playwrightJson = path.join(out, 'playwright.json');
const playwrightOk = step('browser tests (Playwright, Chromium)', bin('playwright'), ['test', '--reporter=list,json'], {
  PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightJson,
});
const playwright = readJson(playwrightJson);
notePlaywrightFailures(playwright?.suites);
if (playwright) {
  totals.passed += playwright.stats.expected + playwright.stats.flaky;
  totals.failed += playwright.stats.unexpected;
  totals.skipped += playwright.stats.skipped;
}
if (!playwrightOk) failedSteps.push('Playwright');
if (!playwrightOk && !playwright?.stats.unexpected) totals.failed += 1;

if (failedTests.length) console.log(`\nFailed tests:\n${failedTests.map((name) => `  ${name}`).join('\n')}`);
console.log(`\n${failedSteps.length ? `Failed: ${failedSteps.join(', ')}` : 'All checks passed.'}`);
console.log(`total: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failedSteps.length ? 1 : 0);
