// Lighthouse (mobile preset, simulated throttling) on the public pages, the
// gzipped JavaScript each page loads, and each page's Largest Contentful
// Paint against the same HTML with its scripts and module preloads removed,
// served the same way: the same server build on a copy of dist/ whose public
// pages are the stripped ones (same headers, same compression). Each page and
// its script-free twin take turns. Writes bench/results/public-pages.json and .md.
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { median, root, startNode, report, runIfMain } from './lib.mjs';

export const PAGE_TARGETS = { performance: 98, accessibility: 100, 'best-practices': 100, seo: 100, homeJsGzipKb: 100, lcpVsNoScripts: 1.2 };
/** Each page and its stripped twin alternate, this many runs each; a page's figures are the median of its runs. */
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const APP_PORT = Number(process.env.BENCH_PAGES_PORT ?? 3200);
const STRIPPED_PORT = APP_PORT + 2;
/** The public pages, with their prerendered file (scripts/prerender.mjs). */
const PAGES = [
  { path: '/', file: 'home.html' },
  { path: '/signin', file: 'signIn.html' },
  { path: '/join-waitlist', file: 'joinWaitlist.html' },
  { path: '/dscr-calculator', file: 'dscrCalculator.html' },
];
const SCORES = ['performance', 'accessibility', 'best-practices', 'seo'];

/** The page without what runs: every module script and module preload goes. */
export function stripScripts(html) {
  return html.replace(/[ \t]*<script\b[^>]*>[\s\S]*?<\/script>\s*\n?/g, '').replace(/[ \t]*<link\b[^>]*rel="modulepreload"[^>]*>\s*\n?/g, '');
}

/**
 * A copy of dist/ (server, web, pages) whose public pages have no scripts. It
 * sits in dist/.bench/dist so the server finds it as its own dist/ and
 * node_modules as usual.
 */
function strippedDist() {
  const dist = path.join(root, 'dist/.bench/dist');
  rmSync(path.join(root, 'dist/.bench'), { recursive: true, force: true });
  mkdirSync(dist, { recursive: true });
  for (const part of ['server', 'web', 'pages']) cpSync(path.join(root, 'dist', part), path.join(dist, part), { recursive: true });
  for (const { file } of PAGES) {
    const page = path.join(dist, 'pages', file);
    const stripped = stripScripts(readFileSync(page, 'utf8'));
    if (/<script|modulepreload/.test(stripped)) throw new Error(`the stripped ${file} still has a script`);
    writeFileSync(page, stripped);
  }
  return dist;
}

/** Gzipped bytes of every script the page loaded, read from the build. */
function scriptBytes(lhr) {
  const items = lhr.audits['network-requests']?.details?.items ?? [];
  const scripts = items.filter((item) => item.resourceType === 'Script' && item.url.includes(`:${APP_PORT}/`));
  return scripts.map((item) => {
    const file = path.join(root, 'dist/web', new URL(item.url).pathname);
    return { url: new URL(item.url).pathname, gzipBytes: gzipSync(readFileSync(file), { level: 9 }).length };
  });
}

const score = (lhr, id) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
const metric = (lhr, id) => lhr.audits[id].numericValue;

function summariseRuns(url, runs) {
  const byPerf = [...runs].sort((a, b) => score(a, 'performance') - score(b, 'performance'));
  const lhr = byPerf[Math.floor(byPerf.length / 2)];
  return {
    url,
    scores: Object.fromEntries(SCORES.map((id) => [id, median(runs.map((r) => score(r, id)))])),
    performanceRuns: runs.map((r) => score(r, 'performance')),
    lcpRuns: runs.map((r) => Math.round(metric(r, 'largest-contentful-paint'))),
    metrics: {
      fcpMs: Math.round(median(runs.map((r) => metric(r, 'first-contentful-paint')))),
      lcpMs: Math.round(median(runs.map((r) => metric(r, 'largest-contentful-paint')))),
      tbtMs: Math.round(median(runs.map((r) => metric(r, 'total-blocking-time')))),
      cls: Number(median(runs.map((r) => metric(r, 'cumulative-layout-shift'))).toFixed(4)),
    },
    failedAudits: Object.values(lhr.audits)
      .filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode === 'binary')
      .map((a) => a.id),
    lhr,
  };
}

export async function runPublicPages() {
  const work = mkdtempSync(path.join(tmpdir(), 'coverly-bench-pages-'));
  const env = (port, data) => ({
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: path.join(work, data),
    LOG_LEVEL: 'warn',
    DATABASE_URL: '',
    SMTP_URL: '',
  });
  const app = await startNode(['dist/server/main.js'], { env: env(APP_PORT, 'app'), readyUrl: `http://127.0.0.1:${APP_PORT}/readyz` });
  const strippedDir = strippedDist();
  const stripped = await startNode([path.join(strippedDir, 'server/main.js')], {
    env: env(STRIPPED_PORT, 'stripped'),
    readyUrl: `http://127.0.0.1:${STRIPPED_PORT}/readyz`,
  });
  let chrome;
  try {
    chrome = await chromeLauncher.launch({
      chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      chromeFlags: [
        '--headless=new',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    /** One Lighthouse run; one that errs (Chrome now and then reports no paint) is run again, twice at most. */
    const run = async (url) => {
      for (let attempt = 1; ; attempt++) {
        const { lhr } = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error' });
        const failed = lhr.runtimeError || !Number.isFinite(lhr.audits['largest-contentful-paint']?.numericValue);
        if (!failed || attempt === 3) return lhr;
        console.warn(`Lighthouse run of ${url} failed (${lhr.runtimeError?.code ?? 'no LCP'}); running it again`);
      }
    };

    // Each page and its stripped twin, alternating.
    const pages = [];
    const baselines = [];
    for (const page of PAGES) {
      const runs = [];
      const strippedRuns = [];
      for (let i = 0; i < RUNS; i++) {
        const pair = i % 2 === 0 ? ['page', 'stripped'] : ['stripped', 'page'];
        for (const which of pair) {
          if (which === 'page') runs.push(await run(`http://127.0.0.1:${APP_PORT}${page.path}`));
          else strippedRuns.push(await run(`http://127.0.0.1:${STRIPPED_PORT}${page.path}`));
        }
      }
      const base = summariseRuns(`${page.path} without scripts`, strippedRuns);
      const result = summariseRuns(page.path, runs);
      const scripts = scriptBytes(result.lhr);
      baselines.push({ path: page.path, scores: base.scores, metrics: base.metrics, lcpRuns: base.lcpRuns });
      pages.push({
        path: page.path,
        scores: result.scores,
        performanceRuns: result.performanceRuns,
        lcpRuns: result.lcpRuns,
        metrics: result.metrics,
        vsNoScripts: {
          lcp: Number((result.metrics.lcpMs / Math.max(1, base.metrics.lcpMs)).toFixed(3)),
          fcp: Number((result.metrics.fcpMs / Math.max(1, base.metrics.fcpMs)).toFixed(3)),
        },
        jsGzipKb: Number((scripts.reduce((sum, s) => sum + s.gzipBytes, 0) / 1024).toFixed(1)),
        scripts,
        failedAudits: result.failedAudits,
      });
    }

    const home = pages.find((p) => p.path === '/');
    const checks = [
      ...pages.flatMap((p) => [
        {
          what: `${p.path} LCP ÷ the same page without scripts ≤ ${PAGE_TARGETS.lcpVsNoScripts}`,
          ok: p.vsNoScripts.lcp <= PAGE_TARGETS.lcpVsNoScripts,
          value: p.vsNoScripts.lcp,
        },
        { what: `${p.path} performance ≥ ${PAGE_TARGETS.performance}`, ok: p.scores.performance >= PAGE_TARGETS.performance, value: p.scores.performance },
        { what: `${p.path} accessibility = 100`, ok: p.scores.accessibility >= PAGE_TARGETS.accessibility, value: p.scores.accessibility },
        { what: `${p.path} best practices = 100`, ok: p.scores['best-practices'] >= PAGE_TARGETS['best-practices'], value: p.scores['best-practices'] },
        { what: `${p.path} SEO = 100`, ok: p.scores.seo >= PAGE_TARGETS.seo, value: p.scores.seo },
      ]),
      { what: `/ loads ≤ ${PAGE_TARGETS.homeJsGzipKb} KB of gzipped JavaScript`, ok: home.jsGzipKb <= PAGE_TARGETS.homeJsGzipKb, value: home.jsGzipKb },
    ];

    const result = {
      date: new Date().toISOString(),
      node: process.version,
      runsPerPage: RUNS,
      preset: 'Lighthouse default (mobile, simulated throttling)',
      baselines: {
        what: 'each page with its scripts and module preloads removed, same server build and compression',
        pages: baselines,
      },
      pages,
      targets: PAGE_TARGETS,
      checks,
    };
    const md = [
      `# Public pages benchmark`,
      ``,
      `${result.date} · Node ${result.node} · ${result.preset} · each page and its script-free twin alternate, ${RUNS} runs each; medians`,
      ``,
      `| page | perf | a11y | best pr. | SEO | FCP ms | LCP ms | TBT ms | CLS | LCP ÷ no scripts | JS gzip KB |`,
      `|---|---|---|---|---|---|---|---|---|---|---|`,
      ...pages.flatMap((p, i) => {
        const b = baselines[i];
        return [
          `| ${p.path} without scripts | ${b.scores.performance} | ${b.scores.accessibility} | ${b.scores['best-practices']} | ${b.scores.seo} | ${b.metrics.fcpMs} | ${b.metrics.lcpMs} | ${b.metrics.tbtMs} | ${b.metrics.cls} | 1 | 0 |`,
          `| ${p.path} | ${p.scores.performance} | ${p.scores.accessibility} | ${p.scores['best-practices']} | ${p.scores.seo} | ${p.metrics.fcpMs} | ${p.metrics.lcpMs} | ${p.metrics.tbtMs} | ${p.metrics.cls} | ${p.vsNoScripts.lcp} | ${p.jsGzipKb} |`,
        ];
      }),
      ``,
      `LCP of each run, ms:`,
      ``,
      ...pages.map((p, i) => `- ${p.path}: ${p.lcpRuns.join(', ')}; without scripts ${baselines[i].lcpRuns.join(', ')}`),
    ];
    return await report('public-pages', result, md, checks);
  } finally {
    await chrome?.kill();
    await Promise.all([app.stop(), stripped.stop()]);
    rmSync(path.join(root, 'dist/.bench'), { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
  }
}

await runIfMain(import.meta.url, runPublicPages);
