import { beforeAll, describe, expect, it } from 'vitest';
import { setupApi } from '../../test/api';
import { backends } from '../../test/databases';
import { createAccount, type Account } from '../../test/factories';
import { acceptedOrigins } from '../platform/http/security';

/** A browser's sign-in from a page at `origin`: same-origin fetch metadata, the page's host. */
const browserHeaders = (origin: string) => ({
  origin,
  host: new URL(origin).host,
  'sec-fetch-site': 'same-origin',
  'sec-fetch-mode': 'cors',
  'sec-fetch-dest': 'empty',
});

describe('acceptedOrigins', () => {
  it('accepts every loopback spelling of a loopback PUBLIC_URL, with its scheme and port, and only the origin of any other', () => {
    expect(acceptedOrigins('http://localhost:3000')).toEqual(['http://localhost:3000', 'http://127.0.0.1:3000', 'http://[::1]:3000']);
    expect(acceptedOrigins('http://127.0.0.1:4100/')).toEqual(['http://127.0.0.1:4100', 'http://localhost:4100', 'http://[::1]:4100']);
    expect(acceptedOrigins('https://coverly.example.com')).toEqual(['https://coverly.example.com']);
  });
});

describe.each(backends)('signing in from another spelling of the address, on %s', (backend) => {
  describe('with the local default PUBLIC_URL (http://localhost:3000)', () => {
    const api = setupApi(backend);
    let account: Account;
    beforeAll(async () => {
      account = await createAccount(api);
    });
    const signIn = (origin: string) =>
      api.as().post('/api/auth/sign-in/email', { email: account.email, password: account.password }, { headers: browserHeaders(origin) });

    it('has better-auth trust the same origins (its own check runs outside tests: e2e/local-address.spec.ts)', async () => {
      expect((await api.app.auth.$context).trustedOrigins).toEqual(expect.arrayContaining(acceptedOrigins('http://localhost:3000')));
    });

    it.each(['http://localhost:3000', 'http://127.0.0.1:3000', 'http://[::1]:3000'])('signs in from %s', async (origin) => {
      const response = await signIn(origin);
      expect(response.statusCode, response.body).toBe(200);
    });

    it('says where to open Coverly when the page is at an address it does not accept, never a bare refusal', async () => {
      for (const origin of ['http://192.168.1.4:3000', 'http://127.0.0.1:4000']) {
        const response = await signIn(origin);
        expect(response.statusCode).toBe(403);
        expect(response.headers['content-type']).toContain('application/problem+json');
        const problem = response.json<{ code: string; detail: string }>();
        expect(problem.code).toBe('forbidden');
        expect(problem.detail).toContain('http://localhost:3000');
        expect(problem.detail).toContain(origin);
        expect(problem.detail).toContain('PUBLIC_URL');
      }
    });

    it('still refuses a cross-site request', async () => {
      const response = await api
        .as()
        .post(
          '/api/auth/sign-in/email',
          { email: account.email, password: account.password },
          { headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'cors' } },
        );
      expect(response.statusCode).toBe(403);
    });
  });

  describe('with a PUBLIC_URL that is not loopback', () => {
    const api = setupApi(backend, { env: { PUBLIC_URL: 'https://coverly.example.com' } });
    it('accepts no loopback spelling', async () => {
      const account = await createAccount(api);
      const response = await api
        .as()
        .post('/api/auth/sign-in/email', { email: account.email, password: account.password }, { headers: browserHeaders('http://localhost:3000') });
      expect(response.statusCode).toBe(403);
      expect(response.json<{ detail: string }>().detail).toContain('https://coverly.example.com');
    });
  });
});
