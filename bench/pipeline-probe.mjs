// Loaded into the app under test by bench/pipeline.mjs (`node --import
// ./bench/pipeline-probe.mjs dist/server/main.js`) for its "where the time
// goes" run only, never for the measured figures. It times, without changing
// what the app does:
//   - every SQL statement the app sends through pg, by what it is for
//     (classified from its text), from `query()` to its result;
//   - the wait for a pooled connection;
//   - JSON.stringify calls that write more than 10 KB (the page's answer).
// Only between two SIGUSR2 (the bench sends one after its warm-up and one
// after its last request): the first clears the totals and starts a CPU
// profile of the process (node:inspector); the second stops it and writes the
// profile to BENCH_PROBE_FILE.cpuprofile and the totals to BENCH_PROBE_FILE.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import pg from 'pg';

const totals = new Map();
const add = (name, ms, text) => {
  const entry = totals.get(name) ?? { count: 0, ms: 0 };
  entry.count += 1;
  entry.ms += ms;
  // One example of what was sent, so the bench can run the same statement alone.
  if (text && !entry.sql) entry.sql = String(text).replace(/\s+/g, ' ').slice(0, 2000);
  totals.set(name, entry);
};
const now = () => Number(process.hrtime.bigint()) / 1e6;

/** What a statement is for, from its text (drizzle's and better-auth's SQL as they send it). */
export function classify(text) {
  const sql = String(text).replace(/\s+/g, ' ').toLowerCase();
  if (/from "session" inner join "user"/.test(sql) && /platform_admin/.test(sql)) return 'session and access: one statement';
  if (/from "session"/.test(sql)) return 'session: the session row';
  if (/^select .* from "user"/.test(sql) && /platform_admin/.test(sql)) return 'access: grants and team membership';
  if (/from "user"/.test(sql) && !/from "loan"/.test(sql)) return 'session: the user row';
  if (/^update "session"/.test(sql)) return 'session: sliding expiry';
  if (/from "loan"/.test(sql) && /group by/.test(sql)) return 'pipeline: stage counts';
  if (/from "loan"/.test(sql) && /limit/.test(sql)) return 'pipeline: the page of rows';
  if (/two_factor/.test(sql)) return 'session: two-factor row';
  return `other: ${sql.slice(0, 60)}`;
}

/** Times one statement: `run` gets a callback to wrap, or returns a promise. */
function timed(text, run, callback) {
  const started = now();
  const done = () => add(classify(text), now() - started, text);
  if (typeof callback === 'function')
    return run((error, result) => {
      done();
      callback(error, result);
    });
  const result = run();
  if (result && typeof result.then === 'function') result.then(done, () => {});
  return result;
}
const textOf = (config) => (typeof config === 'string' ? config : config?.text);

// Statements through the pool (what drizzle sends outside a transaction): from the call to the result,
// the wait for a connection included (and also counted on its own below).
const poolQuery = pg.Pool.prototype.query;
pg.Pool.prototype.query = function probedPoolQuery(config, values, callback) {
  if (typeof values === 'function') [values, callback] = [undefined, values];
  const text = textOf(config);
  if (!text) return poolQuery.call(this, config, values, callback);
  return timed(text, (cb) => (cb ? poolQuery.call(this, config, values, cb) : poolQuery.call(this, config, values)), callback);
};

// Statements on a client the app holds (inside a transaction); the pool's own calls pass a callback and are timed above.
const clientQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function probedClientQuery(config, values, callback) {
  const text = textOf(config);
  if (!text || typeof values === 'function' || typeof callback === 'function') return clientQuery.call(this, config, values, callback);
  return timed(text, () => clientQuery.call(this, config, values));
};

const connect = pg.Pool.prototype.connect;
pg.Pool.prototype.connect = function probedConnect(callback) {
  const started = now();
  const waited = () => add('pool: waiting for a connection', now() - started);
  if (typeof callback === 'function')
    return connect.call(this, (error, client, release) => {
      waited();
      callback(error, client, release);
    });
  return connect.call(this).then((client) => {
    waited();
    return client;
  });
};

const stringify = JSON.stringify;
JSON.stringify = function probedStringify(value, replacer, space) {
  const started = now();
  const out = stringify(value, replacer, space);
  if (typeof out === 'string' && out.length > 10_000) add('json: serialising the answer', now() - started);
  return out;
};

const inspector = new Session();
inspector.connect();
const post = (method, params = {}) =>
  new Promise((resolve, reject) => inspector.post(method, params, (error, result) => (error ? reject(error) : resolve(result))));
let profiling = false;
process.on('SIGUSR2', async () => {
  const file = process.env.BENCH_PROBE_FILE;
  if (!profiling) {
    profiling = true;
    totals.clear();
    await post('Profiler.enable');
    await post('Profiler.setSamplingInterval', { interval: 200 });
    await post('Profiler.start');
    return;
  }
  profiling = false;
  const { profile } = await post('Profiler.stop');
  if (!file) return;
  writeFileSync(`${file}.cpuprofile`, stringify(profile));
  writeFileSync(file, stringify(Object.fromEntries(totals)));
});
