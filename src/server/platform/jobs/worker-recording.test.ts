import { inArray, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { backends, createTestDatabase, type TestDatabase } from '../../../test/databases';
import { openDatabase } from '../../db/client';
import { job } from '../../db/schema';
import { enqueueJob } from './outbox';
import { JobWorker, type JobHandler } from './worker';

const silent = { info() {}, warn() {}, error() {} };

/*
 * Issue 17: "When the database blinks while the worker records a finished
 * batch, the batch stays running until its lease ends and its mails go out
 * a second time." The blink here is real: a trigger on the job table fails
 * the statement that marks jobs done, the first N times it runs. On
 * PostgreSQL it also ends the connection that ran it (pg_terminate_backend
 * of its own backend, as a restart does); PGlite has one connection, which
 * the test cannot drop, so there the statement fails with an error.
 * Nothing of ours is replaced: the worker, the outbox and the pool are the
 * app's own.
 */
describe.each(backends)('the worker recording a finished batch on %s', (backend) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(backend);
  });
  afterAll(async () => {
    await database?.destroy();
  });
  beforeEach(async () => {
    await database.db.delete(job);
  });
  afterEach(async () => {
    await healDatabase();
  });

  /** From now on, the next `times` statements that mark a job done fail (the connection dropped on PostgreSQL). */
  async function blinkWhenRecording(times: number) {
    await database.db.execute(sql.raw(`create sequence if not exists blink_count`));
    await database.db.execute(sql.raw(`alter sequence blink_count restart with 1`));
    const drop = backend === 'postgres' ? 'perform pg_terminate_backend(pg_backend_pid());' : '';
    await database.db.execute(
      sql.raw(`create or replace function blink_on_done() returns trigger language plpgsql as $$
        begin
          if new.status = 'done' and nextval('blink_count') <= ${times} then
            ${drop}
            raise exception 'the database blinked';
          end if;
          return new;
        end $$`),
    );
    await database.db.execute(sql.raw(`drop trigger if exists blink_on_done on job`));
    await database.db.execute(sql.raw(`create trigger blink_on_done before update on job for each row execute function blink_on_done()`));
  }
  async function healDatabase() {
    await database.db.execute(sql.raw(`drop trigger if exists blink_on_done on job`));
  }

  const counting = () => {
    const runs = new Map<number, number>();
    const handler: JobHandler = async (_payload, claimed) => void runs.set(claimed.id, (runs.get(claimed.id) ?? 0) + 1);
    return { runs, handler };
  };
  const rowsOf = (ids: number[]) => database.db.select().from(job).where(inArray(job.id, ids)).orderBy(job.id);

  it('retries recording the batch until the database answers: each job ran once and is done long before its lease ends', async () => {
    const ids = await Promise.all([1, 2, 3].map((n) => enqueueJob(database.db, 'test.mail', { n })));
    const { runs, handler } = counting();
    const leaseMs = 5 * 60_000;
    const worker = new JobWorker({ db: database.db, handlers: { 'test.mail': handler }, logger: silent, leaseMs, recordRetryBaseMs: 10, recordRetryMaxMs: 50 });
    await blinkWhenRecording(3);

    const claimedFrom = Date.now();
    expect(await worker.runOnce()).toBe(3);
    // The blinks happened: the recording was tried (and failed) three times before it went through.
    const counted = (await database.db.execute(sql.raw(`select last_value::int as tries from blink_count`))) as unknown as { rows: { tries: number }[] };
    expect(counted.rows[0]?.tries).toBeGreaterThanOrEqual(4);

    expect(worker.unrecordedJobIds).toEqual([]);
    const rows = await rowsOf(ids);
    expect(rows.map((row) => [row.status, row.attempts, row.lockedUntil])).toEqual(ids.map(() => ['done', 1, null]));
    for (const row of rows) expect(row.finishedAt!.getTime()).toBeLessThan(claimedFrom + leaseMs / 2);
    expect([...runs.values()]).toEqual([1, 1, 1]);

    // Another instance finds nothing to run again.
    const second = database.url ? await openDatabase({ kind: 'postgres', url: database.url, poolSize: 2 }) : null;
    const other = new JobWorker({ db: second?.db ?? database.db, handlers: { 'test.mail': handler }, logger: silent });
    expect(await other.runOnce()).toBe(0);
    await second?.close();
    expect([...runs.values()]).toEqual([1, 1, 1]);
  });

  it('records a failed job’s next try the same way', async () => {
    const id = await enqueueJob(database.db, 'test.flaky', {}, { maxAttempts: 3 });
    let calls = 0;
    const worker = new JobWorker({
      db: database.db,
      handlers: {
        'test.flaky': async () => {
          calls++;
          throw new Error('SMTP said no');
        },
      },
      logger: silent,
      recordRetryBaseMs: 10,
      recordRetryMaxMs: 50,
      baseBackoffMs: 60_000,
    });
    // This blink fires on any update of the job: the failure's record is what fails.
    await database.db.execute(sql.raw(`create sequence if not exists blink_any`));
    await database.db.execute(sql.raw(`alter sequence blink_any restart with 1`));
    await database.db.execute(
      sql.raw(`create or replace function blink_on_done() returns trigger language plpgsql as $$
        begin
          if old.status = 'running' and nextval('blink_any') <= 2 then raise exception 'the database blinked'; end if;
          return new;
        end $$`),
    );
    await database.db.execute(sql.raw(`drop trigger if exists blink_on_done on job`));
    await database.db.execute(sql.raw(`create trigger blink_on_done before update on job for each row execute function blink_on_done()`));

    expect(await worker.runOnce()).toBe(1);
    expect(calls).toBe(1);
    const [row] = await rowsOf([id]);
    expect(row).toMatchObject({ status: 'pending', attempts: 1, lastError: 'SMTP said no', lockedUntil: null });
    expect(row!.runAt.getTime()).toBeGreaterThan(Date.now() + 30_000);
  });

  it('keeps what it could not record before the lease’s end in memory, and records it instead of running the jobs again', async () => {
    const ids = await Promise.all([1, 2].map((n) => enqueueJob(database.db, 'test.mail', { n })));
    const { runs, handler } = counting();
    // A short lease, so that "the lease is near its end" comes within the test.
    const worker = new JobWorker({
      db: database.db,
      handlers: { 'test.mail': handler },
      logger: silent,
      leaseMs: 1000,
      recordRetryBaseMs: 20,
      recordRetryMaxMs: 50,
    });
    await blinkWhenRecording(1_000_000);

    expect(await worker.runOnce()).toBe(2);
    expect([...runs.values()]).toEqual([1, 1]);
    expect(worker.unrecordedJobIds.sort()).toEqual([...ids].sort());
    expect((await rowsOf(ids)).map((row) => row.status)).toEqual(['running', 'running']);

    // The lease has ended while the database is still down: the jobs are claimed again, and not run again.
    await database.db
      .update(job)
      .set({ lockedUntil: sql`now() - interval '1 second'` })
      .where(inArray(job.id, ids));
    expect(await worker.runOnce()).toBe(2);
    expect([...runs.values()]).toEqual([1, 1]);
    expect(worker.unrecordedJobIds.sort()).toEqual([...ids].sort());

    // The database is back: the next round records them first, and nothing runs twice.
    await healDatabase();
    expect(await worker.runOnce()).toBe(0);
    expect(worker.unrecordedJobIds).toEqual([]);
    expect((await rowsOf(ids)).map((row) => row.status)).toEqual(['done', 'done']);
    expect([...runs.values()]).toEqual([1, 1]);
  });
});
