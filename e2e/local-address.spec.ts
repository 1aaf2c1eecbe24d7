import { E2E_PORT } from '../playwright.config';
import { expect, signInWithCode, test } from './fixtures';

// The e2e server's PUBLIC_URL is http://127.0.0.1:<port>; a person may type http://localhost:<port> instead.
const localhost = `http://localhost:${E2E_PORT}`;

test('signing in works at the other loopback spelling of a local PUBLIC_URL', async ({ page, createPerson }, testInfo) => {
  test.skip(testInfo.project.name !== 'desktop', 'one project is enough');
  const person = await createPerson({ role: 'admin', name: 'Lou Loopback' });
  await signInWithCode(page, localhost, person, { secret: person.totp?.secret ?? '' });
  await expect(page.getByText('Lou Loopback')).toBeVisible();
});
