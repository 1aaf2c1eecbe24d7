import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PRERENDER_TOKENS, type PublicConfig } from '../../../shared/public-config';
import { escapeHtml } from '../mail/mail-jobs';

/** Routes whose HTML was prerendered at build time (scripts/prerender.mjs), by file name. */
const PRERENDERED_ROUTES: Record<string, string> = {
  '/': 'home',
  '/signin': 'signIn',
  '/join-waitlist': 'joinWaitlist',
};

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

export interface StaticSite {
  /** The not-found page, with a 404 status. */
  sendNotFound(request: FastifyRequest, reply: FastifyReply): FastifyReply;
}

/**
 * Serves the built web app: prerendered pages (filled once at start), hashed
 * assets with a long cache life, and the rest of dist/web. Returns null when
 * the app has not been built (API-only tests).
 */
export async function registerStaticSite(app: FastifyInstance, { distDir, publicConfig }: { distDir: string; publicConfig: PublicConfig }): Promise<StaticSite | null> {
  const webDir = path.join(distDir, 'web');
  const pagesDir = path.join(distDir, 'pages');
  if (!existsSync(path.join(pagesDir, 'home.html'))) return null;

  const pages = new Map<string, string>();
  for (const name of [...Object.values(PRERENDERED_ROUTES), 'notFound', 'shell']) {
    pages.set(name, fillPageTemplate(await readFile(path.join(pagesDir, `${name}.html`), 'utf8'), publicConfig));
  }
  const sendPage = (reply: FastifyReply, name: string, status = 200) =>
    reply.status(status).type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(pages.get(name));

  for (const [url, name] of Object.entries(PRERENDERED_ROUTES)) {
    app.get(url, (_request, reply) => sendPage(reply, name));
  }

  await app.register(fastifyStatic, {
    root: webDir,
    index: false,
    wildcard: false,
    setHeaders(reply, filePath) {
      const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
      reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=3600');
    },
  });

  return { sendNotFound: (_request, reply) => sendPage(reply, 'notFound', 404) };
}
