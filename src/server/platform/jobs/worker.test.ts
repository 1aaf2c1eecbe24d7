import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { job } from '../../db/schema';
import { backends, createTestDatabase, type TestDatabase } from '../../../test/databases';
import { openDatabase } from '../../db/client';
import { countJobsByStatus, enqueueJob, retryDeadJobs } from './outbox';
import { backoffDelay, JobWorker, mergeJobHandlers, type JobHandler } from './worker';

const silent = { info() {}, warn() {}, error() {} };

describe('backoffDelay', () => {
  it('doubles from the base, caps, and jitters within ±20%', () => {
    expect(backoffDelay(1, 1000, 60_000, () => 0.5)).toBe(1000);
    expect(backoffDelay(2, 1000, 60_000, () => 0.5)).toBe(2000);
    expect(backoffDelay(5, 1000, 60_000, () => 0.5)).toBe(16_000);
    expect(backoffDelay(30, 1000, 60_000, () => 0.5)).toBe(60_000);
    expect(backoffDelay(3, 1000, 60_000, () => 0)).toBe(3200);
    expect(backoffDelay(3, 1000, 60_000, () => 1)).toBe(4800);
  });
});

describe('mergeJobHandlers', () => {
  it("joins the platform's and the features' queues, and refuses a queue handled twice", () => {
    const handler: JobHandler = async () => {};
    const other: JobHandler = async () => {};
    expect(mergeJobHandlers({ 'mail.send': handler }, { 'reminders.send': other }, {})).toEqual({ 'mail.send': handler, 'reminders.send': other });
    expect(() => mergeJobHandlers({ 'mail.send': handler }, { 'mail.send': other })).toThrow('The job queue mail.send has two handlers');
  });
});

describe.each(backends)('job worker on %s', (backend) => {
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

  const worker = (handlers: Record<string, JobHandler>, db = database.db) => new JobWorker({ db, handlers, logger: silent, baseBackoffMs: 1, maxBackoffMs: 1 });

  it('runs a due job once and marks it done', async () => {
    const seen: unknown[] = [];
    const id = await enqueueJob(database.db, 'test.echo', { hello: 'world' });
    expect(await worker({ 'test.echo': async (payload) => void seen.push(payload) }).runOnce()).toBe(1);
    expect(seen).toEqual([{ hello: 'world' }]);
    const [row] = await database.db.select().from(job).where(eq(job.id, id));
    expect(row).toMatchObject({ status: 'done', attempts: 1, lastError: null });
    expect(row?.finishedAt).toBeInstanceOf(Date);
    expect(await worker({ 'test.echo': async () => {} }).runOnce()).toBe(0);
  });

  it('does not run a job before its time', async () => {
    await enqueueJob(database.db, 'test.echo', {}, { runAt: new Date(Date.now() + 60_000) });
    expect(await worker({ 'test.echo': async () => {} }).runOnce()).toBe(0);
  });

  it('retries a failing job with its error recorded, then keeps it as dead after the last attempt', async () => {
    const id = await enqueueJob(database.db, 'test.flaky', {}, { maxAttempts: 3 });
    let calls = 0;
    const failing = worker({
      'test.flaky': async () => {
        calls++;
        throw new Error(`SMTP said no (${calls})`);
      },
    });

    await failing.runOnce();
    let [row] = await database.db.select().from(job).where(eq(job.id, id));
    expect(row).toMatchObject({ status: 'pending', attempts: 1, lastError: 'SMTP said no (1)' });

    for (let i = 0; i < 10 && row?.status !== 'dead'; i++) {
      await failing.runOnce();
      [row] = await database.db.select().from(job).where(eq(job.id, id));
    }
    expect(row).toMatchObject({ status: 'dead', attempts: 3, lastError: 'SMTP said no (3)' });
    expect(calls).toBe(3);
    expect(await countJobsByStatus(database.db)).toMatchObject({ dead: 1 });

    // An admin retries it; it then succeeds.
    expect(await retryDeadJobs(database.db)).toBe(1);
    expect(await worker({ 'test.flaky': async () => {} }).runOnce()).toBe(1);
    [row] = await database.db.select().from(job).where(eq(job.id, id));
    expect(row).toMatchObject({ status: 'done', attempts: 1 });
  });

  it('treats a job for an unknown queue as a failure, not a crash', async () => {
    const id = await enqueueJob(database.db, 'test.nobody', {}, { maxAttempts: 1 });
    await worker({}).runOnce();
    const [row] = await database.db.select().from(job).where(eq(job.id, id));
    expect(row).toMatchObject({ status: 'dead', lastError: 'No handler for queue "test.nobody"' });
  });

  it('never rolls a job back into the queue when the transaction that enqueued it rolls back', async () => {
    await expect(
      database.db.transaction(async (tx) => {
        await enqueueJob(tx, 'test.echo', {});
        throw new Error('the action failed');
      }),
    ).rejects.toThrow('the action failed');
    expect(await database.db.$count(job)).toBe(0);
  });

  it('lets two workers share the queue without running a job twice', async () => {
    const ids = await Promise.all(Array.from({ length: 30 }, (_, i) => enqueueJob(database.db, 'test.count', { i })));
    const runs = new Map<number, number>();
    const handler: JobHandler = async (_payload, claimed) => {
      runs.set(claimed.id, (runs.get(claimed.id) ?? 0) + 1);
    };
    // On PostgreSQL the second worker has its own connection pool, like a second app instance.
    const second = database.url ? await openDatabase({ kind: 'postgres', url: database.url, poolSize: 2 }) : null;
    const a = worker({ 'test.count': handler });
    const b = worker({ 'test.count': handler }, second?.db ?? database.db);
    const drain = async (w: JobWorker) => {
      while ((await w.runOnce()) > 0);
    };
    await Promise.all([drain(a), drain(b)]);
    await second?.close();
    expect([...runs.keys()].sort((x, y) => x - y)).toEqual([...ids].sort((x, y) => x - y));
    expect([...runs.values()].every((n) => n === 1)).toBe(true);
  });

  it('wakes at once when nudged and stops cleanly', async () => {
    const done: number[] = [];
    const w = new JobWorker({
      db: database.db,
      handlers: { 'test.echo': async (p) => void done.push((p as { n: number }).n) },
      logger: silent,
      pollMs: 60_000,
    });
    w.start();
    await enqueueJob(database.db, 'test.echo', { n: 1 });
    w.nudge();
    const deadline = Date.now() + 10_000;
    while (done.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await w.stop();
    expect(done).toEqual([1]);
  });
});
