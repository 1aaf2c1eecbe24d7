// Per-request overhead: GET /healthz of the real app (dist/server/main.js:
// its real config, security headers, request ids, JSON logging at the default
// level into a file) against a bare node:http server giving the same answer:
// the same JSON and the same header block, read from the app's answer first
// (bench/bare-server.mjs), and plain Fastify giving the same answer
// (bench/fastify-server.mjs). The target is on the app against plain Fastify:
// the app's own share of the overhead (issue 22); the framework's share (Fastify
// against bare node:http) is reported beside it. Each server
// runs in a process of its own; the load generator (autocannon) runs in this
// one, with the same connections and duration for all, in short runs that take
// turns.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cannon, cpuMs, median, sleep, startNode, summarise, report, runIfMain } from './lib.mjs';

/** The app's requests/s ÷ plain Fastify's giving the same answer (issue 22: the app's own share of the overhead). */
export const HTTP_TARGET = 0.85;
const APP_PORT = Number(process.env.BENCH_HTTP_APP_PORT ?? 3310);
const BARE_PORT = Number(process.env.BENCH_HTTP_BARE_PORT ?? 3311);
const FASTIFY_PORT = Number(process.env.BENCH_HTTP_FASTIFY_PORT ?? 3315);
const CONNECTIONS = Number(process.env.BENCH_HTTP_CONNECTIONS ?? 10);
// Short runs, alternated many times: other work on the machine comes and goes,
// and each round (bare, Fastify and app, in turns that rotate) shares its moment.
const DURATION = Number(process.env.BENCH_HTTP_SECONDS ?? 2);
const ROUNDS = Number(process.env.BENCH_HTTP_ROUNDS ?? 11);
// Both servers warm up first: the app's code is compiled as it runs, and its first seconds are not its steady state.
const WARMUP = Number(process.env.BENCH_HTTP_WARMUP_SECONDS ?? 10);

/** Headers every answer of the app must carry (the security set and the request id). */
const REQUIRED_HEADERS = [
  'x-request-id',
  'content-security-policy',
  'x-content-type-options',
  'referrer-policy',
  'x-frame-options',
  'cross-origin-opener-policy',
  'cross-origin-resource-policy',
  'origin-agent-cluster',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
];
/** Headers node:http itself adds to every answer (and computes for the bare server too). */
const NODE_HEADERS = new Set(['date', 'connection', 'keep-alive', 'content-length', 'content-type']);

export async function runHttpOverhead() {
  const work = mkdtempSync(path.join(tmpdir(), 'coverly-bench-http-'));
  const logFile = path.join(work, 'app.log');
  const app = await startNode(['dist/server/main.js'], {
    logFile,
    readyUrl: `http://127.0.0.1:${APP_PORT}/readyz`,
    // LOG_LEVEL unset: the default level (info), as in production.
    env: {
      PORT: String(APP_PORT),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${APP_PORT}`,
      DATA_DIR: path.join(work, 'data'),
      LOG_LEVEL: '',
      DATABASE_URL: '',
      SMTP_URL: '',
    },
  });
  // What the app answers: every security header and a request id. The bare server answers with the
  // same header block (its request id fixed), so both put the same bytes on the wire. Every probe
  // closes its connection: none of the servers keeps an idle one from the bench during the load.
  const once = { headers: { connection: 'close' } };
  const probe = await fetch(`http://127.0.0.1:${APP_PORT}/healthz`, once);
  const missing = REQUIRED_HEADERS.filter((name) => !probe.headers.get(name));
  const body = await probe.text();
  const sameHeaders = Object.fromEntries([...probe.headers].filter(([name]) => !NODE_HEADERS.has(name)));
  let bare;
  let fastify;
  try {
    const yardstick = (file, port) =>
      startNode([fileURLToPath(new URL(file, import.meta.url))], {
        readyUrl: `http://127.0.0.1:${port}/healthz`,
        env: { PORT: String(port), BARE_HEADERS: JSON.stringify(sameHeaders) },
      });
    bare = await yardstick('./bare-server.mjs', BARE_PORT);
    fastify = await yardstick('./fastify-server.mjs', FASTIFY_PORT);
  } catch (error) {
    await Promise.all([app.stop(), bare?.stop()]);
    throw error;
  }
  try {
    const headerNames = (response) => [...response.headers.keys()].sort().join(',');
    const sameAs = async (port) => {
      const response = await fetch(`http://127.0.0.1:${port}/healthz`, once);
      return (await response.text()) === body && headerNames(response) === headerNames(probe);
    };
    const bareProbe = await fetch(`http://127.0.0.1:${BARE_PORT}/healthz`, once);
    await bareProbe.arrayBuffer();
    const sameAnswer = (await sameAs(BARE_PORT)) && (await sameAs(FASTIFY_PORT));

    const servers = {
      app: { port: APP_PORT, pid: app.child.pid },
      bare: { port: BARE_PORT, pid: bare.child.pid },
      fastify: { port: FASTIFY_PORT, pid: fastify.child.pid },
    };
    /** One run: requests/s, and the server's CPU time per request (user + system, all its threads). */
    const load = async (which) => {
      const { port, pid } = servers[which];
      const cpuBefore = cpuMs(pid);
      const result = summarise(await cannon({ url: `http://127.0.0.1:${port}/healthz`, connections: CONNECTIONS, duration: DURATION }));
      const cpu = cpuMs(pid);
      return {
        ...result,
        requestsPerSecond: Math.round(result.totalRequests / result.durationSeconds),
        cpuMicrosPerRequest: cpu === null || cpuBefore === null ? null : Number(((1000 * (cpu - cpuBefore)) / result.totalRequests).toFixed(1)),
      };
    };
    // The app as it is once anyone has used it: one API request through the session check (a 401 here).
    // Its first one turns on Node's async hooks for the rest of the process (better-auth keeps its
    // request context in AsyncLocalStorage, which on Node 20 and 22 runs on async hooks), and every
    // request after pays for them: a fresh process that has answered only /healthz would flatter it.
    const apiProbe = await fetch(`http://127.0.0.1:${APP_PORT}/api/me`, once);
    await apiProbe.arrayBuffer();
    for (const port of [BARE_PORT, FASTIFY_PORT, APP_PORT])
      await cannon({ url: `http://127.0.0.1:${port}/healthz`, connections: CONNECTIONS, duration: WARMUP });
    const logBytesBefore = statSync(logFile).size;
    const rounds = [];
    const turns = ['bare', 'fastify', 'app'];
    for (let i = 0; i < ROUNDS; i++) {
      // Rotate which goes first, so none always runs on a warmer machine.
      const order = [...turns.slice(i % 3), ...turns.slice(0, i % 3)];
      const round = {};
      for (const which of order) {
        round[which] = await load(which);
        await sleep(100);
      }
      const ratioOf = (a, b) => Number((round[a].requestsPerSecond / round[b].requestsPerSecond).toFixed(3));
      rounds.push({
        ...round,
        ratio: ratioOf('app', 'bare'),
        fastifyRatio: ratioOf('fastify', 'bare'),
        appToFastify: ratioOf('app', 'fastify'),
        cpuRatio: round.app.cpuMicrosPerRequest ? Number((round.bare.cpuMicrosPerRequest / round.app.cpuMicrosPerRequest).toFixed(3)) : null,
      });
    }
    // Every answer logged, each log line of a request carrying its reqId (the log is written in blocks: let it flush).
    await sleep(600);
    const lines = readFileSync(logFile, 'utf8').slice(logBytesBefore).split('\n').filter(Boolean);
    const requestLines = lines.filter((line) => line.includes('"reqId"'));
    const appRequests = rounds.reduce((sum, r) => sum + r.app.totalRequests, 0);
    const sample = JSON.parse(requestLines.at(-1) ?? '{}');

    const bareRps = median(rounds.map((r) => r.bare.requestsPerSecond));
    const appRps = median(rounds.map((r) => r.app.requestsPerSecond));
    const ratio = median(rounds.map((r) => r.ratio));
    const cpuRatio = rounds[0].cpuRatio === null ? null : median(rounds.map((r) => r.cpuRatio));
    const cpu = (which) => (cpuRatio === null ? null : median(rounds.map((r) => r[which].cpuMicrosPerRequest)));
    const fastifyRps = median(rounds.map((r) => r.fastify.requestsPerSecond));
    const fastifyRatio = median(rounds.map((r) => r.fastifyRatio));
    const appToFastify = median(rounds.map((r) => r.appToFastify));
    const failures = rounds.reduce((sum, r) => sum + turns.reduce((inner, which) => inner + r[which].errors + r[which].non2xx, 0), 0);
    const checks = [
      { what: `app ÷ plain Fastify requests/s ≥ ${HTTP_TARGET}`, ok: appToFastify >= HTTP_TARGET, value: appToFastify },
      {
        what: 'every security header and x-request-id on the answer',
        ok: missing.length === 0 && body === '{"status":"ok"}',
        value: missing.length ? `missing ${missing.join(', ')}` : 'all present',
      },
      {
        what: 'every request logged with its reqId',
        ok: requestLines.length >= appRequests && typeof sample.reqId === 'string',
        value: `${requestLines.length} request log lines for ${appRequests} requests`,
      },
      { what: 'no errors or non-2xx answers under load', ok: failures === 0, value: failures },
      { what: 'bare node:http and plain Fastify answer the same JSON with the same headers', ok: sameAnswer, value: sameAnswer ? 'same' : 'different' },
    ];
    const result = {
      date: new Date().toISOString(),
      node: process.version,
      what: 'GET /healthz: the real app (dist/server/main.js, LOG_LEVEL default, log to a file) vs bare node:http giving the same answer (JSON and headers), and plain Fastify giving it too, each in its own process, autocannon in the bench process',
      connections: CONNECTIONS,
      durationSeconds: DURATION,
      rounds,
      bareRequestsPerSecond: bareRps,
      appRequestsPerSecond: appRps,
      fastifyRequestsPerSecond: fastifyRps,
      ratio,
      fastifyRatio,
      appToFastify,
      target: HTTP_TARGET,
      cpuMicrosPerRequest: { bare: cpu('bare'), fastify: cpu('fastify'), app: cpu('app') },
      cpuRatio,
      logLinesPerRequest: Number((requestLines.length / appRequests).toFixed(2)),
      sampleLogLine: sample,
      answerHeaders: Object.fromEntries(probe.headers),
      bareAnswerHeaders: Object.fromEntries(bareProbe.headers),
      checks,
    };
    const md = [
      `# Per-request overhead: GET /healthz`,
      ``,
      `${result.date} · Node ${result.node} · autocannon, ${CONNECTIONS} connections, every server warmed up for ${WARMUP} s, then ${ROUNDS} rounds of ${DURATION} s runs, one per server in rotating turns (medians of the rounds' ratios)`,
      ``,
      `| round | bare node:http req/s | plain Fastify req/s | app req/s | app ÷ bare | Fastify ÷ bare | app ÷ Fastify | bare CPU µs/req | Fastify CPU µs/req | app CPU µs/req | app p99 ms |`,
      `|---|---|---|---|---|---|---|---|---|---|---|`,
      ...rounds.map(
        (r, i) =>
          `| ${i + 1} | ${r.bare.requestsPerSecond} | ${r.fastify.requestsPerSecond} | ${r.app.requestsPerSecond} | ${r.ratio} | ${r.fastifyRatio} | ${r.appToFastify} | ${r.bare.cpuMicrosPerRequest} | ${r.fastify.cpuMicrosPerRequest} | ${r.app.cpuMicrosPerRequest} | ${r.app.latencyMs.p99} |`,
      ),
      `| **median** | **${bareRps}** | **${fastifyRps}** | **${appRps}** | **${ratio}** | **${fastifyRatio}** | **${appToFastify}** | **${cpu('bare')}** | **${cpu('fastify')}** | **${cpu('app')}** | |`,
      ``,
      `The bare server and plain Fastify answer with the app's own header block (${Object.keys(sameHeaders).length} headers: the security set and an x-request-id), so all three put the same bytes on the wire.`,
      `Plain Fastify (bench/fastify-server.mjs: no logger, one hook, one route) is the framework alone: Fastify ÷ bare is its share of the overhead, app ÷ Fastify the app's own (hooks, logger, request log line, AsyncLocalStorage).`,
      `Before the warm-up the app answers one API request (GET /api/me, 401), as any app in use has: from then on Node's async hooks are on (AsyncLocalStorage, better-auth's and the app's, runs on them on Node 20 and 22) and every request pays for them.`,
      `The target is on requests/s, app ÷ plain Fastify. CPU time per request (from /proc, all the server's threads) is shown beside it: it is less disturbed by other work on the machine.`,
      ``,
      `App log: ${result.logLinesPerRequest} lines with a reqId per request (JSON to a file, level info).`,
    ];
    return await report('http-overhead', result, md, checks);
  } finally {
    await Promise.all([app.stop(), bare.stop(), fastify.stop()]);
    rmSync(work, { recursive: true, force: true });
  }
}

await runIfMain(import.meta.url, runHttpOverhead);
