// Per-request overhead: GET /healthz of the real app (dist/server/main.js:
// its real config, security headers, request ids, JSON logging at the default
// level into a file) against a bare node:http server giving the same answer:
// the same JSON and the same header block, read from the app's answer first
// (bench/bare-server.mjs). Both servers run in processes of their own; the load
// generator (autocannon) runs in this one, with the same connections and
// duration for both, in short runs that alternate.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cannon, checkLine, cpuMs, median, sleep, startNode, summarise, writeResults } from './lib.mjs';

export const HTTP_TARGET = 0.8;
const APP_PORT = Number(process.env.BENCH_HTTP_APP_PORT ?? 3310);
const BARE_PORT = Number(process.env.BENCH_HTTP_BARE_PORT ?? 3311);
const CONNECTIONS = Number(process.env.BENCH_HTTP_CONNECTIONS ?? 10);
// Short runs, alternated many times: other work on the machine comes and goes,
// and each pair (bare then app, or app then bare) shares its moment.
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
  // same header block (its request id fixed), so both put the same bytes on the wire.
  const probe = await fetch(`http://127.0.0.1:${APP_PORT}/healthz`);
  const missing = REQUIRED_HEADERS.filter((name) => !probe.headers.get(name));
  const body = await probe.text();
  const sameHeaders = Object.fromEntries([...probe.headers].filter(([name]) => !NODE_HEADERS.has(name)));
  let bare;
  try {
    bare = await startNode([fileURLToPath(new URL('./bare-server.mjs', import.meta.url))], {
      readyUrl: `http://127.0.0.1:${BARE_PORT}/healthz`,
      env: { PORT: String(BARE_PORT), BARE_HEADERS: JSON.stringify(sameHeaders) },
    });
  } catch (error) {
    await app.stop();
    throw error;
  }
  try {
    const bareProbe = await fetch(`http://127.0.0.1:${BARE_PORT}/healthz`);
    const bareBody = await bareProbe.text();
    const headerNames = (response) => [...response.headers.keys()].sort().join(',');
    const sameAnswer = bareBody === body && headerNames(bareProbe) === headerNames(probe);

    const servers = { app: { port: APP_PORT, pid: app.child.pid }, bare: { port: BARE_PORT, pid: bare.child.pid } };
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
    await cannon({ url: `http://127.0.0.1:${BARE_PORT}/healthz`, connections: CONNECTIONS, duration: WARMUP });
    await cannon({ url: `http://127.0.0.1:${APP_PORT}/healthz`, connections: CONNECTIONS, duration: WARMUP });
    const logBytesBefore = statSync(logFile).size;
    const rounds = [];
    for (let i = 0; i < ROUNDS; i++) {
      // Alternate which goes first, so neither always runs on a warmer machine.
      const order = i % 2 === 0 ? ['bare', 'app'] : ['app', 'bare'];
      const round = {};
      for (const which of order) {
        round[which] = await load(which);
        await sleep(100);
      }
      rounds.push({
        ...round,
        ratio: Number((round.app.requestsPerSecond / round.bare.requestsPerSecond).toFixed(3)),
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
    const failures = rounds.reduce((sum, r) => sum + r.app.errors + r.app.non2xx + r.bare.errors + r.bare.non2xx, 0);
    const checks = [
      { what: `app ÷ bare node:http requests/s ≥ ${HTTP_TARGET}`, ok: ratio >= HTTP_TARGET, value: ratio },
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
      { what: 'the bare server answers the same JSON with the same headers', ok: sameAnswer, value: sameAnswer ? 'same' : 'different' },
    ];
    const result = {
      date: new Date().toISOString(),
      node: process.version,
      what: 'GET /healthz: the real app (dist/server/main.js, LOG_LEVEL default, log to a file) vs bare node:http giving the same answer (JSON and headers), each in its own process, autocannon in the bench process',
      connections: CONNECTIONS,
      durationSeconds: DURATION,
      rounds,
      bareRequestsPerSecond: bareRps,
      appRequestsPerSecond: appRps,
      ratio,
      target: HTTP_TARGET,
      cpuMicrosPerRequest: { bare: cpu('bare'), app: cpu('app') },
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
      `${result.date} · Node ${result.node} · autocannon, ${CONNECTIONS} connections, both servers warmed up for ${WARMUP} s, then ${ROUNDS} alternating pairs of ${DURATION} s runs (median of the pairs' ratios)`,
      ``,
      `| pair | bare node:http req/s | app req/s | app ÷ bare | bare CPU µs/req | app CPU µs/req | bare ÷ app CPU | app p99 ms |`,
      `|---|---|---|---|---|---|---|---|`,
      ...rounds.map(
        (r, i) =>
          `| ${i + 1} | ${r.bare.requestsPerSecond} | ${r.app.requestsPerSecond} | ${r.ratio} | ${r.bare.cpuMicrosPerRequest} | ${r.app.cpuMicrosPerRequest} | ${r.cpuRatio} | ${r.app.latencyMs.p99} |`,
      ),
      `| **median** | **${bareRps}** | **${appRps}** | **${ratio}** | **${cpu('bare')}** | **${cpu('app')}** | **${cpuRatio}** | |`,
      ``,
      `The bare server answers with the app's own header block (${Object.keys(sameHeaders).length} headers: the security set and an x-request-id), so both put the same bytes on the wire.`,
      `The target is on requests/s. CPU time per request (from /proc, all the server's threads) is shown beside it: it is less disturbed by other work on the machine.`,
      ``,
      `App log: ${result.logLinesPerRequest} lines with a reqId per request (JSON to a file, level info).`,
      ``,
      `## Targets`,
      ``,
      ...checks.map(checkLine),
    ].join('\n');
    await writeResults('http-overhead', result, md);
    console.log(md);
    return { name: 'http-overhead', checks };
  } finally {
    await Promise.all([app.stop(), bare.stop()]);
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { checks } = await runHttpOverhead();
  if (checks.some((c) => !c.ok)) process.exitCode = 1;
}
