import type { Page } from '@playwright/test';
import { COUNTER_ANIMATION_MS } from '../src/shared/constants';
import { expect, expectNoAxeViolations, test } from './fixtures';
import { holdScripts, hydrated, painted } from './hold-scripts';

/** Whether Chromium exposes the button named `name` as expanded (a popover's invoker carries no aria-expanded attribute). */
async function expandedState(page: Page, name: string): Promise<boolean | undefined> {
  const cdp = await page.context().newCDPSession(page);
  const { nodes } = await cdp.send('Accessibility.getFullAXTree');
  await cdp.detach();
  const button = nodes.find((node) => !node.ignored && node.role?.value === 'button' && node.name?.value === name);
  const expanded = button?.properties?.find((property) => property.name === 'expanded');
  return expanded ? Boolean(expanded.value.value) : undefined;
}

/** The number each hero counter shows now: the animated CSS counter (its --count-shown), or the text where there is none. */
const shownCounters = (page: Page) =>
  page.getByTestId('counter').evaluateAll((cells) =>
    cells.map((cell) => {
      const figure = cell.querySelector('[data-testid="counter-figure"]');
      return figure ? Number(getComputedStyle(figure).getPropertyValue('--count-shown')) : Number.parseInt(cell.textContent ?? '', 10);
    }),
  );

test.describe('/ landing page', () => {
  test('has the header anchors and links, and the hero calls to action', async ({ page, isMobile }) => {
    await page.goto('/');
    await expect(page).toHaveTitle('Coverly — DSCR loan tracking for mortgage brokers');
    const header = page.getByRole('banner');
    if (isMobile) {
      const toggle = header.getByRole('button', { name: 'Menu' });
      expect(await expandedState(page, 'Menu')).toBe(false);
      await expect(page.getByTestId('mobile-menu')).toBeHidden();
      await toggle.click();
      await expect(page.getByTestId('mobile-menu')).toBeVisible();
      expect(await expandedState(page, 'Menu')).toBe(true);
      await toggle.click();
      await expect(page.getByTestId('mobile-menu')).toBeHidden();
      expect(await expandedState(page, 'Menu')).toBe(false);
      await toggle.click();
    }
    const nav = isMobile ? page.getByTestId('mobile-menu') : header;
    for (const id of ['features', 'how-it-works', 'pricing']) {
      // The header holds the closed phone menu too (hidden): the visible anchor is the one for this screen.
      await expect(nav.locator(`a[href="#${id}"]`).filter({ visible: true })).toBeVisible();
      await expect(page.locator(`section#${id}`)).toHaveCount(1);
    }
    await expect(nav.getByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/signin');
    await expect(nav.getByRole('link', { name: 'Join Waitlist' })).toHaveAttribute('href', '/join-waitlist');

    // An anchor in the (mobile) menu scrolls to its section and closes the menu.
    await nav.locator('a[href="#pricing"]').filter({ visible: true }).click();
    await expect(page.locator('section#pricing')).toBeInViewport();
    if (isMobile) await expect(page.getByTestId('mobile-menu')).toBeHidden();

    await page.goto('/');
    const hero = page.getByRole('main').locator('section').first();
    await expect(hero.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(hero.getByRole('link', { name: 'Get Early Access' })).toHaveAttribute('href', '/join-waitlist');
    await hero.getByRole('link', { name: 'See How It Works' }).click();
    await expect(page.locator('section#how-it-works')).toBeInViewport();
    await expect(page).toHaveURL(/#how-it-works$/);
  });

  test('counts up to 2x, 50% and 100%, and says so to assistive technology', async ({ page }) => {
    await page.goto('/');
    await expect.poll(() => shownCounters(page)).toEqual([2, 50, 100]);
    // The animated figures are hidden from assistive technology; each counter's real text is its final value.
    await expect(page.getByTestId('counter')).toHaveText(['2x', '50%', '100%']);
    await expect(page.getByTestId('counter-figure').first()).toHaveAttribute('aria-hidden', 'true');
    const counters = page.locator('dl').filter({ has: page.getByTestId('counter') });
    await expect(counters).toMatchAriaSnapshot(`
      - term: Faster closings
      - definition: 2x
      - term: Less back-and-forth
      - definition: 50%
      - term: Document visibility
      - definition: 100%
    `);
  });

  test('animates the counters over 1,200 ms in CSS, from the first paint', async ({ page }) => {
    await page.goto('/');
    // Each figure runs one CSS animation; pausing them lets the test read any moment of it.
    const seek = (ms: number) =>
      page.getByTestId('counter-figure').evaluateAll((figures, at) => {
        for (const animation of figures.flatMap((figure) => figure.getAnimations())) {
          animation.pause();
          animation.currentTime = at;
        }
      }, ms);
    const durations = await page
      .getByTestId('counter-figure')
      .evaluateAll((figures) => figures.flatMap((figure) => figure.getAnimations().map((a) => a.effect?.getComputedTiming().duration)));
    expect(durations).toEqual([COUNTER_ANIMATION_MS, COUNTER_ANIMATION_MS, COUNTER_ANIMATION_MS]);
    await seek(0);
    expect(await shownCounters(page)).toEqual([0, 0, 0]);
    await seek(400);
    const midway = await shownCounters(page);
    expect(midway).not.toEqual([0, 0, 0]);
    expect(midway).not.toEqual([2, 50, 100]);
    await seek(1000);
    expect(await shownCounters(page)).not.toEqual([2, 50, 100]);
    await seek(COUNTER_ANIMATION_MS);
    expect(await shownCounters(page)).toEqual([2, 50, 100]);
  });

  test('never shows a counter going back, even when the app hydrates in the middle of the count', async ({ page }) => {
    // Every frame's numbers, from the first one the page has.
    await page.addInitScript(() => {
      const samples: number[][] = [];
      Object.assign(window, { counterSamples: samples });
      const sample = () => {
        const cells = [...document.querySelectorAll('[data-testid="counter"]')];
        if (cells.length > 0) {
          samples.push(
            cells.map((cell) => {
              const figure = cell.querySelector('[data-testid="counter-figure"]');
              return figure ? Number(getComputedStyle(figure).getPropertyValue('--count-shown')) : Number.parseInt(cell.textContent ?? '', 10);
            }),
          );
        }
        requestAnimationFrame(sample);
      };
      requestAnimationFrame(sample);
    });
    const release = await holdScripts(page);
    await page.goto('/', { waitUntil: 'commit' });
    await painted(page);
    await expect(page.getByTestId('counter')).toHaveCount(3);
    const sampled = () => page.evaluate(() => (window as unknown as { counterSamples: number[][] }).counterSamples);
    // The count is under way when the app arrives (on a busy machine it may be over by then: nothing goes back either way).
    await expect.poll(async () => (await sampled()).at(-1) ?? [0, 0, 0]).not.toEqual([0, 0, 0]);
    release();
    await hydrated(page);
    // Frames drawn after the app took over, until the count has ended.
    const atHydration = (await sampled()).length;
    await expect.poll(async () => (await sampled()).length).toBeGreaterThan(atHydration + 2);
    await expect.poll(async () => (await sampled()).at(-1)).toEqual([2, 50, 100]);
    const samples = await sampled();
    expect(samples.length).toBeGreaterThan(10);
    expect(samples[0]).not.toEqual([2, 50, 100]);
    expect(samples.at(-1)).toEqual([2, 50, 100]);
    for (let i = 1; i < samples.length; i++) {
      for (let c = 0; c < 3; c++) expect(samples[i]![c], `counter ${c + 1}, frame ${i}`).toBeGreaterThanOrEqual(samples[i - 1]![c]!);
    }
  });

  test('shows the final counter values at once to people who prefer reduced motion', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto('/', { waitUntil: 'commit' });
    await painted(page);
    await expect(page.getByTestId('counter')).toHaveCount(3);
    expect(await shownCounters(page)).toEqual([2, 50, 100]);
    const running = await page.getByTestId('counter-figure').evaluateAll((figures) => figures.flatMap((figure) => figure.getAnimations()).length);
    expect(running).toBe(0);
  });

  test('shows the dashboard mockup: 70% progress, five timeline steps, Broker and Borrower comments', async ({ page }) => {
    await page.goto('/');
    const progress = page.getByTestId('mockup-progress');
    await expect(progress).toHaveAttribute('aria-valuenow', '70');
    await expect(page.getByText('70%', { exact: true }).first()).toBeVisible();
    const steps = page.getByTestId('timeline-step');
    await expect(steps).toHaveCount(5);
    await expect(steps).toContainText(['Borrower Invited', 'Documents Uploaded', 'Bank Statements', 'Appraisal Ordered', 'Underwriting']);
    const statuses = await steps.evaluateAll((els) => els.map((el) => el.getAttribute('data-status')));
    expect(statuses).toEqual(['complete', 'complete', 'current', 'pending', 'pending']);
    await expect(page.getByText('Broker', { exact: true }).first()).toBeVisible();
    await expect(page.getByText('Borrower', { exact: true }).first()).toBeVisible();
  });

  test('has every section of the specification', async ({ page, isMobile }) => {
    await page.goto('/');
    const main = page.getByRole('main');
    const section = (name: RegExp) => main.locator('section').filter({ has: page.getByRole('heading', { level: 2, name }) });

    // Pipeline showcase: a table on wide screens, cards on narrow ones, same sample loans.
    const pipeline = section(/at a glance/i);
    const visibleLoans = isMobile ? pipeline.getByRole('list').locator('> li') : pipeline.getByRole('table').locator('tbody tr');
    expect(await visibleLoans.count()).toBeGreaterThanOrEqual(4);
    await expect(pipeline).toContainText('Sample data for illustration.');

    await expect(section(/how it works/i).locator('ol > li')).toHaveCount(4);
    await expect(section(/why brokers love it/i).locator('li')).toHaveCount(4);
    await expect(
      page
        .locator('section#features')
        .locator('li, article')
        .filter({ has: page.getByRole('heading', { level: 3 }) }),
    ).toHaveCount(4);
    const stars = main.getByRole('img', { name: '5 out of 5 stars' });
    await expect(stars).toHaveCount(2);
    await expect(main).toContainText('40% faster');

    const pricing = page.locator('section#pricing');
    await expect(pricing).toContainText('Plans start at $499/mo');
    await expect(pricing.getByRole('link', { name: 'Join Waitlist' })).toHaveAttribute('href', '/join-waitlist');
    for (const claim of ['14-day free trial', 'No setup fees', '24/7 support', 'Cancel anytime', 'Free for borrowers']) {
      await expect(main).toContainText(new RegExp(claim, 'i'));
    }
    await expect(main).toContainText('500+');
    await expect(main).toContainText('$2.5B+');

    const demo = main.getByRole('link', { name: 'Book Personal Demo' });
    const href = (await demo.getAttribute('href')) ?? '';
    expect(href.startsWith('mailto:deals@coverly.test?')).toBe(true);
    const query = new URLSearchParams(href.slice(href.indexOf('?') + 1));
    expect(query.get('subject')).toMatch(/demo/i);
    for (const blank of ['Name:', 'Company:', 'Phone:', 'Best time']) expect(query.get('body')).toContain(blank);
    await expect(main.getByRole('link', { name: 'Get Early Access' }).last()).toHaveAttribute('href', '/join-waitlist');
  });

  test('shows the fixed bottom bar on phones only', async ({ page, isMobile }) => {
    await page.goto('/');
    const bar = page.getByTestId('mobile-cta-bar');
    if (isMobile) {
      // Nothing makes the page scroll sideways on a phone.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await expect(bar).toBeVisible();
      await expect(bar.getByRole('link', { name: 'Get Early Access' })).toHaveAttribute('href', '/join-waitlist');
      const position = await bar.evaluate((el) => getComputedStyle(el).position);
      expect(position).toBe('fixed');
      // It never covers the end of the footer.
      await page.getByRole('contentinfo').getByRole('link', { name: 'Accessibility' }).scrollIntoViewIfNeeded();
      const footerLink = await page.getByRole('contentinfo').getByRole('link', { name: 'Accessibility' }).boundingBox();
      const barBox = await bar.boundingBox();
      expect(footerLink && barBox && footerLink.y + footerLink.height <= barBox.y).toBe(true);
    } else {
      await expect(bar).toBeHidden();
    }
  });

  test('has the footer with configured contact details and the link columns', async ({ page }) => {
    await page.goto('/');
    const footer = page.getByRole('contentinfo');
    await expect(footer.getByRole('link', { name: 'deals@coverly.test' })).toHaveAttribute('href', 'mailto:deals@coverly.test');
    await expect(footer.getByRole('link', { name: '(555) 010-0142' })).toHaveAttribute('href', 'tel:5550100142');
    await expect(footer).toContainText('Austin, TX');
    for (const column of ['Product', 'Resources', 'Company']) await expect(footer.getByRole('heading', { name: column })).toBeVisible();
    for (const legal of ['Cookie Policy', 'CCPA', 'Accessibility']) await expect(footer.getByRole('link', { name: legal })).toBeVisible();
  });

  test('passes an axe scan', async ({ page }) => {
    await page.goto('/');
    await expectNoAxeViolations(page);
  });

  test('is navigable by keyboard', async ({ page }) => {
    await page.goto('/');
    // Tab reaches the hero's call to action and Enter follows it.
    const cta = page.getByRole('main').getByRole('link', { name: 'Get Early Access' }).first();
    for (let i = 0; i < 15 && !(await cta.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
    await expect(cta).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/join-waitlist$/);
  });
});

test.describe('/ before its scripts have run', () => {
  test('the phone menu opens at the first tap, and stays open when the app arrives', async ({ page, isMobile }) => {
    test.skip(!isMobile, 'the menu toggle is on small screens only');
    const release = await holdScripts(page);
    await page.goto('/', { waitUntil: 'commit' });
    await painted(page);
    const toggle = page.getByRole('banner').getByRole('button', { name: 'Menu' });
    await toggle.tap();
    const menu = page.getByTestId('mobile-menu');
    await expect(menu).toBeVisible();
    expect(await expandedState(page, 'Menu')).toBe(true);
    await expect(menu.locator('a[href="#pricing"]')).toBeVisible();

    release();
    await hydrated(page);
    await expect(menu).toBeVisible();
    // With the app there, an anchor in the menu closes it as it scrolls.
    await menu.locator('a[href="#pricing"]').tap();
    await expect(page.locator('section#pricing')).toBeInViewport();
    await expect(menu).toBeHidden();
  });

  test('the phone menu works by keyboard: Escape closes it and gives focus back to its toggle', async ({ page, isMobile }) => {
    test.skip(!isMobile, 'the menu toggle is on small screens only');
    await page.goto('/');
    const toggle = page.getByRole('banner').getByRole('button', { name: 'Menu' });
    await toggle.focus();
    await page.keyboard.press('Enter');
    const menu = page.getByTestId('mobile-menu');
    await expect(menu).toBeVisible();
    await page.keyboard.press('Tab');
    await expect(menu.locator('a[href="#features"]')).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    await expect(toggle).toBeFocused();
  });
});

test.describe('/ without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the phone menu opens and closes, and its anchors navigate', async ({ page, isMobile }) => {
    test.skip(!isMobile, 'the menu toggle is on small screens only');
    await page.goto('/');
    const toggle = page.getByRole('banner').getByRole('button', { name: 'Menu' });
    const menu = page.getByTestId('mobile-menu');
    await expect(menu).toBeHidden();
    await toggle.tap();
    await expect(menu).toBeVisible();
    expect(await expandedState(page, 'Menu')).toBe(true);
    await toggle.tap();
    await expect(menu).toBeHidden();
    await toggle.tap();
    await menu.locator('a[href="#how-it-works"]').tap();
    await expect(page).toHaveURL(/#how-it-works$/);
  });

  test('the counters still count up to 2x, 50% and 100%', async ({ page }) => {
    await page.goto('/');
    await expect.poll(() => shownCounters(page)).toEqual([2, 50, 100]);
    await expect(page.getByTestId('counter')).toHaveText(['2x', '50%', '100%']);
  });
});
