import { randomBytes } from 'node:crypto';
import { mkdir, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { asc, eq, inArray } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setupApi } from '../../../test/api';
import { testConfig } from '../../../test/config';
import { createLoan, createTeamWithOwner, type Team } from '../../../test/factories';
import { databasesAndStores } from '../../../test/storage';
import { filesOfLoan, storeUploadFile, storeVersionFile } from '../../../test/stored-files';
import { checklistItem, documentUpload, job } from '../../db/schema';
import { createLogger, createRuntime } from '../../runtime';
import { DAY_MS, JobWorker } from '../jobs/worker';
import { ObjectNotFound } from '../storage/object-store';
import { FILE_QUEUES, objectKeysOfItems, objectKeysOfLoans, objectKeysOfTeams } from './file-objects';
import { fileJobHandlers } from './file-jobs';
import { sweepStorage } from './sweep';

const HOUR_MS = 60 * 60 * 1000;

describe.each(databasesAndStores)('the storage sweep and object deletion on %s with %s storage', (backend, storage) => {
  const api = setupApi(backend, { storage });
  const logged: { level: 'info' | 'warn'; obj: object; msg: string }[] = [];
  const logger = {
    info: (obj: object, msg: string) => void logged.push({ level: 'info', obj, msg }),
    warn: (obj: object, msg: string) => void logged.push({ level: 'warn', obj, msg }),
  };
  const silent = { info() {}, warn() {}, error() {} };
  const context = () => ({ db: api.db, files: api.files, logger });
  /** Runs every due job (object deletions) as the app's worker would. */
  const drainJobs = async () => {
    const worker = new JobWorker({ db: api.db, handlers: fileJobHandlers(context()), logger: silent });
    while ((await worker.runOnce()) > 0);
  };
  const exists = async (key: string) =>
    api.files.objects.get(key).then(
      (stream) => (stream.destroy(), true),
      (error: unknown) => (error instanceof ObjectNotFound ? false : Promise.reject(error)),
    );
  const deletionJobs = () => api.db.select().from(job).where(eq(job.queue, FILE_QUEUES.deleteObjects)).orderBy(asc(job.id));

  let harbor: Team;
  beforeAll(async () => {
    harbor = await createTeamWithOwner(api, { name: 'Harbor Lending' });
  });
  beforeEach(() => {
    logged.length = 0;
  });

  it('deletes objects no row points to once they are a day old, and never a younger one or a file in use', async () => {
    const { id: loanId } = await createLoan(api, harbor.teamId, harbor.owner);
    const kept = await storeVersionFile(api, { loanId, bytes: randomBytes(1000), preview: randomBytes(500) });
    // What an upload leaves when its process dies between storing the object and writing its row.
    const orphan = await api.files.storeBuffer(randomBytes(2000), `files/${loanId}`);
    // Not a key the vault makes: the sweep leaves what is not its own alone.
    await api.files.objects.put('elsewhere/not-ours', Readable.from([Buffer.from('x')]));

    expect(await sweepStorage(context())).toMatchObject({ orphansDeleted: 0 });
    expect(await exists(orphan.objectKey)).toBe(true);
    expect(await sweepStorage(context(), { now: new Date(Date.now() + DAY_MS - HOUR_MS) })).toMatchObject({ orphansDeleted: 0 });
    expect(await exists(orphan.objectKey)).toBe(true);

    const result = await sweepStorage(context(), { now: new Date(Date.now() + DAY_MS + HOUR_MS), batch: 2 });
    expect(result).toMatchObject({ orphansDeleted: 1, expiredUploads: 0 });
    expect(await exists(orphan.objectKey)).toBe(false);
    expect(await exists(kept.objectKey)).toBe(true);
    expect(await exists(kept.previewObjectKey!)).toBe(true);
    expect(await exists('elsewhere/not-ours')).toBe(true);
    expect(logged).toContainEqual({ level: 'info', obj: { sweep: expect.objectContaining({ orphansDeleted: 1 }) }, msg: 'storage swept' });
    await api.files.objects.delete('elsewhere/not-ours');
  });

  it('deletes uploads that expired unfinished with their files and objects, and keeps uploads under way', async () => {
    const { id: loanId } = await createLoan(api, harbor.teamId, harbor.owner);
    const expired = await storeUploadFile(api, { loanId, bytes: randomBytes(3000), expiresAt: new Date(Date.now() - 1000) });
    const underWay = await storeUploadFile(api, { loanId, bytes: randomBytes(3000), expiresAt: new Date(Date.now() + HOUR_MS) });

    expect(await sweepStorage(context())).toMatchObject({ expiredUploads: 1, orphansDeleted: 0 });
    expect(await api.db.select({ id: documentUpload.id }).from(documentUpload).where(eq(documentUpload.loanId, loanId))).toEqual([{ id: underWay.uploadId }]);
    expect((await filesOfLoan(api, loanId)).map((file) => file.id)).toEqual([underWay.id]);
    // The row went first; the object goes with the job queued in the same transaction.
    expect(await exists(expired.objectKey)).toBe(true);
    expect((await deletionJobs()).at(-1)?.payload).toEqual({ keys: [expired.objectKey] });
    await drainJobs();
    expect(await exists(expired.objectKey)).toBe(false);
    expect(await exists(underWay.objectKey)).toBe(true);
  });

  it('aborts unfinished writes older than a day where the store can list them, and says so where it cannot', async () => {
    if (storage === 'disk') {
      const stale = path.join(api.config.dataDir, 'files', '.tmp', 'left-by-a-hung-upload');
      await mkdir(path.dirname(stale), { recursive: true });
      await writeFile(stale, 'partial');
      const twoDaysAgo = new Date(Date.now() - 2 * DAY_MS);
      await utimes(stale, twoDaysAgo, twoDaysAgo);
      expect(await sweepStorage(context())).toMatchObject({ staleUploadsAborted: 1 });
    } else {
      // s3rver has no ListMultipartUploads; a real S3 store lists and aborts them (decision 014).
      expect(await sweepStorage(context())).toMatchObject({ staleUploadsAborted: 0, abortUnsupported: expect.stringContaining('NotImplemented') });
      expect(logged.some((line) => line.level === 'warn' && line.msg.includes('AbortIncompleteMultipartUpload'))).toBe(true);
    }
  });

  it('deletes the objects of a loan that is deleted, after the deletion commits, and no other loan’s', async () => {
    const { id: loanId } = await createLoan(api, harbor.teamId, harbor.owner);
    const { id: otherLoanId } = await createLoan(api, harbor.teamId, harbor.owner);
    const files = [
      await storeVersionFile(api, { loanId, bytes: randomBytes(70_000), preview: randomBytes(100) }),
      await storeUploadFile(api, { loanId, bytes: randomBytes(100), expiresAt: new Date(Date.now() + HOUR_MS) }),
    ];
    const other = await storeVersionFile(api, { loanId: otherLoanId, bytes: randomBytes(100) });
    const keys = [files[0]!.objectKey, files[0]!.previewObjectKey!, files[1]!.objectKey];
    expect((await objectKeysOfLoans(api.db, [loanId])).sort()).toEqual([...keys].sort());

    const response = await api.as(harbor.owner).delete(`/api/loans/${loanId}`, { confirmAddress: '1200 Barton Springs Rd' });
    expect(response.statusCode, response.body).toBe(204);
    expect(await filesOfLoan(api, loanId)).toEqual([]);
    for (const key of keys) expect(await exists(key)).toBe(true);
    await drainJobs();
    for (const key of keys) expect(await exists(key), key).toBe(false);
    expect(await exists(other.objectKey)).toBe(true);
    expect(await buffer(await api.files.open(other))).toHaveLength(100);
  });

  it('queues nothing when a deleted loan has no files, and nothing when the deletion is refused', async () => {
    const { id: loanId } = await createLoan(api, harbor.teamId, harbor.owner);
    const before = (await deletionJobs()).length;
    const file = await storeVersionFile(api, { loanId, bytes: randomBytes(100) });
    const refused = await api.as(harbor.owner).delete(`/api/loans/${loanId}`, { confirmAddress: 'somewhere else' });
    expect(refused.statusCode).toBe(400);
    expect(await deletionJobs()).toHaveLength(before);
    expect(await exists(file.objectKey)).toBe(true);
    const { id: empty } = await createLoan(api, harbor.teamId, harbor.owner);
    expect((await api.as(harbor.owner).delete(`/api/loans/${empty}`, { confirmAddress: '1200 Barton Springs Rd' })).statusCode).toBe(204);
    expect(await deletionJobs()).toHaveLength(before);
  });

  it('deletes the objects of a checklist item that is removed', async () => {
    const { id: loanId } = await createLoan(api, harbor.teamId, harbor.owner);
    const [item] = await api.db.select().from(checklistItem).where(eq(checklistItem.loanId, loanId)).limit(1);
    const first = await storeVersionFile(api, { loanId, itemId: item!.id, bytes: randomBytes(100) });
    const second = await storeVersionFile(api, { loanId, itemId: item!.id, bytes: randomBytes(100) });
    const elsewhere = await storeVersionFile(api, { loanId, bytes: randomBytes(100), itemId: (await anotherItemThan(loanId, item!.id))! });
    expect((await objectKeysOfItems(api.db, [item!.id])).sort()).toEqual([first.objectKey, second.objectKey].sort());

    const response = await api.as(harbor.owner).delete(`/api/loans/${loanId}/checklist/items/${item!.id}`, { version: item!.version });
    expect(response.statusCode, response.body).toBe(204);
    await drainJobs();
    expect(await exists(first.objectKey)).toBe(false);
    expect(await exists(second.objectKey)).toBe(false);
    expect(await exists(elsewhere.objectKey)).toBe(true);
  });

  it('finds the object keys of every loan of a team (the demo reset deletes teams)', async () => {
    const team = await createTeamWithOwner(api, { name: 'Demo Lending' });
    const { id: loanId } = await createLoan(api, team.teamId, team.owner);
    const file = await storeVersionFile(api, { loanId, bytes: randomBytes(100), preview: randomBytes(10) });
    expect((await objectKeysOfTeams(api.db, [team.teamId])).sort()).toEqual([file.objectKey, file.previewObjectKey].sort());
    expect(await objectKeysOfTeams(api.db, [])).toEqual([]);
  });

  async function anotherItemThan(loanId: string, itemId: string) {
    const items = await api.db.select({ id: checklistItem.id }).from(checklistItem).where(eq(checklistItem.loanId, loanId));
    return items.find((row) => row.id !== itemId)?.id;
  }

  it('fails a deletion job whose payload names something that is not an object key, and keeps it visible', async () => {
    const worker = new JobWorker({
      db: api.db,
      handlers: fileJobHandlers(context()),
      logger: silent,
      baseBackoffMs: 1,
      maxBackoffMs: 1,
    });
    const [row] = await api.db
      .insert(job)
      .values({ queue: FILE_QUEUES.deleteObjects, payload: { keys: ['../../etc/passwd'] }, maxAttempts: 1 })
      .returning();
    await worker.runOnce();
    const [after] = await api.db
      .select()
      .from(job)
      .where(inArray(job.id, [row!.id]));
    expect(after).toMatchObject({ status: 'dead', lastError: expect.stringContaining('Not an object key') });
    await api.db.delete(job).where(eq(job.id, row!.id));
  });
});

describe('the runtime', () => {
  // A whole runtime: an embedded database on disk, migrated (several seconds on a busy machine).
  it('handles the file queues and keeps the hourly sweep queued', { timeout: 90_000 }, async () => {
    const config = testConfig();
    const runtime = await createRuntime(config, { logger: createLogger({ logLevel: 'silent' }) });
    try {
      // Features' recurring jobs (the checklist's daily expiry) are queued beside it.
      expect(await runtime.worker.scheduleOnce()).toEqual(expect.arrayContaining([FILE_QUEUES.sweep]));
      const [sweep] = await runtime.database.db.select().from(job).where(eq(job.queue, FILE_QUEUES.sweep));
      expect(sweep!.runAt.getTime()).toBeGreaterThan(Date.now() + HOUR_MS - 60_000);
      await runtime.database.db.update(job).set({ runAt: new Date() }).where(eq(job.queue, FILE_QUEUES.sweep));
      expect(await runtime.worker.runOnce()).toBe(1);
      expect((await runtime.database.db.select().from(job).where(eq(job.id, sweep!.id)))[0]).toMatchObject({ status: 'done' });
    } finally {
      await runtime.stop();
    }
  });
});
