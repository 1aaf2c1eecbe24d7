import { readFile, writeFile } from 'node:fs/promises';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ChecklistView } from '../../shared/schemas/checklist';
import type { VersionView } from '../../shared/schemas/documents';
import { setupApi } from '../../test/api';
import { uploadVersion } from '../../test/documents';
import { addBorrower, createLoan, createTeamWithOwner, type Person, type Team } from '../../test/factories';
import { leaseJpeg, leasePdf, noisePng } from '../../test/sample-files';
import { findPlaintext } from '../../test/plaintext-scan';
import { databasesAndStores } from '../../test/storage';
import { documentFile } from '../db/schema';

/**
 * The proof of encryption at rest through the product itself: documents
 * uploaded by a borrower through the upload routes, then every byte the store
 * holds read behind its back (disk files, or everything s3rver keeps) and
 * searched for any 16-byte window of the documents and their magic bytes.
 * Then one stored byte is flipped: the download fails cleanly.
 */
describe.each(databasesAndStores)('documents at rest on %s with %s storage', (backend, storage) => {
  const api = setupApi(backend, { storage });
  let team: Team;
  let borrower: Person;
  let loanId: string;
  let itemId: string;
  let documents: { name: string; bytes: Buffer }[];
  let version: VersionView;

  beforeAll(async () => {
    team = await createTeamWithOwner(api);
    loanId = (await createLoan(api, team.teamId, team.owner)).id;
    borrower = await addBorrower(api, loanId);
    itemId = (await api.as(borrower).get(`/api/loans/${loanId}/checklist`)).json<ChecklistView>().items[0]!.id;
    documents = [
      { name: 'statement.pdf', bytes: await leasePdf() },
      { name: 'front.png', bytes: noisePng() },
      { name: 'back.jpg', bytes: leaseJpeg() },
    ];
    version = await uploadVersion(api, borrower, loanId, itemId, documents);
  });

  it('stores no 16-byte window of any uploaded document, nor its magic bytes, and gives the documents back whole', async () => {
    expect(
      await findPlaintext(
        api.storage.rawFiles(api.config),
        documents.map((document) => document.bytes),
      ),
    ).toEqual([]);
    for (const [index, file] of version.files.entries()) {
      const download = await api.as(team.owner).get(`/api/loans/${loanId}/checklist/items/${itemId}/files/${file.id}`);
      expect(download.statusCode).toBe(200);
      expect(download.rawPayload.equals(documents[index]!.bytes)).toBe(true);
    }
  });

  it('refuses to serve a document whose stored bytes were altered: a clean error, no plaintext', async () => {
    const file = version.files[0]!;
    const [row] = await api.db.select().from(documentFile).where(eq(documentFile.id, file.id));
    const objectFile = api.storage.objectPath(api.config, row!.objectKey);
    const bytes = await readFile(objectFile);
    bytes[200]! ^= 0x01; // inside the first segment
    await writeFile(objectFile, bytes);
    const download = await api.as(team.owner).get(`/api/loans/${loanId}/checklist/items/${itemId}/files/${file.id}`);
    expect(download.statusCode).toBe(500);
    expect(download.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(download.json().detail).toMatch(/integrity check/);
    expect(download.rawPayload.includes(documents[0]!.bytes.subarray(0, 16))).toBe(false);
  });
});
