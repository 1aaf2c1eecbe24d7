// The live loan page's stream (issue 17): 1,000 viewers of one loan, against
// a bare node:http SSE server broadcasting the same events in the same run
// (bench/bare-sse-server.mjs):
//
//   latency      post → arrival at every viewer, p50 / p99 over every
//                viewer × event pair; app p99 ≤ 100 ms, the bare server's beside it
//   disconnects  50 viewers' sockets cut during a burst of 500 events; they
//                reconnect with Last-Event-ID: 0 lost, 0 duplicated at any viewer
//   two instances  the same burst with the viewers split across two app
//                instances on one PostgreSQL database: 0 lost
//   reported     memory per idle connection (server RSS growth ÷ connections),
//                server CPU idle and while events flow, at 1,000 viewers
//
// The viewers run in BENCH_REALTIME_CLIENTS (default 4) child processes
// (bench/realtime-viewers.mjs), not in the measured server's process nor in
// this one; on a 2-core machine they still share the cores with the server,
// which delays the bare server and the app alike. Times are the monotonic
// clock (process.hrtime, one clock for every process): the bare server's
// events carry their POST's time in their text; the app's events are the
// owner's shared comments, whose `comment.posted` events carry the comment's
// id and never its text (decision 019), so each POST's send time is kept
// here with the id its answer returns and matched with the viewers'
// arrivals afterwards. The app runs with COMMENT_RATE_LIMIT raised for the
// bench: one person posts every event.
//
// Should the stream not answer (`GET /api/events`), the app half says so and
// its targets count as missed (exit 1): no figure is made up. The bare half
// always runs and proves the harness.
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { appEnv, cpuMs, createScratchDatabase, dropScratchDatabase, report, scratchDatabaseUrl, runIfMain, sleep, startNode } from './lib.mjs';
import { runNode, send, signIn } from './session.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const VIEWERS = Number(process.env.BENCH_REALTIME_VIEWERS ?? 1000);
const CLIENTS = Number(process.env.BENCH_REALTIME_CLIENTS ?? 4);
const LATENCY_EVENTS = Number(process.env.BENCH_REALTIME_EVENTS ?? 100);
const LATENCY_GAP_MS = 50;
const BURST = 500;
const DROPS = 50;
const P99_TARGET_MS = 100;
const BARE_PORT = Number(process.env.BENCH_REALTIME_PORT ?? 3295);
const APP_PORTS = [BARE_PORT + 1, BARE_PORT + 2];
const SERVER_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const DATABASE = 'coverly_bench_realtime';
const databaseUrl = scratchDatabaseUrl(SERVER_URL, DATABASE);

const rssOf = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) * 1024;
const percentile = (sorted, q) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] : null);
const round2 = (n) => (n === null ? null : Number(n.toFixed(2)));
const mark = (round, seq) => `bench:${round}:${seq}:${process.hrtime.bigint()}`;

/** The viewer processes, and the viewers spread over them (viewer i lives in process i % CLIENTS). */
class Viewers {
  constructor() {
    this.children = Array.from({ length: CLIENTS }, () => fork(path.join(here, 'realtime-viewers.mjs'), { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }));
    this.errors = [];
    for (const child of this.children) child.on('message', (message) => message.type === 'error' && this.errors.push(message.message));
  }

  ask(child, message, answer) {
    return new Promise((resolve) => {
      const listen = (reply) => {
        if (reply.type !== answer) return;
        child.off('message', listen);
        resolve(reply);
      };
      child.on('message', listen);
      child.send(message);
    });
  }

  all(message, answer) {
    return Promise.all(this.children.map((child) => this.ask(child, message, answer)));
  }

  /** Opens `count` viewers on `url`, spread evenly over the processes, each with one of `headers` in turn; resolves once all are connected. */
  async open(url, count, headers) {
    await Promise.all(
      this.children.map((child, c) => {
        const share = Math.floor(count / CLIENTS) + (c < count % CLIENTS ? 1 : 0);
        return share ? this.ask(child, { type: 'open', url, count: share, headers }, 'opened') : null;
      }),
    );
  }

  /** A new round of `count` events, known `by` 'mark' (in their text) or 'commentId' (matched at `collect`). */
  expect(round, count, by) {
    return this.all({ type: 'expect', round, count, by }, 'expecting');
  }

  /** Cuts viewer `index`'s socket (the index-th viewer over all processes). */
  drop(index) {
    return this.ask(this.children[index % CLIENTS], { type: 'drop', indexes: [Math.floor(index / CLIENTS)] }, 'dropped');
  }

  async wait(timeoutMs) {
    return (await this.all({ type: 'wait', timeoutMs }, 'waited')).every((reply) => reply.complete);
  }

  /** The round's figures; `posted` ([commentId, seq, sentNs][]) when its events are known by comment id. */
  async collect(posted) {
    const replies = await this.all({ type: 'collect', posted }, 'collected');
    const latencies = replies.flatMap((reply) => reply.latenciesMs).sort((a, b) => a - b);
    const sum = (key) => replies.reduce((total, reply) => total + reply[key], 0);
    return {
      viewers: sum('viewers'),
      pairs: latencies.length,
      p50Ms: round2(percentile(latencies, 0.5)),
      p99Ms: round2(percentile(latencies, 0.99)),
      maxMs: round2(latencies.at(-1) ?? null),
      lost: sum('lost'),
      duplicated: sum('duplicated'),
      strays: sum('strays'),
      viewersWithLoss: sum('viewersWithLoss'),
      viewersWithDuplicates: sum('viewersWithDuplicates'),
      connects: sum('connects'),
    };
  }

  async close() {
    await Promise.all(
      this.children.map(
        (child) =>
          new Promise((resolve) => {
            child.once('exit', resolve);
            child.send({ type: 'close' });
          }),
      ),
    );
  }
}

/**
 * Posts one event of a round through `post(round, seq)` (resolves with the
 * comment's id when events are known by id), noting when it was sent.
 */
function poster(post) {
  let posted = [];
  return {
    async send(round, seq) {
      const sentNs = process.hrtime.bigint();
      const commentId = await post(round, seq);
      if (commentId) posted.push([commentId, seq, String(sentNs)]);
    },
    /** What was posted since the last call (sent with `collect`). */
    take() {
      const taken = posted;
      posted = [];
      return taken;
    },
  };
}

/**
 * The measurements of one server: `pid` the server's process, `url` its
 * stream, `post(round, seq)` one event through it (resolves when answered,
 * with the comment's id when `by` is 'commentId').
 */
async function measure({ name, pid, url, headers, post, by }) {
  const viewers = new Viewers();
  const events = poster(post);
  try {
    const rssBefore = rssOf(pid);
    await viewers.open(url, VIEWERS, headers);
    await sleep(2000);
    const rssAfter = rssOf(pid);
    const idleFrom = cpuMs(pid);
    await sleep(5000);
    const idleCpuPercent = round2((cpuMs(pid) - idleFrom) / 50);

    // Latency: one event every 20 ms, each timed from just before its POST to its arrival at each viewer.
    await viewers.expect('latency', LATENCY_EVENTS, by);
    const flowFrom = cpuMs(pid);
    const flowStarted = Date.now();
    for (let seq = 0; seq < LATENCY_EVENTS; seq++) {
      await events.send('latency', seq);
      await sleep(LATENCY_GAP_MS);
    }
    const latencyComplete = await viewers.wait(20_000);
    const flowingCpuPercent = round2(((cpuMs(pid) - flowFrom) / (Date.now() - flowStarted)) * 100);
    const latency = { ...(await viewers.collect(events.take())), complete: latencyComplete };

    // Disconnects: a burst of 500 events, as fast as they are answered, with a viewer's socket cut after every tenth.
    await viewers.expect('burst', BURST, by);
    for (let seq = 0; seq < BURST; seq++) {
      await events.send('burst', seq);
      if (seq % (BURST / DROPS) === BURST / DROPS - 1) await viewers.drop(Math.floor((seq * VIEWERS) / BURST) % VIEWERS);
    }
    const burstComplete = await viewers.wait(30_000);
    const burst = { ...(await viewers.collect(events.take())), complete: burstComplete };
    console.log(`${name}: latency p50 ${latency.p50Ms} ms, p99 ${latency.p99Ms} ms; burst lost ${burst.lost}, duplicated ${burst.duplicated}`);
    return {
      viewers: VIEWERS,
      rssPerIdleConnectionKb: round2((rssAfter - rssBefore) / VIEWERS / 1024),
      rssGrowthMb: round2((rssAfter - rssBefore) / 1024 / 1024),
      idleCpuPercent,
      flowingCpuPercent,
      latency,
      burst,
      errors: viewers.errors.slice(0, 5),
    };
  } finally {
    await viewers.close();
  }
}

async function runBare(work) {
  const server = await startNode([path.join(here, 'bare-sse-server.mjs')], {
    env: { PORT: String(BARE_PORT) },
    logFile: path.join(work, 'bare.log'),
    readyUrl: `http://127.0.0.1:${BARE_PORT}/healthz`,
  });
  try {
    const base = `http://127.0.0.1:${BARE_PORT}`;
    return await measure({
      name: 'bare',
      pid: server.child.pid,
      url: `${base}/events`,
      headers: [{}],
      by: 'mark',
      post: async (round, seq) => {
        const answer = await send('POST', `${base}/broadcast`, { body: { text: mark(round, seq) } });
        if (answer.status !== 204) throw new Error(`the bare server answered ${answer.status}`);
      },
    });
  } finally {
    await server.stop();
  }
}

// --- The app ------------------------------------------------------------------

/** One event through the app: a shared comment by the owner; resolves with its id. */
const postComment = (base, loanId, cookie) => async (round, seq) => {
  const answer = await send('POST', `${base}/api/loans/${loanId}/comments`, {
    headers: { cookie, origin: base },
    body: { body: mark(round, seq), visibility: 'shared' },
  });
  if (answer.status !== 201) throw new Error(`posting a comment answered ${answer.status}: ${answer.body}`);
  return JSON.parse(answer.body).id;
};

/** The status and type of `GET url`'s answer, without reading a stream's body. */
function probe(url, headers) {
  return new Promise((resolve) => {
    const req = request(url, { headers: { accept: 'text/event-stream', ...headers } }, (res) => {
      resolve({ status: res.statusCode, type: String(res.headers['content-type'] ?? '') });
      req.destroy();
    });
    req.on('error', (error) => resolve({ status: 0, type: error.message }));
    req.end();
  });
}

async function signInBorrower(base, borrower) {
  const answer = await send('POST', `${base}/api/auth/sign-in/email`, {
    headers: { origin: base },
    body: { email: borrower.email, password: borrower.password },
  });
  if (answer.status !== 200) throw new Error(`the borrower's sign-in answered ${answer.status}: ${answer.body}`);
  return [answer.headers['set-cookie'] ?? []]
    .flat()
    .map((line) => line.split(';')[0])
    .join('; ');
}

async function runApp(work) {
  await createScratchDatabase(SERVER_URL, DATABASE);
  const bases = APP_PORTS.map((port) => `http://127.0.0.1:${port}`);
  const shared = { authSecret: randomBytes(32).toString('base64url'), masterKey: randomBytes(32).toString('base64') };
  // Both instances share the secrets (a session signed by one is good at the other); one person posts every event.
  const envOf = (i) =>
    appEnv(
      { port: APP_PORTS[i], dataDir: path.join(work, `app-${i}`), databaseUrl },
      {
        PUBLIC_URL: bases[0],
        AUTH_SECRET: shared.authSecret,
        MASTER_KEY: shared.masterKey,
        COMMENT_RATE_LIMIT: '100000',
        REALTIME_STREAMS_PER_PERSON: '100000',
      },
    );
  const instances = [];
  try {
    const seeded = JSON.parse(await runNode(['dist/server/cli.js', 'seed-demo', '--json'], envOf(0)));
    const start = async (i) =>
      instances.push(await startNode(['dist/server/main.js'], { env: envOf(i), logFile: path.join(work, `app-${i}.log`), readyUrl: `${bases[i]}/readyz` }));
    await start(0);
    const borrower = seeded.borrowers.find((b) => b.loans.length > 0);
    if (!borrower) throw new Error('the demo seed gave no borrower a loan');
    const loanId = borrower.loans[0].loanId;
    // Two thirds of the viewers on team sessions (the owner's and the assistant's), a third on the borrower's.
    const cookies = [await signIn(bases[0], seeded.owner), await signIn(bases[0], seeded.assistant), await signInBorrower(bases[0], borrower)];
    const headers = cookies.map((cookie) => ({ cookie }));
    const streamOf = (base) => `${base}/api/events?loans=${loanId}`;

    const answered = await probe(streamOf(bases[0]), headers[0]);
    if (answered.status !== 200 || !answered.type.startsWith('text/event-stream')) {
      return { available: false, why: `GET /api/events answered ${answered.status} ${answered.type}: no stream to measure` };
    }

    const post = postComment(bases[0], loanId, cookies[0]);
    const one = await measure({ name: 'app', pid: instances[0].child.pid, url: streamOf(bases[0]), headers, post, by: 'commentId' });

    // Two instances: half the viewers on each, the events posted through the first.
    await start(1);
    const viewers = new Viewers();
    const events = poster(post);
    let twoInstances;
    try {
      await viewers.open(streamOf(bases[0]), VIEWERS / 2, headers);
      await viewers.open(streamOf(bases[1]), VIEWERS / 2, headers);
      await viewers.expect('split', BURST, 'commentId');
      for (let seq = 0; seq < BURST; seq++) await events.send('split', seq);
      const complete = await viewers.wait(30_000);
      twoInstances = { ...(await viewers.collect(events.take())), complete };
    } finally {
      await viewers.close();
    }
    return { available: true, one, twoInstances };
  } finally {
    for (const instance of instances) await instance.stop();
    await dropScratchDatabase(SERVER_URL, DATABASE);
  }
}

/** The open-files limit this process (and so its children) runs under, from /proc; null elsewhere. */
function openFilesLimit() {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    const soft = line?.split(/\s{2,}/)[1];
    return soft === 'unlimited' ? Infinity : Number(soft);
  } catch {
    return null;
  }
}

export async function runRealtime() {
  // Each server holds a socket per viewer; the bench's children inherit this limit.
  const limit = openFilesLimit();
  if (limit !== null && limit < VIEWERS + 256) {
    throw new Error(`${VIEWERS} viewers need more open files than this shell allows (${limit}): raise it first, e.g. \`ulimit -n ${VIEWERS * 2 + 1024}\``);
  }
  const work = mkdtempSync(path.join(tmpdir(), 'coverly-bench-realtime-'));
  let bare;
  let app;
  try {
    bare = await runBare(work);
    app = await runApp(work).catch((error) => ({ available: false, why: `the app half failed: ${error.message}` }));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }

  const load = loadavg().map((n) => n.toFixed(1));
  const result = {
    loadAverage: load,
    node: process.version,
    viewers: VIEWERS,
    clientProcesses: CLIENTS,
    latencyEvents: LATENCY_EVENTS,
    burst: BURST,
    drops: DROPS,
    bare,
    app,
  };
  const row = (name, r) =>
    `| ${name} | ${r.latency.p50Ms} | ${r.latency.p99Ms} | ${r.latency.maxMs} | ${r.burst.lost} | ${r.burst.duplicated} | ${r.burst.connects - r.viewers} | ${r.rssPerIdleConnectionKb} | ${r.idleCpuPercent} | ${r.flowingCpuPercent} |`;
  const lines = [
    `# Realtime: ${VIEWERS} viewers of one loan`,
    ``,
    `${new Date().toISOString()} · Node ${process.version} · ${VIEWERS} event-stream viewers in ${CLIENTS} client processes (not the server's) · ${LATENCY_EVENTS} events ${LATENCY_GAP_MS} ms apart for latency · a burst of ${BURST} with ${DROPS} sockets cut · load average ${load.join(' ')} on ${availableParallelism()} cores`,
    ``,
    `| server | p50 (ms) | p99 (ms) | max (ms) | burst: lost | burst: duplicated | reconnections | RSS per idle connection (KB) | CPU idle (% of a core) | CPU while events flow (%) |`,
    `|---|---|---|---|---|---|---|---|---|---|`,
    row('bare node:http SSE', bare),
    ...(app.available ? [row('app', app.one)] : []),
    ``,
    app.available
      ? `Two app instances on one PostgreSQL, ${VIEWERS / 2} viewers on each, ${BURST} events posted through the first: lost ${app.twoInstances.lost}, duplicated ${app.twoInstances.duplicated}.`
      : `The app half did not run: ${app.why}.`,
    ``,
    `Latency: from just before each POST to each viewer's arrival, over every viewer × event pair (the first arrival of each). The clients share this machine's cores with the server.`,
  ];
  const checks = [
    {
      what: `bare: ${VIEWERS} viewers, ${DROPS} sockets cut in a burst of ${BURST}: 0 lost, 0 duplicated (the harness)`,
      ok: bare.burst.lost === 0 && bare.burst.duplicated === 0 && bare.latency.lost === 0,
      value: `lost ${bare.burst.lost}, duplicated ${bare.burst.duplicated}; p99 ${bare.latency.p99Ms} ms`,
    },
  ];
  if (app.available) {
    checks.push(
      {
        what: `app: post → arrival p99 ≤ ${P99_TARGET_MS} ms at ${VIEWERS} viewers`,
        ok: app.one.latency.p99Ms <= P99_TARGET_MS && app.one.latency.lost === 0,
        value: `${app.one.latency.p99Ms} ms (bare ${bare.latency.p99Ms} ms)`,
      },
      {
        what: `app: ${DROPS} sockets cut in a burst of ${BURST}: 0 lost, 0 duplicated`,
        ok: app.one.burst.lost === 0 && app.one.burst.duplicated === 0,
        value: `lost ${app.one.burst.lost}, duplicated ${app.one.burst.duplicated}`,
      },
      {
        what: `app: two instances, viewers split: 0 lost`,
        ok: app.twoInstances.lost === 0 && app.twoInstances.duplicated === 0,
        value: `lost ${app.twoInstances.lost}, duplicated ${app.twoInstances.duplicated}`,
      },
    );
  } else {
    checks.push({ what: 'app: the stream to measure (GET /api/events)', ok: false, value: app.why });
  }
  return report('realtime', result, lines, checks);
}

await runIfMain(import.meta.url, runRealtime);
