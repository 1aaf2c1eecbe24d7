import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PRERENDER_TOKENS, type PublicConfig } from '../../../shared/public-config';
import { escapeHtml } from '../../../shared/html';

/** Routes whose HTML was prerendered at build time (scripts/prerender.mjs), by file name. */
const PRERENDERED_ROUTES: Record<string, string> = {
  '/': 'home',
  '/signin': 'signIn',
  '/join-waitlist': 'joinWaitlist',
  '/dscr-calculator': 'dscrCalculator',
};

/** Pages rendered in the browser only, from the bare shell. */
const CLIENT_ROUTES = ['/forgot-password', '/reset-password', '/invite', '/upload', '/unsubscribe', '/app', '/app/*'];

/**
 * A third party's upload page: its token is in the fragment, which no Referer carries, and the page
 * sends no Referer at all besides, so nothing it links to or loads learns where it came from. The
 * unsubscribe page's token is in its query: no Referer either.
 */
const NO_REFERRER_ROUTES = new Set(['/upload', '/unsubscribe']);

/**
 * Fills the prerender tokens with the configured, HTML-escaped values, and the
 * config <meta> tag with the JSON the client reads on start.
 */
export function fillPageTemplate(html: string, config: PublicConfig): string {
  let out = html.replace('__COVERLY_PUBLIC_CONFIG__', escapeHtml(JSON.stringify(config)));
  for (const key of Object.keys(PRERENDER_TOKENS) as (keyof PublicConfig)[]) {
    out = out.replaceAll(PRERENDER_TOKENS[key], escapeHtml(config[key]));
  }
  return out;
}

interface CompressedPage {
  identity: Buffer;
  br: Buffer;
  gzip: Buffer;
}

/** Brotli when the client takes it, else gzip, else none (q-values of 0 respected). */
export function pickEncoding(header: string | undefined): keyof CompressedPage {
  const accepted = new Map<string, number>();
  for (const part of (header ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    accepted.set(name, q ? Number(q.slice(2)) || 0 : 1);
  }
  const allows = (name: string) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  if (allows('br')) return 'br';
  if (allows('gzip')) return 'gzip';
  return 'identity';
}

export interface StaticSite {
  /** The not-found page, with a 404 status. */
  sendNotFound(request: FastifyRequest, reply: FastifyReply): FastifyReply;
}

/**
 * Serves the built web app: prerendered pages (filled once at start), hashed
 * assets with a long cache life, and the rest of dist/web. Returns null when
 * the app has not been built (API-only tests).
 */
export async function registerStaticSite(
  app: FastifyInstance,
  { distDir, publicConfig }: { distDir: string; publicConfig: PublicConfig },
): Promise<StaticSite | null> {
  const webDir = path.join(distDir, 'web');
  const pagesDir = path.join(distDir, 'pages');
  if (!existsSync(path.join(pagesDir, 'home.html'))) return null;

  // Each page is filled and compressed once, at start.
  const pages = new Map<string, CompressedPage>();
  for (const name of [...Object.values(PRERENDERED_ROUTES), 'notFound', 'shell']) {
    const html = Buffer.from(fillPageTemplate(await readFile(path.join(pagesDir, `${name}.html`), 'utf8'), publicConfig));
    pages.set(name, {
      identity: html,
      br: brotliCompressSync(html, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } }),
      gzip: gzipSync(html, { level: 9 }),
    });
  }
  const sendPage = (request: FastifyRequest, reply: FastifyReply, name: string, status = 200) => {
    const page = pages.get(name);
    if (!page) throw new Error(`No prerendered page "${name}"`);
    const encoding = pickEncoding(request.headers['accept-encoding']);
    void reply.status(status).type('text/html; charset=utf-8').header('cache-control', 'no-cache').header('vary', 'accept-encoding');
    if (encoding !== 'identity') void reply.header('content-encoding', encoding);
    return reply.send(page[encoding]);
  };

  for (const [url, name] of Object.entries(PRERENDERED_ROUTES)) {
    app.get(url, (request, reply) => sendPage(request, reply, name));
  }
  // Client-rendered pages: password reset, the invitation page and the signed-in app.
  for (const url of CLIENT_ROUTES)
    app.get(url, (request, reply) => {
      if (NO_REFERRER_ROUTES.has(url)) void reply.header('referrer-policy', 'no-referrer');
      return sendPage(request, reply, 'shell');
    });

  await app.register(fastifyStatic, {
    root: webDir,
    index: false,
    wildcard: false,
    preCompressed: true,
    setHeaders(reply, filePath) {
      const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
      reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=3600');
    },
  });

  return { sendNotFound: (request, reply) => sendPage(request, reply, 'notFound', 404) };
}
