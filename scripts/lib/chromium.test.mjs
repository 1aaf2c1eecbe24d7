import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { INSTALL_CHROMIUM, missingChromium } from './chromium.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

describe('the Chromium check of npm test', () => {
  it('passes for an executable and names the install command otherwise', () => {
    expect(missingChromium({ CHROMIUM_PATH: process.execPath })).toBeNull();
    expect(missingChromium({ CHROMIUM_PATH: path.join(root, 'package.json') })).toContain(INSTALL_CHROMIUM);
    expect(missingChromium({ CHROMIUM_PATH: '/nonexistent/chromium' })).toContain('Chromium is not installed at /nonexistent/chromium');
  });

  it('stops npm test at once, with exit code 1, the command and the summary line', () => {
    const run = spawnSync(process.execPath, [path.join(root, 'scripts/test.mjs')], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, CHROMIUM_PATH: '/nonexistent/chromium' },
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`  ${INSTALL_CHROMIUM}\n`);
    expect(run.stdout.trim().split('\n').at(-1)).toBe('total: 0 passed, 1 failed, 0 skipped');
    // Nothing was installed, built or run first.
    expect(run.stdout).not.toContain('===');
  });
});
