import { E2E_LIMITED_PORT } from '../playwright.config';
import { expect, expectNoAxeViolations, MAIL_TIMEOUT, readMailDrop, test, uniqueEmail } from './fixtures';
import { holdScripts, hydrated, painted } from './hold-scripts';

test.describe('/join-waitlist', () => {
  test('shows the form as specified', async ({ page }) => {
    await page.goto('/join-waitlist');
    await expect(page).toHaveTitle('Join the Waitlist — Coverly');
    await expect(page.getByRole('link', { name: 'Back to Home' })).toHaveAttribute('href', '/');
    await expect(page.getByRole('heading', { level: 1, name: 'Join the Waitlist' })).toBeVisible();
    await expect(page.getByText('Be the first to know when the product launches. Get early access and exclusive updates.')).toBeVisible();
    const fullName = page.getByLabel('Full Name');
    await expect(fullName).toHaveAttribute('required', '');
    await expect(fullName).toHaveAttribute('placeholder', /full name/i);
    await expect(page.locator('label', { hasText: 'Full Name' })).toContainText('*');
    await expect(page.getByLabel('Email')).toHaveAttribute('type', 'email');
    await expect(page.getByLabel('Email')).toHaveAttribute('required', '');
    await expect(page.getByLabel('Phone Number')).toHaveAttribute('type', 'tel');
    await expect(page.getByLabel('Phone Number')).not.toHaveAttribute('required', '');
    await expect(page.getByLabel('Company')).not.toHaveAttribute('required', '');
    await expect(page.getByRole('button', { name: 'Join Waitlist' })).toBeEnabled();
    await expect(page.getByText('Already have an account?')).toBeVisible();
    await page.getByRole('link', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/signin$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Sign In' })).toBeVisible();
    await expectNoAxeViolations(page);
  });

  test('goes idle → submitting → submitted, and the team gets its mail', async ({ page }) => {
    const email = uniqueEmail('dana');
    await page.goto('/join-waitlist');
    await page.getByLabel('Full Name').fill('Dana Broker');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Phone Number').fill('(555) 010-0123');
    await page.getByLabel('Company').fill('Keystone Lending');

    // Hold the real request until the submitting state has been seen.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/waitlist', async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole('button', { name: 'Join Waitlist' }).click();
    const submitting = page.getByRole('button', { name: 'Submitting...' });
    await expect(submitting).toBeDisabled();
    await expect(submitting.getByTestId('spinner')).toBeVisible();
    release();

    await expect(page.getByRole('heading', { name: "You're on the list!" })).toBeVisible();
    await expect(page.getByText("Thank you for joining our waitlist. We'll be in touch soon with updates.")).toBeVisible();
    const notice = page.getByRole('status').filter({ hasText: 'Success!' });
    await expect(notice).toContainText("You've been added to our waitlist. We'll be in touch soon!");
    await expect(page.getByLabel('Full Name')).toHaveCount(0);
    // The success screen's button is its only way out.
    await expect(page.getByRole('link', { name: 'Back to Home' })).toHaveCount(1);
    await expectNoAxeViolations(page);

    await expect.poll(async () => (await readMailDrop('main')).filter((m) => m.includes(email)).length, { timeout: MAIL_TIMEOUT }).toBeGreaterThanOrEqual(2);
    const mails = (await readMailDrop('main')).filter((m) => m.includes(email));
    expect(mails.some((m) => m.includes('To: team@coverly.test') && m.includes('Subject: New waitlist sign-up: Dana Broker'))).toBe(true);
    expect(mails.some((m) => m.includes(`To: ${email}`))).toBe(true);

    await page.getByRole('link', { name: 'Back to Home' }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test('can be filled and sent with the keyboard alone', async ({ page }) => {
    await page.goto('/join-waitlist');
    await page.getByLabel('Full Name').focus();
    await page.keyboard.type('Kim Keyboard');
    await page.keyboard.press('Tab');
    await expect(page.getByLabel('Email')).toBeFocused();
    await page.keyboard.type(uniqueEmail('kim'));
    await page.keyboard.press('Tab');
    await expect(page.getByLabel('Phone Number')).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(page.getByLabel('Company')).toBeFocused();
    await page.keyboard.press('Tab');
    // The honeypot is skipped: focus goes straight to the button.
    await expect(page.getByRole('button', { name: 'Join Waitlist' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: "You're on the list!" })).toBeFocused();
  });

  test('leaves the browser to check required fields before anything is sent', async ({ page }) => {
    let requests = 0;
    page.on('request', (request) => {
      if (request.url().includes('/api/waitlist')) requests++;
    });
    await page.goto('/join-waitlist');
    await page.getByRole('button', { name: 'Join Waitlist' }).click();
    expect(await page.getByLabel('Full Name').evaluate((el: HTMLInputElement) => el.validity.valueMissing)).toBe(true);
    await page.getByLabel('Full Name').fill('Val Idation');
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByRole('button', { name: 'Join Waitlist' }).click();
    expect(await page.getByLabel('Email').evaluate((el: HTMLInputElement) => el.validity.typeMismatch)).toBe(true);
    await expect(page.getByRole('heading', { name: 'Join the Waitlist' })).toBeVisible();
    expect(requests).toBe(0);
  });

  test('shows the Error notice when the request fails, keeping the form filled and usable', async ({ page, consoleGuard }) => {
    const logged = consoleGuard.allow(/Waitlist submission failed|Failed to load resource/);
    await page.goto('/join-waitlist');
    await page.getByLabel('Full Name').fill('Net Failure');
    await page.getByLabel('Email').fill(uniqueEmail('net'));
    await page.route('**/api/waitlist', (route) => route.abort('connectionrefused'));
    await page.getByRole('button', { name: 'Join Waitlist' }).click();

    const notice = page.getByRole('alert').filter({ hasText: 'Error' });
    await expect(notice).toContainText('Something went wrong. Please try again.');
    await expect(notice).toHaveAttribute('data-variant', 'destructive');
    await expect(page.getByLabel('Full Name')).toHaveValue('Net Failure');
    await expect(page.getByRole('button', { name: 'Join Waitlist' })).toBeEnabled();
    expect(logged.some((text) => text.includes('Waitlist submission failed'))).toBe(true);

    // The same form goes through once the network is back.
    await page.unroute('**/api/waitlist');
    await page.getByRole('button', { name: 'Join Waitlist' }).click();
    await expect(page.getByRole('heading', { name: "You're on the list!" })).toBeVisible();
  });

  test('shows a burst answered with 429 as the Error notice', async ({ page, consoleGuard }) => {
    consoleGuard.allow(/Waitlist submission failed|Failed to load resource.*429/);
    const limited = `http://127.0.0.1:${E2E_LIMITED_PORT}`;
    let limitedSeen = false;
    page.on('response', (response) => {
      if (response.url().endsWith('/api/waitlist') && response.status() === 429) limitedSeen = true;
    });
    // The limited server allows two sign-ups per hour from one address; keep going until it refuses.
    for (let attempt = 0; attempt < 4 && !limitedSeen; attempt++) {
      await page.goto(`${limited}/join-waitlist`);
      await page.getByLabel('Full Name').fill(`Burst ${attempt}`);
      await page.getByLabel('Email').fill(uniqueEmail('burst'));
      await page.getByRole('button', { name: 'Join Waitlist' }).click();
      await expect(page.getByRole('heading', { name: "You're on the list!" }).or(page.getByRole('alert'))).toBeVisible();
    }
    expect(limitedSeen).toBe(true);
    await expect(page.getByRole('alert')).toContainText('Something went wrong. Please try again.');
    await expect(page.getByLabel('Full Name')).not.toHaveValue('');
  });
});

test.describe('/join-waitlist before its scripts have run', () => {
  test('keeps what was typed when the app arrives, and sends it', async ({ page }) => {
    const email = uniqueEmail('early');
    const release = await holdScripts(page);
    await page.goto('/join-waitlist', { waitUntil: 'commit' });
    await painted(page);
    await page.getByLabel('Full Name').fill('Early Typist');
    await page.getByLabel('Email').fill(email);
    release();
    await hydrated(page);
    await expect(page.getByLabel('Full Name')).toHaveValue('Early Typist');
    await page.getByRole('button', { name: 'Join Waitlist' }).click();
    await expect(page.getByRole('heading', { name: "You're on the list!" })).toBeVisible();
    await expect
      .poll(async () => (await readMailDrop('main')).some((m) => m.includes(email) && m.includes('Subject: New waitlist sign-up: Early Typist')), {
        timeout: MAIL_TIMEOUT,
      })
      .toBe(true);
  });

  test('a submit before the app arrives waits for it, then is sent', async ({ page, baseURL }) => {
    const navigations: string[] = [];
    page.on('request', (request) => {
      if (request.isNavigationRequest()) navigations.push(`${request.method()} ${request.url()}`);
    });
    const email = uniqueEmail('eager');
    const release = await holdScripts(page);
    await page.goto('/join-waitlist', { waitUntil: 'commit' });
    await painted(page);
    await page.getByLabel('Full Name').fill('Eager Tapper');
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Join Waitlist' }).click();
    await page.waitForTimeout(500);
    expect(navigations).toEqual([`GET ${baseURL}/join-waitlist`]);
    release();
    await expect(page.getByRole('heading', { name: "You're on the list!" })).toBeVisible();
    await expect
      .poll(async () => (await readMailDrop('main')).some((m) => m.includes(email) && m.includes('Subject: New waitlist sign-up: Eager Tapper')), {
        timeout: MAIL_TIMEOUT,
      })
      .toBe(true);
    expect(navigations).toEqual([`GET ${baseURL}/join-waitlist`]);
  });
});

test.describe('/join-waitlist without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('a submit posts the form: no personal details go into the address', async ({ page, consoleGuard }) => {
    consoleGuard.allow(/Failed to load resource/);
    await page.goto('/join-waitlist');
    await page.getByLabel('Full Name').fill('No Script');
    await page.getByLabel('Email').fill(uniqueEmail('noscript'));
    const sent = page.waitForRequest((request) => request.isNavigationRequest() && request.method() !== 'GET');
    await page.getByRole('button', { name: 'Join Waitlist' }).click();
    const request = await sent;
    expect(request.method()).toBe('POST');
    expect(request.url()).not.toContain('?');
  });
});
