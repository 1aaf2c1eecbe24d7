import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { job } from '../../db/schema';
import { backends, createTestDatabase, type TestDatabase } from '../../../test/databases';
import { openDatabase } from '../../db/client';
import { countJobsByStatus, enqueueJob, retryDeadJobs } from './outbox';
import { sql } from 'drizzle-orm';
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

  it('keeps one run of a recurring job queued, due after its interval, from any number of workers', async () => {
    const recurring = [{ queue: 'test.sweep', everyMs: 3_600_000, maxAttempts: 3 }];
    const second = database.url ? await openDatabase({ kind: 'postgres', url: database.url, poolSize: 2 }) : null;
    const make = (db = database.db) => new JobWorker({ db, handlers: { 'test.sweep': async () => {} }, logger: silent, recurring });
    const [a, b] = [make(), make(second?.db)];
    const scheduled = await Promise.all([a.scheduleOnce(), b.scheduleOnce(), a.scheduleOnce()]);
    await second?.close();
    expect(scheduled.flat()).toEqual(['test.sweep']);
    const rows = await database.db.select().from(job).where(eq(job.queue, 'test.sweep'));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'pending', maxAttempts: 3 });
    expect(rows[0]!.runAt.getTime() - Date.now()).toBeGreaterThan(3_500_000);
    // Not due yet; once it has run, the next one is queued.
    expect(await a.runOnce()).toBe(0);
    await database.db.update(job).set({ runAt: new Date() }).where(eq(job.queue, 'test.sweep'));
    expect(await a.runOnce()).toBe(1);
    expect(await a.scheduleOnce()).toEqual(['test.sweep']);
    expect(await countJobsByStatus(database.db)).toMatchObject({ pending: 1, done: 1 });
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

  const payloadText = async (id: number) =>
    (await database.db.execute(sql`select payload::text as p from ${job} where id = ${id}`)) as unknown as { rows: { p: string }[] };

  it('removes the secret fields of a job once it is done, and never shows their list to the handler', async () => {
    const secret = 'Zq9-secret-token-4fV2';
    const seen: unknown[] = [];
    const id = await enqueueJob(
      database.db,
      'test.mail',
      { to: 'ana@example.com', subject: 'Your invitation', text: `Open https://x.test/invite#${secret}`, html: `<a href="https://x.test/invite#${secret}">` },
      { secretFields: ['text', 'html'] },
    );
    // Pending, the job still has what it needs.
    expect((await payloadText(id)).rows[0]?.p).toContain(secret);
    await worker({ 'test.mail': async (payload) => void seen.push(payload) }).runOnce();
    expect(seen).toEqual([
      { to: 'ana@example.com', subject: 'Your invitation', text: `Open https://x.test/invite#${secret}`, html: `<a href="https://x.test/invite#${secret}">` },
    ]);
    const [row] = await database.db.select().from(job).where(eq(job.id, id));
    expect(row).toMatchObject({ status: 'done', payload: { to: 'ana@example.com', subject: 'Your invitation', $cleared: ['text', 'html'] } });
    const all = (await database.db.execute(sql`select payload::text as p from ${job}`)) as unknown as { rows: { p: string }[] };
    expect(all.rows.map((r) => r.p).join('\n')).not.toContain(secret);
  });

  it('keeps the secret of a job that failed and of a dead one (a retry needs it), and removes it once a retry succeeds', async () => {
    const secret = 'dead-but-kept-Xy7';
    const id = await enqueueJob(database.db, 'test.mail', { to: 'ana@example.com', text: secret }, { secretFields: ['text'], maxAttempts: 2 });
    const failing = worker({
      'test.mail': async () => {
        throw new Error('SMTP said no');
      },
    });
    await failing.runOnce();
    expect((await payloadText(id)).rows[0]?.p).toContain(secret);
    for (let i = 0; i < 5 && (await database.db.select().from(job).where(eq(job.id, id)))[0]?.status !== 'dead'; i++) await failing.runOnce();
    expect((await database.db.select().from(job).where(eq(job.id, id)))[0]?.status).toBe('dead');
    expect((await payloadText(id)).rows[0]?.p).toContain(secret);

    await retryDeadJobs(database.db, [id]);
    const seen: unknown[] = [];
    await worker({ 'test.mail': async (payload) => void seen.push(payload) }).runOnce();
    expect(seen).toEqual([{ to: 'ana@example.com', text: secret }]);
    expect((await payloadText(id)).rows[0]?.p).not.toContain(secret);
  });

  it('leaves a payload without secret fields as it was when done', async () => {
    const id = await enqueueJob(database.db, 'test.echo', { to: 'team@example.com', text: 'A new sign-up' });
    await worker({ 'test.echo': async () => {} }).runOnce();
    expect((await database.db.select().from(job).where(eq(job.id, id)))[0]?.payload).toEqual({ to: 'team@example.com', text: 'A new sign-up' });
  });

  it('keeps one pending job per deduplication key: enqueuing again moves its time and merges the arrays named, each value once', async () => {
    const soon = new Date(Date.now() + 60_000);
    const later = new Date(Date.now() + 120_000);
    const first = await enqueueJob(database.db, 'test.digest', { to: 'a', itemIds: ['x', 'y'] }, { dedupKey: 'k', runAt: soon, mergeArrays: ['itemIds'] });
    const again = await enqueueJob(database.db, 'test.digest', { to: 'b', itemIds: ['y', 'z'] }, { dedupKey: 'k', runAt: later, mergeArrays: ['itemIds'] });
    expect(again).toBe(first);
    // Another key, or another queue with the same key, is a job of its own.
    expect(await enqueueJob(database.db, 'test.digest', { itemIds: ['x'] }, { dedupKey: 'other', runAt: soon })).not.toBe(first);
    expect(await enqueueJob(database.db, 'test.other', { itemIds: ['x'] }, { dedupKey: 'k', runAt: soon })).not.toBe(first);
    const [row] = await database.db.select().from(job).where(eq(job.id, first));
    expect(row?.payload).toEqual({ to: 'b', itemIds: ['x', 'y', 'z'] });
    expect(row?.runAt.getTime()).toBe(later.getTime());
    expect(await countJobsByStatus(database.db)).toMatchObject({ pending: 3 });
  });

  it('starts a new job for a key once the one before has run, and lets a failed one retry beside a newer one', async () => {
    const seen: unknown[] = [];
    let fail = false;
    const digest = worker({
      'test.digest': async (payload) => {
        if (fail) throw new Error('down');
        seen.push(payload);
      },
    });
    const first = await enqueueJob(database.db, 'test.digest', { itemIds: ['a'] }, { dedupKey: 'k', mergeArrays: ['itemIds'] });
    expect(await digest.runOnce()).toBe(1);
    expect(seen).toEqual([{ itemIds: ['a'] }]);
    const second = await enqueueJob(database.db, 'test.digest', { itemIds: ['b'] }, { dedupKey: 'k', mergeArrays: ['itemIds'] });
    expect(second).not.toBe(first);

    // While the second runs (and fails), a request arrives: a job of its own, which keeps the key.
    fail = true;
    await database.db
      .update(job)
      .set({ status: 'running', lockedUntil: sql`now() - interval '1 second'` })
      .where(eq(job.id, second));
    const third = await enqueueJob(database.db, 'test.digest', { itemIds: ['c'] }, { dedupKey: 'k', runAt: new Date(Date.now() + 60_000) });
    expect(third).not.toBe(second);
    expect(await digest.runOnce()).toBe(1);
    const rows = await database.db
      .select()
      .from(job)
      .where(sql`${job.id} in (${second}, ${third})`);
    const byId = new Map(rows.map((row) => [row.id, row]));
    expect(byId.get(second)).toMatchObject({ status: 'pending', dedupKey: null, lastError: 'down' });
    expect(byId.get(third)).toMatchObject({ status: 'pending', dedupKey: 'k' });
  });

  it('deletes done jobs past their retention when the worker starts, and keeps every other job', async () => {
    const ids = {
      oldDone: await enqueueJob(database.db, 'test.echo', { n: 'old done' }),
      recentDone: await enqueueJob(database.db, 'test.echo', { n: 'recent done' }),
      oldDead: await enqueueJob(database.db, 'test.echo', { n: 'old dead' }),
      pending: await enqueueJob(database.db, 'test.echo', { n: 'pending' }, { runAt: new Date(Date.now() + 3_600_000) }),
    };
    const daysAgo = (days: number) => sql`now() - ${`${days} days`}::interval`;
    await database.db
      .update(job)
      .set({ status: 'done', finishedAt: daysAgo(8) })
      .where(eq(job.id, ids.oldDone));
    await database.db
      .update(job)
      .set({ status: 'done', finishedAt: daysAgo(6) })
      .where(eq(job.id, ids.recentDone));
    await database.db
      .update(job)
      .set({ status: 'dead', finishedAt: daysAgo(30) })
      .where(eq(job.id, ids.oldDead));

    const w = new JobWorker({ db: database.db, handlers: {}, logger: silent, pollMs: 60_000, doneJobRetentionMs: 7 * 24 * 3_600_000 });
    w.start();
    const deadline = Date.now() + 10_000;
    const remaining = async () => (await database.db.select({ id: job.id }).from(job)).map((r) => r.id).sort((a, b) => a - b);
    while ((await remaining()).includes(ids.oldDone) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await w.stop();
    expect(await remaining()).toEqual([ids.recentDone, ids.oldDead, ids.pending].sort((a, b) => a - b));
  });
});
