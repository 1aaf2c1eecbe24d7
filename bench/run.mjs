// `npm run bench`: the benchmarks that guard the foundation, each measured
// against its yardstick on this machine in the same run:
//
//   http      GET /healthz of the real app ÷ plain Fastify, same answer (≥ 0.85)
//   waitlist  sign-ups/s on PostgreSQL ÷ pgbench, same transaction     (≥ 0.7)
//   pages     Lighthouse of the public pages, their JavaScript, and each
//             page's LCP ÷ the same page without scripts                (≤ 1.2)
//   pipeline  GET /api/teams/:teamId/loans, 10,000 loans on PostgreSQL,
//             p95 (default view, search) beside the bare SELECT         (≤ 50 ms)
//   uploads   a 1 GB encrypted upload and download ÷ bare node:http   (≥ 0.5),
//             server memory growth (≤ 64 MB), event-loop p99 (≤ 20 ms)
//   package   GET /api/loans/:loanId/package, 40 items of 1–2 MB each on
//             PostgreSQL: first byte, beside the files one by one       (≤ 1 s)
//   realtime  1,000 viewers of one loan's event stream: post → arrival
//             p99 beside a bare node:http SSE server (≤ 100 ms), 0 lost
//             or duplicated with 50 sockets cut, two instances on one
//             PostgreSQL; memory per connection and CPU reported
//
// `npm run bench -- http waitlist` runs some of them. Results (markdown and
// JSON) go to bench/results/; the exit code is 1 when a target is missed.
// Traffic goes to 127.0.0.1 only. PostgreSQL: BENCH_PG_URL (default
// postgres://postgres@127.0.0.1:5432/test; a scratch database is created next
// to it and dropped after). BENCH_ROOT measures a built copy of the repository
// instead of this one, BENCH_RESULTS_DIR writes its results elsewhere.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ensureBuilt, ensureInstalled } from '../scripts/lib/ensure.mjs';
import { checkLine, resultsDir, root } from './lib.mjs';

const BENCHMARKS = {
  http: async () => (await import('./http-overhead.mjs')).runHttpOverhead(),
  waitlist: async () => (await import('./waitlist-pg.mjs')).runWaitlistPg(),
  pages: async () => (await import('./public-pages.mjs')).runPublicPages(),
  pipeline: async () => (await import('./pipeline.mjs')).runPipeline(),
  uploads: async () => (await import('./uploads.mjs')).runUploads(),
  package: async () => (await import('./package.mjs')).runPackage(),
  realtime: async () => (await import('./realtime.mjs')).runRealtime(),
};

const chosen = process.argv.slice(2);
const unknown = chosen.filter((name) => !(name in BENCHMARKS));
if (unknown.length) {
  console.error(`Unknown benchmark ${unknown.join(', ')}; choose from ${Object.keys(BENCHMARKS).join(', ')}`);
  process.exit(2);
}

// A copy under test (BENCH_ROOT) is built by whoever made it.
if (!process.env.BENCH_ROOT) {
  ensureInstalled();
  ensureBuilt();
}

const results = [];
for (const name of chosen.length ? chosen : Object.keys(BENCHMARKS)) {
  console.log(`\n=== ${name} (${root}) ===\n`);
  try {
    results.push(await BENCHMARKS[name]());
  } catch (error) {
    console.error(error);
    results.push({ name, checks: [{ what: `${name} ran`, ok: false, value: error instanceof Error ? error.message : String(error) }] });
  }
}

const summary = [
  `# Benchmarks`,
  ``,
  `${new Date().toISOString()} · ${results.map((r) => r.name).join(', ')}`,
  ``,
  ...results.flatMap((r) => [`## ${r.name}`, ``, ...r.checks.map(checkLine), ``]),
].join('\n');
if (!chosen.length) await writeFile(path.join(resultsDir, 'summary.md'), summary);
console.log(`\n${summary}`);
const missed = results.flatMap((r) => r.checks.filter((c) => !c.ok).map((c) => `${r.name}: ${c.what} (${c.value})`));
if (missed.length) {
  console.log(`Missed:\n${missed.map((m) => `  - ${m}`).join('\n')}`);
  process.exitCode = 1;
}
