import { expect, expectNoAxeViolations, test } from './fixtures';

test.describe('/ landing page', () => {
  test('has the header anchors and links, and the hero calls to action', async ({ page, isMobile }) => {
    await page.goto('/');
    await expect(page).toHaveTitle('Coverly — DSCR loan tracking for mortgage brokers');
    const header = page.getByRole('banner');
    if (isMobile) {
      const toggle = header.getByRole('button', { name: 'Open menu' });
      await expect(toggle).toHaveAttribute('aria-expanded', 'false');
      await expect(page.getByTestId('mobile-menu')).toBeHidden();
      await toggle.click();
      await expect(header.getByRole('button', { name: 'Close menu' })).toHaveAttribute('aria-expanded', 'true');
      await expect(page.getByTestId('mobile-menu')).toBeVisible();
      await header.getByRole('button', { name: 'Close menu' }).click();
      await expect(page.getByTestId('mobile-menu')).toBeHidden();
      await header.getByRole('button', { name: 'Open menu' }).click();
    }
    const nav = isMobile ? page.getByTestId('mobile-menu') : header;
    for (const id of ['features', 'how-it-works', 'pricing']) {
      await expect(nav.locator(`a[href="#${id}"]`)).toBeVisible();
      await expect(page.locator(`section#${id}`)).toHaveCount(1);
    }
    await expect(nav.getByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/signin');
    await expect(nav.getByRole('link', { name: 'Join Waitlist' })).toHaveAttribute('href', '/join-waitlist');

    // An anchor in the (mobile) menu scrolls to its section and closes the menu.
    await nav.locator('a[href="#pricing"]').click();
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

  test('counts up to 2x, 50% and 100%', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByTestId('counter')).toHaveText(['2x', '50%', '100%']);
  });

  test('animates the counters over 1,200 ms', async ({ page }) => {
    await page.clock.install({ time: new Date('2026-01-05T09:00:00Z') });
    await page.clock.pauseAt(new Date('2026-01-05T09:00:01Z'));
    await page.goto('/');
    // Once hydrated, the counters start from zero; no frame runs while the clock is paused.
    await expect(page.getByTestId('counter')).toHaveText(['0x', '0%', '0%']);
    await page.clock.runFor(400);
    const midway = await page.getByTestId('counter').allTextContents();
    expect(midway).not.toEqual(['0x', '0%', '0%']);
    expect(midway).not.toEqual(['2x', '50%', '100%']);
    await page.clock.runFor(600);
    await expect(page.getByTestId('counter')).not.toHaveText(['2x', '50%', '100%']);
    await page.clock.runFor(250);
    await expect(page.getByTestId('counter')).toHaveText(['2x', '50%', '100%']);
  });

  test('shows the final counter values at once to people who prefer reduced motion', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.clock.install();
    await page.clock.pauseAt(Date.now() + 1000);
    await page.goto('/');
    await page.clock.runFor(50);
    await expect(page.getByTestId('counter')).toHaveText(['2x', '50%', '100%']);
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
