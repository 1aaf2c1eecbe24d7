import type { Page } from '@playwright/test';

/**
 * Holds the app's modules until the returned function is called, as a slow
 * link would: the prerendered page shows and works as HTML meanwhile. The
 * page's small loader (assets/paint-first-*.js, written by
 * scripts/prerender.mjs) comes through; the specs that run without any script
 * turn JavaScript off instead. Go to the page with `{ waitUntil: 'commit' }`:
 * its load event waits for the modules.
 */
export async function holdScripts(page: Page): Promise<() => void> {
  let release = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/(?!paint-first-)[^/]*\.js$/, async (route) => {
    await gate;
    await route.continue();
  });
  return release;
}

/** Resolves once the app has hydrated the page (root-layout.tsx marks <html>). */
export const hydrated = (page: Page) => page.locator('html[data-hydrated="true"]').waitFor();

/**
 * Resolves once the page has painted: what a person sees first, and so the
 * earliest they can type or tap (Playwright could type into a page not yet
 * painted, before its stylesheet is even in).
 */
export const painted = (page: Page) => page.waitForFunction(() => performance.getEntriesByName('first-contentful-paint').length > 0);
