// The waitlist sign-up on PostgreSQL: POST /api/waitlist to the real app
// (dist/server/main.js on DATABASE_URL, its job worker delivering the mail
// into a file drop in a temp dir while the load runs) against pgbench running
// the sign-up transaction as first written (upsert, two outbox inserts, with
// the payloads the app itself wrote) on the same database, with as many
// clients as the load has connections. One app process runs throughout, warmed
// up first; short windows of the app and of pgbench alternate (which goes
// first alternates too), and the median of the pairs' ratios is the result.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  appEnv,
  cannon,
  createScratchDatabase,
  dropScratchDatabase,
  median,
  scratchDatabaseUrl,
  sleep,
  startNode,
  summarise,
  report,
  runIfMain,
  withClient,
} from './lib.mjs';

export const WAITLIST_TARGET = 0.7;
const PORT = Number(process.env.BENCH_WAITLIST_PORT ?? 3312);
const SERVER_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const DATABASE = 'coverly_bench_waitlist';
const CONNECTIONS = Number(process.env.BENCH_WAITLIST_CONNECTIONS ?? 10);
const DURATION = Number(process.env.BENCH_WAITLIST_SECONDS ?? 4);
const ROUNDS = Number(process.env.BENCH_WAITLIST_ROUNDS ?? 9);
const APP_WARMUP = Number(process.env.BENCH_WAITLIST_WARMUP_SECONDS ?? 15);
const PGBENCH_WARMUP = 2;
const DRAIN_LIMIT_MS = 120_000;

const databaseUrl = scratchDatabaseUrl(SERVER_URL, DATABASE);

/**
 * The yardstick: the sign-up transaction as the service first wrote it, in
 * drizzle's SQL (upsertWaitlistEntry, then enqueueJob twice, between BEGIN and
 * COMMIT), with a new address each time and the payloads the app wrote.
 */
function transactionScript() {
  return `\\set n random(1, 1000000000000)
BEGIN;
insert into "waitlist_entry" ("id", "full_name", "email", "phone", "company", "status", "submissions", "created_at", "updated_at", "invited_at") values (default, 'Pat Benchmark', 'pgbench-' || :client_id || '-' || :n || '@example.com', '+1 555 010 0199', 'Bench Lending LLC', default, default, default, default, default) on conflict ("email_key") do update set "full_name" = excluded.full_name, "email" = excluded.email, "phone" = coalesce(excluded.phone, "waitlist_entry"."phone"), "company" = coalesce(excluded.company, "waitlist_entry"."company"), "submissions" = "waitlist_entry"."submissions" + 1, "updated_at" = now() returning "id", "full_name", "email", "email_key", "phone", "company", "status", "submissions", "created_at", "updated_at", "invited_at";
insert into "job" ("id", "queue", "payload", "status", "attempts", "max_attempts", "run_at", "locked_until", "last_error", "created_at", "updated_at", "finished_at") values (default, 'mail.send', :notice, default, default, default, default, default, default, default, default, default) returning "id";
insert into "job" ("id", "queue", "payload", "status", "attempts", "max_attempts", "run_at", "locked_until", "last_error", "created_at", "updated_at", "finished_at") values (default, 'mail.send', :confirmation, default, default, default, default, default, default, default, default, default) returning "id";
COMMIT;
`;
}

/**
 * For comparison: the one statement the app now sends for a new address
 * (insertNewWaitlistEntry: the entry and its two outbox rows at once).
 */
function statementScript() {
  return `\\set n random(1, 1000000000000)
with entry as (
  insert into waitlist_entry (id, full_name, email, phone, company, status, submissions, created_at, updated_at)
  values (gen_random_uuid(), 'Pat Benchmark', 'pgbench-' || :client_id || '-' || :n || '@example.com', '+1 555 010 0199', 'Bench Lending LLC', 'new', 1, now(), now())
  on conflict (email_key) do nothing
  returning id
), jobs as (
  insert into job (queue, payload)
  select queue, payload from entry, (values (0, 'mail.send', cast(:notice as jsonb)), (1, 'mail.send', cast(:confirmation as jsonb))) as mail (n, queue, payload) order by n
  returning id
)
select (select count(*) from entry)::int as created, (select count(*) from jobs)::int as jobs;
`;
}

function findPgbench() {
  const candidates = [
    '/usr/bin/pgbench',
    ...(existsSync('/usr/lib/postgresql') ? readdirSync('/usr/lib/postgresql').map((v) => `/usr/lib/postgresql/${v}/bin/pgbench`) : []),
  ];
  const found = candidates.find((file) => existsSync(file));
  if (!found) throw new Error('pgbench not found: apt-get install -y postgresql-contrib (or postgresql-client)');
  return found;
}

function runPgbench(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(findPgbench(), args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (out += chunk));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`pgbench exited ${code}:\n${out}`))));
  });
}

const pgbenchTps = (output) => {
  const match = /tps = ([\d.]+) \(without initial connection time\)/.exec(output);
  if (!match) throw new Error(`no tps in pgbench output:\n${output}`);
  return Number(match[1]);
};

/**
 * The sign-ups' outbox rows (the mail queue) by status. Only that queue: the
 * app's worker keeps its recurring jobs (the storage sweep, the reminders…)
 * queued, each waiting up to a day, and they are not this benchmark's backlog.
 */
const jobCounts = (client) =>
  client
    .query(`select status, count(*)::int as n from job where queue = 'mail.send' group by status`)
    .then(({ rows }) => Object.fromEntries(rows.map((r) => [r.status, r.n])));

export async function runWaitlistPg() {
  // The mail drop goes to memory (tmpfs) when the machine has one: the disk is not what this measures.
  const work = mkdtempSync(path.join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'coverly-bench-waitlist-'));
  const dataDir = path.join(work, 'data');
  await createScratchDatabase(SERVER_URL, DATABASE);
  // No SMTP_URL: the worker delivers into the file drop, DATA_DIR/mail.
  const env = appEnv(
    { port: PORT, dataDir, databaseUrl },
    {
      // The default level (info), as in production.
      LOG_LEVEL: '',
      // The limit is per address and the load comes from one; it is not what this measures.
      WAITLIST_RATE_LIMIT: '100000',
      WAITLIST_RATE_WINDOW_SECONDS: '1',
    },
  );
  let run = 0;
  let sequence = 0;
  const signUps = (duration) =>
    cannon({
      url: `http://127.0.0.1:${PORT}`,
      connections: CONNECTIONS,
      duration,
      requests: [
        {
          method: 'POST',
          path: '/api/waitlist',
          headers: { 'content-type': 'application/json' },
          setupRequest: (request) => ({
            ...request,
            body: JSON.stringify({
              fullName: 'Pat Benchmark',
              email: `bench-${run}-${sequence++}@example.com`,
              phone: '+1 555 010 0199',
              company: 'Bench Lending LLC',
            }),
          }),
        },
      ],
    });

  let payloads = null;
  /**
   * Sets aside the mail rows nobody is to send (pgbench's, an earlier window's), so no window starts with another's mail.
   * The app's recurring jobs stay: set aside, the worker queues them again within a minute.
   */
  const setAside = async () => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await withClient(databaseUrl, (c) =>
          c.query(`update job set status = 'done', finished_at = now() where queue = 'mail.send' and status in ('pending', 'running')`),
        );
      } catch (error) {
        // The worker may be marking a batch done at the same moment, its rows locked in another order.
        if (error?.code !== '40P01' || attempt === 5) throw error;
      }
    }
  };
  const counts = () =>
    withClient(databaseUrl, async (c) => ({ entries: (await c.query('select count(*)::int as n from waitlist_entry')).rows[0].n, jobs: await jobCounts(c) }));

  /** One window of sign-ups to the running app, its worker delivering mail meanwhile. */
  async function appWindow(i) {
    run = i;
    const before = await counts();
    const result = summarise(await signUps(DURATION));
    // Requests cut off at the end of the window may still be finishing.
    await sleep(500);
    const after = await counts();
    const total = (jobs) => Object.values(jobs).reduce((a, b) => a + b, 0);
    return {
      signUpsPerSecond: Math.round((result.totalRequests - result.non2xx) / result.durationSeconds),
      ...result,
      entriesAdded: after.entries - before.entries,
      jobsEnqueued: total(after.jobs) - total(before.jobs),
      mailDeliveredDuringLoad: (after.jobs.done ?? 0) - (before.jobs.done ?? 0),
      deadJobs: after.jobs.dead ?? 0,
      endedWith: after,
    };
  }

  /** pgbench running `script` for `seconds`: same clients; the app is idle meanwhile (its outbox set aside). */
  async function pgbench(name, script, seconds) {
    const file = path.join(work, `${name}.sql`);
    writeFileSync(file, script);
    const args = [
      '-n',
      '-M',
      'extended',
      '-f',
      file,
      '-c',
      String(CONNECTIONS),
      '-j',
      '2',
      '-D',
      `notice=${payloads.notice}`,
      '-D',
      `confirmation=${payloads.confirmation}`,
    ];
    const tps = pgbenchTps(await runPgbench([...args, '-T', String(seconds), databaseUrl]));
    await setAside();
    return Math.round(tps);
  }

  /** Waits (at most DRAIN_LIMIT_MS) until the worker has sent the window's backlog; notes how long it took. */
  async function drain(window) {
    const drainStart = Date.now();
    let jobs = window.endedWith.jobs;
    while ((jobs.pending ?? 0) + (jobs.running ?? 0) > 0 && Date.now() - drainStart < DRAIN_LIMIT_MS) {
      await sleep(200);
      jobs = await withClient(databaseUrl, jobCounts);
    }
    window.backlogDrainMs = Date.now() - drainStart;
    window.backlogLeft = (jobs.pending ?? 0) + (jobs.running ?? 0);
    window.deadJobs = jobs.dead ?? 0;
    // Sign-ups per second counting until their mail was out too: what the mail drop sustains.
    window.withMailDeliveredPerSecond = Math.round(window.entriesAdded / (window.durationSeconds + window.backlogDrainMs / 1000));
  }

  // One app process for the whole run, warmed up first (its code is compiled as it runs: the
  // first seconds are not its steady state). Then short windows of the app and of pgbench
  // alternate, so work that comes and goes on the machine falls on both alike; the median of
  // the pairs' ratios is the result.
  const rounds = [];
  let last;
  let statementTps;
  try {
    const app = await startNode(['dist/server/main.js'], { env, logFile: path.join(work, 'app.log'), readyUrl: `http://127.0.0.1:${PORT}/readyz` });
    try {
      run = 'warmup';
      await signUps(APP_WARMUP);
      payloads = await withClient(databaseUrl, async (c) => {
        const { rows } = await c.query(
          `select payload::text as p, payload->>'subject' as subject from job where queue = 'mail.send' order by id desc limit 20`,
        );
        return { notice: rows.find((r) => r.subject.startsWith('New waitlist'))?.p, confirmation: rows.find((r) => r.subject.startsWith("You're on"))?.p };
      });
      await setAside();
      await pgbench('transaction', transactionScript(), PGBENCH_WARMUP);
      for (let i = 0; i < ROUNDS; i++) {
        const order = i % 2 === 0 ? ['app', 'pgbench'] : ['pgbench', 'app'];
        const round = {};
        for (const which of order) {
          if (which === 'app') {
            round.app = await appWindow(i);
            // The last window's mail: the worker finishes it, before anything else runs (bounded wait).
            if (i === ROUNDS - 1) await drain(round.app);
            else await setAside();
          } else {
            round.pgbenchTps = await pgbench('transaction', transactionScript(), DURATION);
          }
        }
        rounds.push({ ...round, ratio: Number((round.app.signUpsPerSecond / round.pgbenchTps).toFixed(3)) });
      }
      last = rounds.at(-1).app;
      // For comparison only: pgbench running the one statement the app sends for a new address.
      statementTps = await pgbench('statement', statementScript(), DURATION);
    } finally {
      await app.stop();
    }
    for (const r of rounds) delete r.app.endedWith;
    const appRate = median(rounds.map((r) => r.app.signUpsPerSecond));
    const pgRate = median(rounds.map((r) => r.pgbenchTps));
    const ratio = median(rounds.map((r) => r.ratio));
    const ratioToStatement = Number((appRate / statementTps).toFixed(3));
    const failures = rounds.reduce((sum, r) => sum + r.app.errors + r.app.non2xx + r.app.timeouts, 0);
    // Every answered sign-up stored (plus at most one cut off per connection at the end), each with its two mails.
    const consistent = rounds.every((r) => {
      const answered = r.app.totalRequests - r.app.non2xx;
      return r.app.entriesAdded >= answered && r.app.entriesAdded <= answered + CONNECTIONS && r.app.jobsEnqueued === 2 * r.app.entriesAdded;
    });
    const delivered = rounds.every((r) => r.app.deadJobs === 0 && r.app.mailDeliveredDuringLoad > 0) && last.backlogLeft === 0;
    const mailFiles = existsSync(path.join(dataDir, 'mail')) ? readdirSync(path.join(dataDir, 'mail')).filter((f) => f.endsWith('.eml')).length : 0;
    const checks = [
      { what: `app sign-ups/s ÷ pgbench running the sign-up transaction ≥ ${WAITLIST_TARGET}`, ok: ratio >= WAITLIST_TARGET, value: ratio },
      {
        what: 'every sign-up answered 200, one entry and two outbox rows each',
        ok: failures === 0 && consistent,
        value: failures ? `${failures} failed` : consistent ? 'all' : 'rows do not match answers',
      },
      {
        what: 'the worker delivered mail during the load and all of it after',
        ok: delivered,
        value: `${rounds.map((r) => r.app.mailDeliveredDuringLoad).join(', ')} mails during the windows; the last window's backlog ${last.backlogLeft === 0 ? `sent in ${last.backlogDrainMs} ms` : `not sent within ${DRAIN_LIMIT_MS} ms`}`,
      },
    ];
    const result = {
      date: new Date().toISOString(),
      node: process.version,
      what: 'POST /api/waitlist (new address each time) on PostgreSQL with the worker running, vs pgbench running the sign-up transaction (and, for comparison, the one statement the app now sends), in alternating windows',
      connections: CONNECTIONS,
      durationSeconds: DURATION,
      appWarmupSeconds: APP_WARMUP,
      rounds,
      appSignUpsPerSecond: appRate,
      pgbenchTransactionsPerSecond: pgRate,
      ratio,
      target: WAITLIST_TARGET,
      pgbenchStatementsPerSecond: statementTps,
      ratioToStatement,
      mailFilesWritten: mailFiles,
      pgbenchScripts: { transaction: transactionScript(), statement: statementScript() },
      checks,
    };
    const md = [
      `# Waitlist sign-up on PostgreSQL`,
      ``,
      `${result.date} · Node ${result.node} · ${CONNECTIONS} connections / pgbench clients · one app process warmed up for ${APP_WARMUP} s, then ${ROUNDS} pairs of ${DURATION} s windows (app, pgbench) alternating which goes first; the median of the pairs' ratios · worker delivering into a file drop during the load`,
      ``,
      `| pair | pgbench transactions/s | app sign-ups/s | app ÷ pgbench | app p99 ms | mail delivered during the window |`,
      `|---|---|---|---|---|---|`,
      ...rounds.map(
        (r, i) =>
          `| ${i + 1} | ${r.pgbenchTps} | ${r.app.signUpsPerSecond} | ${r.ratio} | ${r.app.latencyMs.p99} | ${r.app.mailDeliveredDuringLoad} of ${r.app.jobsEnqueued} |`,
      ),
      `| **median** | **${pgRate}** | **${appRate}** | **${ratio}** | | |`,
      ``,
      `pgbench: \`pgbench -n -M extended -c ${CONNECTIONS} -j 2 -T ${DURATION}\` with two payloads the app wrote, running the sign-up transaction as first written (upsert, two outbox inserts, BEGIN/COMMIT: five round trips; the target is against it). For comparison, pgbench running the one statement the app sends for a new address: ${statementTps}/s (app ÷ that: ${ratioToStatement}). bench/results/waitlist-pg.json has both scripts.`,
      `Between windows the outbox rows nobody is to send are set aside, so the worker is idle while pgbench runs. The worker shares the process and its event loop with the sign-ups and falls behind under this load: the last window's backlog was ${last.backlogLeft === 0 ? `sent in ${last.backlogDrainMs} ms` : `not all sent within ${DRAIN_LIMIT_MS} ms`}; counting until every mail of that window was in the drop, its rate is ${last.withMailDeliveredPerSecond} sign-ups/s (the file mailer composes and writes two files per mail).`,
    ];
    return await report('waitlist-pg', result, md, checks);
  } finally {
    await dropScratchDatabase(SERVER_URL, DATABASE);
    rmSync(work, { recursive: true, force: true });
  }
}

await runIfMain(import.meta.url, runWaitlistPg);
