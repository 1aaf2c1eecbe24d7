import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { pickEncoding } from './platform/site/static-site';
import { setupApi } from '../test/api';
import { backends } from '../test/databases';

/** A minimal built site, shaped like scripts/prerender.mjs's output. */
function fakeDist(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'coverly-dist-'));
  mkdirSync(path.join(dir, 'pages'));
  mkdirSync(path.join(dir, 'web/assets'), { recursive: true });
  const page = (body: string) =>
    `<!doctype html><html><head><title>__COVERLY_BRAND_NAME__</title><meta name="coverly-config" content="__COVERLY_PUBLIC_CONFIG__" /></head><body>${body}</body></html>`;
  for (const name of ['home', 'signIn', 'joinWaitlist', 'dscrCalculator', 'shell'])
    writeFileSync(
      path.join(dir, `pages/${name}.html`),
      page(`<p>${name} of __COVERLY_BRAND_NAME__ at <a href="mailto:__COVERLY_CONTACT_EMAIL__">__COVERLY_CONTACT_EMAIL__</a></p>`),
    );
  writeFileSync(path.join(dir, 'pages/notFound.html'), page('<h1>404</h1>'));
  writeFileSync(path.join(dir, 'web/assets/app-abc123.js'), 'console.log(1)');
  writeFileSync(path.join(dir, 'web/robots.txt'), 'User-agent: *');
  return dir;
}

describe.each(backends)('app shell on %s', (backend) => {
  const api = setupApi(backend, { env: { BRAND_NAME: 'Acme <Loans>', CONTACT_EMAIL: 'deals@acme.test' }, distDir: fakeDist() });

  it('reports health and readiness', async () => {
    expect((await api.as().get('/healthz')).json()).toEqual({ status: 'ok' });
    const ready = await api.as().get('/readyz');
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready' });
  });

  it('serves prerendered pages with the configured brand, escaped', async () => {
    const response = await api.as().get('/', { headers: { accept: 'text/html' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/html');
    expect(response.body).toContain('<title>Acme &lt;Loans&gt;</title>');
    expect(response.body).toContain('<a href="mailto:deals@acme.test">deals@acme.test</a>');
    expect(response.body).not.toContain('__COVERLY_');
    const meta = /name="coverly-config" content="([^"]+)"/.exec(response.body)?.[1] ?? '';
    const config = JSON.parse(meta.replaceAll('&quot;', '"').replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&'));
    expect(config).toMatchObject({ brandName: 'Acme <Loans>', contactEmail: 'deals@acme.test' });
    for (const url of ['/signin', '/join-waitlist', '/signin/', '/dscr-calculator', '/dscr-calculator?amount=300000&rate=7.25']) {
      expect((await api.as().get(url, { headers: { accept: 'text/html' } })).statusCode).toBe(200);
    }
  });

  it('compresses pages for clients that accept it', async () => {
    const plain = await api.as().get('/', { headers: { accept: 'text/html', 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    const br = await api.as().get('/', { headers: { accept: 'text/html', 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('accept-encoding');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    const gzip = await api.as().get('/signin', { headers: { accept: 'text/html', 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toContain('signIn of Acme');
  });

  it('answers unknown pages with the not-found page and a real 404', async () => {
    const response = await api.as().get('/no/such/page', { headers: { accept: 'text/html' } });
    expect(response.statusCode).toBe(404);
    expect(response.body).toContain('<h1>404</h1>');
  });

  it('answers unknown API paths with a JSON 404, whatever the client accepts', async () => {
    for (const [method, url] of [
      ['GET', '/api/nothing'],
      ['POST', '/api/loans'],
      ['GET', '/api'],
    ] as const) {
      const response = await api.app.inject({ method, url, headers: { accept: 'text/html' } });
      expect(response.statusCode).toBe(404);
      expect(response.headers['content-type']).toContain('application/problem+json');
      expect(response.json()).toMatchObject({ status: 404, code: 'not_found' });
    }
  });

  it('sends security headers: CSP without inline scripts, nosniff, referrer policy, no HSTS on plain HTTP', async () => {
    const response = await api.as().get('/', { headers: { accept: 'text/html' } });
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(response.headers['strict-transport-security']).toBeUndefined();
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("serves a third party's upload page from the shell, with no Referer for anything it loads or links to", async () => {
    const page = await api.as().get('/upload', { headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('shell of Acme');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect((await api.as().get('/invite', { headers: { accept: 'text/html' } })).headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  });

  it('caches hashed assets for a year and other files briefly', async () => {
    const asset = await api.as().get('/assets/app-abc123.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const robots = await api.as().get('/robots.txt');
    expect(robots.headers['cache-control']).toBe('public, max-age=3600');
  });
});

describe('behind HTTPS', () => {
  const api = setupApi('pglite', { env: { PUBLIC_URL: 'https://loans.example.com' } });

  it('sends HSTS when the public URL is https', async () => {
    const response = await api.as().get('/healthz');
    expect(response.headers['strict-transport-security']).toBe('max-age=63072000; includeSubDomains');
    expect(String(response.headers['content-security-policy'])).toContain('upgrade-insecure-requests');
  });
});

describe('pickEncoding', () => {
  it.each([
    [undefined, 'identity'],
    ['', 'identity'],
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0, gzip;q=0.5', 'gzip'],
    ['*', 'br'],
    ['*;q=0, identity', 'identity'],
    ['deflate', 'identity'],
  ] as const)('%s -> %s', (header, expected) => {
    expect(pickEncoding(header)).toBe(expected);
  });
});
