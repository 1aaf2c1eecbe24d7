import { and, eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ChecklistView } from '../../shared/schemas/checklist';
import type { StoredFileView, VersionsView } from '../../shared/schemas/documents';
import { setupApi } from '../../test/api';
import type { Backend } from '../../test/databases';
import { uploadVersion } from '../../test/documents';
import { addBorrower, createLoan, createTeamWithOwner, type Person, type Team } from '../../test/factories';
import { testJobWorker } from '../../test/jobs';
import { databasesAndStores, type StorageKind } from '../../test/storage';
import { samplePdf } from '../../test/sample-files';
import { HEIC_PHOTO, sampleBrokenHeic, sampleHeic, sampleScanTiff, sampleTiff } from '../../test/sample-images';
import { documentFile, job } from '../db/schema';
import { FileVault } from '../platform/files/file-vault';
import { PREVIEW_MAX_EDGE } from '../platform/images/jpeg-preview';
import type { ObjectStore } from '../platform/storage/object-store';
import { PREVIEW_ATTEMPTS, PREVIEW_QUEUE } from './previews';

async function objectsUnder(store: ObjectStore, prefix: string) {
  const keys: string[] = [];
  for await (const object of store.list()) if (object.key.startsWith(prefix)) keys.push(object.key);
  return keys;
}

async function readObject(store: ObjectStore, key: string) {
  const chunks: Buffer[] = [];
  for await (const chunk of await store.get(key)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe.each(databasesAndStores)('HEIC and TIFF previews on %s with %s storage', (backend: Backend, storage: StorageKind) => {
  const api = setupApi(backend, { storage });
  let harbor: Team;
  let borrower: Person;
  let loanId: string;

  const base = (itemId: string) => `/api/loans/${loanId}/checklist/items/${itemId}`;
  const itemId = async (key: string) =>
    (await api.as(harbor.owner).get(`/api/loans/${loanId}/checklist`)).json<ChecklistView>().items.find((i) => i.key === key)!.id;
  const files = async (item: string, who: Person = harbor.owner) =>
    (await api.as(who).get(`${base(item)}/versions`)).json<VersionsView>().versions[0]!.files as StoredFileView[];
  const previewJobs = () => api.db.select().from(job).where(eq(job.queue, PREVIEW_QUEUE)).orderBy(job.id);
  const jobOf = async (fileId: string) =>
    (
      await api.db
        .select()
        .from(job)
        .where(and(eq(job.queue, PREVIEW_QUEUE), sql`${job.payload} ->> 'fileId' = ${fileId}`))
    )[0];

  beforeAll(async () => {
    harbor = await createTeamWithOwner(api, { name: 'Harbor Lending' });
    loanId = (await createLoan(api, harbor.teamId, harbor.owner)).id;
    borrower = await addBorrower(api, loanId, { name: 'Dana Borrower' });
  });

  it('makes a JPEG preview of each HEIC and TIFF file in the background, stored encrypted, and serves it inline', async () => {
    const id = await itemId('government-id');
    const tiff = await sampleScanTiff(2400, 1800);
    await uploadVersion(api, borrower, loanId, id, [
      { name: 'front.heic', bytes: sampleHeic() },
      { name: 'back scan.tif', bytes: tiff },
      { name: 'note.pdf', bytes: await samplePdf('Both sides of my licence') },
    ]);
    // One job per file that needs converting, queued with the version; until it runs the preview is on its way.
    expect((await previewJobs()).map((row) => [row.status, row.maxAttempts])).toEqual([
      ['pending', PREVIEW_ATTEMPTS],
      ['pending', PREVIEW_ATTEMPTS],
    ]);
    const before = await files(id, borrower);
    expect(before.map((file) => [file.type, file.previewable, file.previewPending])).toEqual([
      ['image/heic', false, true],
      ['image/tiff', false, true],
      ['application/pdf', true, false],
    ]);
    const early = await api.as(borrower).get(`${base(id)}/files/${before[0]!.id}/preview`);
    expect(early.statusCode).toBe(409);
    expect(early.json().detail).toMatch(/still being made/);

    const worker = await testJobWorker(api);
    await worker.drain();
    expect((await previewJobs()).map((row) => [row.status, row.attempts])).toEqual([
      ['done', 1],
      ['done', 1],
    ]);
    const after = await files(id, borrower);
    expect(after.map((file) => [file.previewable, file.previewPending])).toEqual([
      [true, false],
      [true, false],
      [true, false],
    ]);

    const heic = await api.as(borrower).get(`${base(id)}/files/${after[0]!.id}/preview`);
    expect(heic.statusCode).toBe(200);
    expect(heic.headers).toMatchObject({
      'content-type': 'image/jpeg',
      'x-content-type-options': 'nosniff',
      'content-security-policy': 'sandbox',
      'content-disposition': `inline; filename="front.heic.jpg"; filename*=UTF-8''front.heic.jpg`,
    });
    expect(await sharp(heic.rawPayload).metadata()).toMatchObject({ format: 'jpeg', width: HEIC_PHOTO.width, height: HEIC_PHOTO.height });
    const scan = await api.as(harbor.owner).get(`${base(id)}/files/${after[1]!.id}/preview`);
    expect(await sharp(scan.rawPayload).metadata()).toMatchObject({ format: 'jpeg', width: PREVIEW_MAX_EDGE, height: 1500 });
    const part = await api.as(harbor.owner).get(`${base(id)}/files/${after[1]!.id}/preview`, { headers: { range: 'bytes=0-99' } });
    expect(part.statusCode).toBe(206);
    expect(part.rawPayload.equals(scan.rawPayload.subarray(0, 100))).toBe(true);
    // The download is still the original file.
    expect((await api.as(borrower).get(`${base(id)}/files/${after[0]!.id}`)).rawPayload.equals(sampleHeic())).toBe(true);

    // At rest the previews are ciphertext: they do not open as a JPEG, and hold no 16-byte window of what the browser got.
    // (Three bytes such as the JPEG marker turn up by chance in a few hundred KB of ciphertext about once in forty runs; 16 never do.)
    const keys = await objectsUnder(worker.files.objects, `previews/${loanId}/`);
    expect(keys).toHaveLength(2);
    for (const key of keys) {
      const stored = await readObject(worker.files.objects, key);
      expect(stored.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]))).toBe(false);
      for (const plain of [heic.rawPayload, scan.rawPayload]) {
        for (let at = 0; at + 16 <= plain.length; at += 16) expect(stored.includes(plain.subarray(at, at + 16))).toBe(false);
      }
    }
  });

  it('tries an unreadable HEIC a few times, then marks it as having no preview and offers the download', async () => {
    const id = await itemId('bank-statements');
    // Its boxes are whole, so the upload takes it; the decoder finds no image in it.
    const broken = sampleBrokenHeic();
    await uploadVersion(api, borrower, loanId, id, [{ name: 'statement photo.heic', bytes: broken }]);
    const worker = await testJobWorker(api);
    await worker.drain();
    const [file] = await files(id);
    const ran = await jobOf(file!.id);
    expect(ran).toMatchObject({ status: 'done', attempts: PREVIEW_ATTEMPTS });
    expect(ran!.lastError).toBeNull();
    expect(worker.logged.filter((line) => line.level === 'warn').map((line) => line.message)).toContain('no preview: the decoder could not read this file');
    expect(file).toMatchObject({ previewable: false, previewPending: false });
    const [stored] = await api.db.select().from(documentFile).where(eq(documentFile.id, file!.id));
    expect(stored).toMatchObject({ previewUnavailable: 'unreadable', previewObjectKey: null });
    const preview = await api.as(borrower).get(`${base(id)}/files/${file!.id}/preview`);
    expect(preview.statusCode).toBe(415);
    expect(preview.json().detail).toBe('No preview could be made of this file: download it instead');
    expect((await api.as(borrower).get(`${base(id)}/files/${file!.id}`)).statusCode).toBe(200);
  });

  it('makes no preview of an image past the pixel limit, without retrying', async () => {
    const id = await itemId('real-estate-owned');
    // A scan of 8,000 × 6,400 = 51.2 megapixels: a file of a few kilobytes that would take about a gigabyte to decode.
    const huge = await sampleScanTiff(8000, 6400);
    await uploadVersion(api, harbor.owner, loanId, id, [{ name: 'survey.tif', bytes: huge }]);
    await (await testJobWorker(api)).drain();
    const [file] = await files(id);
    expect(file).toMatchObject({ previewable: false, previewPending: false });
    const [stored] = await api.db.select().from(documentFile).where(eq(documentFile.id, file!.id));
    expect(stored!.previewUnavailable).toBe('too_large');
    expect(await jobOf(file!.id)).toMatchObject({ status: 'done', attempts: 1 });
  });

  it('stores nothing for a file that went before its preview was made, or while it was', async () => {
    // Gone before the job ran: the item (and its files) deleted.
    const leases = await itemId('leases');
    await uploadVersion(api, harbor.owner, loanId, leases, [{ name: 'lease.tif', bytes: await sampleTiff(200, 150) }]);
    const { version } = (await api.as(harbor.owner).get(`/api/loans/${loanId}/checklist`)).json<ChecklistView>().items.find((i) => i.id === leases)!;
    expect((await api.as(harbor.owner).delete(base(leases), { version })).statusCode).toBe(204);
    const worker = await testJobWorker(api);
    await worker.drain();

    // Gone while it was being made: the row is deleted just as the preview's object is written.
    const oa = await itemId('operating-agreement');
    const vault = api.files;
    class RacingVault extends FileVault {
      override async storeBuffer(bytes: Buffer, prefix: string) {
        const stored = await super.storeBuffer(bytes, prefix);
        await api.db.delete(documentFile).where(eq(documentFile.itemId, oa));
        return stored;
      }
    }
    await uploadVersion(api, harbor.owner, loanId, oa, [{ name: 'signed.tif', bytes: await sampleTiff(200, 150) }]);
    const previewsBefore = await objectsUnder(vault.objects, `previews/${loanId}/`);
    const racing = await testJobWorker(api, { files: new RacingVault(vault.objects, vault.masterKeys) });
    await racing.drain();
    expect(
      await api.db
        .select()
        .from(job)
        .where(and(eq(job.queue, PREVIEW_QUEUE), eq(job.status, 'pending'))),
    ).toEqual([]);
    expect(await objectsUnder(vault.objects, `previews/${loanId}/`)).toEqual(previewsBefore);
  });
});
