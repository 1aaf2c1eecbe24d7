// The browser tests run in Debian's Chromium, never in a browser Playwright
// downloads: `npm test` checks it is there before anything else runs.
import { accessSync, constants } from 'node:fs';

/** Where playwright.config.ts looks for Chromium (`launchOptions.executablePath`). */
export const chromiumPath = (env = process.env) => env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** What .ci/run does: the browser and a font for pages to render text with (a fresh machine has no package lists yet). */
export const INSTALL_CHROMIUM = 'apt-get update && apt-get install -y --no-install-recommends chromium fonts-dejavu-core';

/** Null when Chromium can be run; otherwise what to tell the person running the tests. */
export function missingChromium(env = process.env) {
  const file = chromiumPath(env);
  try {
    accessSync(file, constants.X_OK);
    return null;
  } catch {
    return [
      `Chromium is not installed at ${file}, and the browser tests need it. Install it (as root) with:`,
      '',
      `  ${INSTALL_CHROMIUM}`,
      '',
      'or point CHROMIUM_PATH at a Chromium that is installed elsewhere.',
    ].join('\n');
  }
}
