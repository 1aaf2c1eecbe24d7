// Shared helpers for the benchmarks in bench/: child servers, autocannon,
// results files. Every benchmark sends traffic to 127.0.0.1 only, for a
// bounded time.
import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { openSync, closeSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';

/** The repository the benchmarks measure: this one, or BENCH_ROOT (a copy with changes to try). */
export const root = path.resolve(process.env.BENCH_ROOT ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..'));
/** bench/results, or BENCH_RESULTS_DIR (when measuring a copy, say). */
export const resultsDir = path.resolve(process.env.BENCH_RESULTS_DIR ?? path.join(path.dirname(fileURLToPath(import.meta.url)), 'results'));

/** `server` (a PostgreSQL URL) with its database replaced by `name`: a benchmark's scratch database on the same server. */
export function scratchDatabaseUrl(server, name) {
  const url = new URL(server);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs `fn` with a connected pg client of `url`, and closes it after. */
export async function withClient(url, fn) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Makes the scratch database `name` on `server` afresh (dropping what an earlier run left) and resolves with its URL. */
export async function createScratchDatabase(server, name) {
  await withClient(server, async (client) => {
    await client.query(`drop database if exists ${name} with (force)`);
    await client.query(`create database ${name}`);
  });
  return scratchDatabaseUrl(server, name);
}

/** Drops the scratch database `name` on `server`, if it can: a benchmark's last step, which must not hide its result. */
export const dropScratchDatabase = (server, name) =>
  withClient(server, (client) => client.query(`drop database if exists ${name} with (force)`)).catch(() => {});

/**
 * The environment of the built app under a benchmark: on 127.0.0.1:`port`
 * with its own data folder, fresh secrets, no SMTP (mail goes to the file
 * drop) and warnings only in its log; PGlite unless `databaseUrl`. `extra`
 * adds or overrides variables.
 */
export const appEnv = ({ port, dataDir, databaseUrl = '' }, extra = {}) => ({
  PORT: String(port),
  HOST: '127.0.0.1',
  PUBLIC_URL: `http://127.0.0.1:${port}`,
  DATA_DIR: dataDir,
  DATABASE_URL: databaseUrl,
  AUTH_SECRET: randomBytes(32).toString('base64url'),
  MASTER_KEY: randomBytes(32).toString('base64'),
  SMTP_URL: '',
  LOG_LEVEL: 'warn',
  ...extra,
});

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export async function waitForReady(url, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      // Read to the end and closed: no server under test keeps an idle connection from the bench.
      const response = await fetch(url, { headers: { connection: 'close' } });
      await response.arrayBuffer();
      if (response.ok) return;
    } catch {
      // not up yet
    }
    await sleep(100);
  }
  throw new Error(`${url} did not become ready`);
}

/**
 * Starts `node <args>` with its standard output written to `logFile` (a real
 * destination: the app's JSON log lines land there). Resolves once `readyUrl` answers.
 */
export async function startNode(args, { env = {}, logFile = '/dev/null', readyUrl, cwd = root }) {
  const out = openSync(logFile, 'a');
  const child = spawn(process.execPath, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', out, 'inherit'] });
  closeSync(out);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.once('exit', (code, signal) => {
    if (!child.stopping) console.error(`${args.join(' ')} exited early (${code ?? signal})`);
  });
  try {
    await Promise.race([waitForReady(readyUrl), exited.then(() => Promise.reject(new Error(`${args.join(' ')} exited before it was ready`)))]);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return {
    child,
    async stop() {
      child.stopping = true;
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 25_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * CPU time (user + system, ms) a process has used so far, from /proc (Linux);
 * null elsewhere. Less disturbed than requests/s by other work on the machine.
 */
export function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    // utime and stime are fields 14 and 15 of the line, in clock ticks (100 per second on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

/** One autocannon run; resolves with its result (requests/s, latency, errors, non-2xx). */
export function cannon(options) {
  return new Promise((resolve, reject) => {
    const instance = autocannon({ connections: 10, pipelining: 1, ...options }, (error, result) => (error ? reject(error) : resolve(result)));
    // Surface nothing per request; autocannon's own progress bar is not wanted in CI logs.
    void instance;
  });
}

/** The figures we keep from an autocannon result. */
export const summarise = (result) => ({
  requestsPerSecond: Math.round(result.requests.average),
  totalRequests: result.requests.total,
  durationSeconds: Number(result.duration.toFixed(2)),
  latencyMs: { p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max },
  errors: result.errors,
  timeouts: result.timeouts,
  non2xx: result.non2xx,
});

export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/** Writes bench/results/<name>.json and .md. */
export const checkLine = (c) => `- ${c.ok ? 'met' : 'MISSED'}: ${c.what} (${c.value})`;

/**
 * A benchmark's results: `bench/results/<name>.json` (the whole `result`) and
 * `<name>.md` (its `lines`, then a line per target), printed too. Resolves with
 * what bench/run.mjs summarises.
 */
export async function report(name, result, lines, checks) {
  const markdown = [...lines, ``, `## Targets`, ``, ...checks.map(checkLine), ``].join('\n');
  await mkdir(resultsDir, { recursive: true });
  await writeFile(path.join(resultsDir, `${name}.json`), `${JSON.stringify(result, null, 2)}\n`);
  await writeFile(path.join(resultsDir, `${name}.md`), markdown);
  console.log(markdown);
  return { name, checks };
}

/** Runs a benchmark when its file is run by itself (`node bench/http-overhead.mjs`): exit 1 on a missed target. */
export async function runIfMain(moduleUrl, run) {
  if (moduleUrl !== `file://${process.argv[1]}`) return;
  const { checks } = await run();
  if (checks.some((c) => !c.ok)) process.exitCode = 1;
}
