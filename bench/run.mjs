// `npm run bench`: Lighthouse (mobile preset, simulated throttling) on the
// public pages, against a static no-JavaScript baseline page measured in the
// same run on the same machine, and the gzipped JavaScript each page loads.
// Writes bench/results/public-pages.json and .md.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { ensureBuilt, ensureInstalled, root } from '../scripts/lib/ensure.mjs';

ensureInstalled();
ensureBuilt();

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const APP_PORT = 3200;
const BASELINE_PORT = 3201;
const PAGES = ['/', '/signin', '/join-waitlist'];
const TARGETS = { performance: 98, accessibility: 100, 'best-practices': 100, seo: 100, homeJsGzipKb: 100 };

async function waitForReady(url, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not become ready`);
}

const app = spawn(process.execPath, ['dist/server/main.js'], {
  cwd: root,
  stdio: ['ignore', 'ignore', 'inherit'],
  env: {
    ...process.env,
    PORT: String(APP_PORT),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${APP_PORT}`,
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'coverly-bench-')),
    LOG_LEVEL: 'warn',
  },
});
const baselineHtml = readFileSync(path.join(root, 'bench/baseline.html'));
const baseline = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': baselineHtml.length, 'cache-control': 'no-cache' });
  res.end(baselineHtml);
}).listen(BASELINE_PORT, '127.0.0.1');

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

/** Gzipped bytes of every script the page loaded, read from the build. */
function scriptBytes(lhr) {
  const items = lhr.audits['network-requests']?.details?.items ?? [];
  const scripts = items.filter((item) => item.resourceType === 'Script' && item.url.includes(`:${APP_PORT}/`));
  return scripts.map((item) => {
    const file = path.join(root, 'dist/web', new URL(item.url).pathname);
    return { url: new URL(item.url).pathname, gzipBytes: gzipSync(readFileSync(file), { level: 9 }).length };
  });
}

let chrome;
try {
  await waitForReady(`http://127.0.0.1:${APP_PORT}/readyz`);
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
  const audit = async (url) => {
    const runs = [];
    for (let i = 0; i < RUNS; i++) {
      const result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error' });
      runs.push(result.lhr);
    }
    const score = (lhr, id) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
    const byPerf = [...runs].sort((a, b) => score(a, 'performance') - score(b, 'performance'));
    const lhr = byPerf[Math.floor(byPerf.length / 2)];
    return {
      url,
      scores: Object.fromEntries(['performance', 'accessibility', 'best-practices', 'seo'].map((id) => [id, median(runs.map((r) => score(r, id)))])),
      performanceRuns: runs.map((r) => score(r, 'performance')),
      metrics: {
        fcpMs: Math.round(median(runs.map((r) => r.audits['first-contentful-paint'].numericValue))),
        lcpMs: Math.round(median(runs.map((r) => r.audits['largest-contentful-paint'].numericValue))),
        tbtMs: Math.round(median(runs.map((r) => r.audits['total-blocking-time'].numericValue))),
        cls: Number(median(runs.map((r) => r.audits['cumulative-layout-shift'].numericValue)).toFixed(4)),
      },
      failedAudits: Object.values(lhr.audits)
        .filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode === 'binary')
        .map((a) => a.id),
      lhr,
    };
  };

  const base = await audit(`http://127.0.0.1:${BASELINE_PORT}/`);
  const pages = [];
  for (const page of PAGES) {
    const result = await audit(`http://127.0.0.1:${APP_PORT}${page}`);
    const scripts = scriptBytes(result.lhr);
    pages.push({
      path: page,
      scores: result.scores,
      performanceRuns: result.performanceRuns,
      metrics: result.metrics,
      vsBaseline: {
        performance: Number((result.scores.performance / Math.max(1, base.scores.performance)).toFixed(3)),
        lcp: Number((result.metrics.lcpMs / Math.max(1, base.metrics.lcpMs)).toFixed(3)),
        fcp: Number((result.metrics.fcpMs / Math.max(1, base.metrics.fcpMs)).toFixed(3)),
      },
      jsGzipKb: Number((scripts.reduce((sum, s) => sum + s.gzipBytes, 0) / 1024).toFixed(1)),
      scripts,
      failedAudits: result.failedAudits,
    });
  }

  const home = pages.find((p) => p.path === '/');
  const checks = pages.flatMap((p) => [
    { what: `${p.path} performance ≥ ${TARGETS.performance}`, ok: p.scores.performance >= TARGETS.performance, value: p.scores.performance },
    { what: `${p.path} accessibility = 100`, ok: p.scores.accessibility >= TARGETS.accessibility, value: p.scores.accessibility },
    { what: `${p.path} best practices = 100`, ok: p.scores['best-practices'] >= TARGETS['best-practices'], value: p.scores['best-practices'] },
    { what: `${p.path} SEO = 100`, ok: p.scores.seo >= TARGETS.seo, value: p.scores.seo },
  ]);
  checks.push({ what: `/ loads ≤ ${TARGETS.homeJsGzipKb} KB of gzipped JavaScript`, ok: home.jsGzipKb <= TARGETS.homeJsGzipKb, value: home.jsGzipKb });

  const result = {
    date: new Date().toISOString(),
    node: process.version,
    runsPerPage: RUNS,
    preset: 'Lighthouse default (mobile, simulated throttling)',
    baseline: { url: 'bench/baseline.html (static, no JS)', scores: base.scores, metrics: base.metrics },
    pages,
    targets: TARGETS,
    checks,
  };
  await mkdir(path.join(root, 'bench/results'), { recursive: true });
  await writeFile(path.join(root, 'bench/results/public-pages.json'), `${JSON.stringify(result, null, 2)}\n`);
  const md = [
    `# Public pages benchmark`,
    ``,
    `${result.date} · Node ${result.node} · ${result.preset} · median of ${RUNS} runs per page`,
    ``,
    `| page | perf | a11y | best pr. | SEO | FCP ms | LCP ms | TBT ms | CLS | perf ÷ baseline | LCP ÷ baseline | JS gzip KB |`,
    `|---|---|---|---|---|---|---|---|---|---|---|---|`,
    `| baseline (static, no JS) | ${base.scores.performance} | ${base.scores.accessibility} | ${base.scores['best-practices']} | ${base.scores.seo} | ${base.metrics.fcpMs} | ${base.metrics.lcpMs} | ${base.metrics.tbtMs} | ${base.metrics.cls} | 1 | 1 | 0 |`,
    ...pages.map(
      (p) =>
        `| ${p.path} | ${p.scores.performance} | ${p.scores.accessibility} | ${p.scores['best-practices']} | ${p.scores.seo} | ${p.metrics.fcpMs} | ${p.metrics.lcpMs} | ${p.metrics.tbtMs} | ${p.metrics.cls} | ${p.vsBaseline.performance} | ${p.vsBaseline.lcp} | ${p.jsGzipKb} |`,
    ),
    ``,
    `## Targets`,
    ``,
    ...checks.map((c) => `- ${c.ok ? 'met' : 'MISSED'}: ${c.what} (${c.value})`),
    ``,
  ].join('\n');
  await writeFile(path.join(root, 'bench/results/public-pages.md'), md);
  console.log(md);
  if (checks.some((c) => !c.ok)) process.exitCode = 1;
} finally {
  await chrome?.kill();
  baseline.close();
  app.kill('SIGTERM');
}
