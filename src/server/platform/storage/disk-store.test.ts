import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDiskStore } from './disk-store';
import type { ObjectStore } from './object-store';

// What only the disk store does; the contract of every store is in object-store.test.ts.
describe('the disk object store', () => {
  let root: string;
  let store: ObjectStore;
  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'coverly-store-'));
    store = await createDiskStore(root);
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('writes to a temporary name and keeps none of it when the body fails', async () => {
    const failing = new Readable({
      read() {
        this.push(randomBytes(50_000));
        this.destroy(new Error('the client went away'));
      },
    });
    await expect(store.put('ab/cd/broken', failing)).rejects.toThrow('the client went away');
    expect(await readdir(path.join(root, '.tmp'))).toEqual([]);
  });

  it('never takes its temporary folder for a key', async () => {
    await expect(store.put('.tmp/x', Readable.from([Buffer.from('x')]))).rejects.toThrow('Not an object key');
  });

  it('clears what a crash left half-written when it opens again', async () => {
    await writeFile(path.join(root, '.tmp', 'left-by-a-crash'), 'partial');
    await createDiskStore(root);
    expect(await readdir(path.join(root, '.tmp'))).toEqual([]);
  });

  it('leaves them to a server that may be writing them when opened only to read (check-storage)', async () => {
    await writeFile(path.join(root, '.tmp', 'a-running-server-is-writing-this'), 'partial');
    await createDiskStore(root, { clearLeftovers: false });
    expect(await readdir(path.join(root, '.tmp'))).toEqual(['a-running-server-is-writing-this']);
    await rm(path.join(root, '.tmp', 'a-running-server-is-writing-this'));
  });

  it('removes temporary files older than the cut-off when the sweep asks, and keeps younger ones', async () => {
    const old = path.join(root, '.tmp', 'hung-two-days-ago');
    await writeFile(old, 'partial');
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 3600_000);
    await utimes(old, twoDaysAgo, twoDaysAgo);
    await writeFile(path.join(root, '.tmp', 'still-writing'), 'partial');
    expect(await store.abortStaleUploads!(new Date(Date.now() - 24 * 3600_000))).toEqual({ aborted: 1 });
    expect(await readdir(path.join(root, '.tmp'))).toEqual(['still-writing']);
  });
});
