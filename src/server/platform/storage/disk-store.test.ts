import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buffer as collect } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDiskStore } from './disk-store';
import { ObjectNotFound, type ObjectStore } from './object-store';

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

  it('puts, reads whole and by range, lists and deletes an object', async () => {
    const bytes = randomBytes(200_000);
    expect(await store.put('ab/cd/object-1', Readable.from([bytes.subarray(0, 70_000), bytes.subarray(70_000)]))).toEqual({ size: 200_000 });
    expect((await collect(await store.get('ab/cd/object-1'))).equals(bytes)).toBe(true);
    expect((await collect(await store.get('ab/cd/object-1', { start: 65_536, end: 131_087 }))).equals(bytes.subarray(65_536, 131_088))).toBe(true);
    const listed = [];
    for await (const entry of store.list()) listed.push(entry);
    expect(listed).toEqual([{ key: 'ab/cd/object-1', size: 200_000, writtenAt: expect.any(Date) }]);
    await store.delete('ab/cd/object-1');
    await expect(store.get('ab/cd/object-1')).rejects.toBeInstanceOf(ObjectNotFound);
  });

  it('leaves nothing behind when the body fails half-way', async () => {
    const failing = new Readable({
      read() {
        this.push(randomBytes(50_000));
        this.destroy(new Error('the client went away'));
      },
    });
    await expect(store.put('ab/cd/broken', failing)).rejects.toThrow('the client went away');
    await expect(store.get('ab/cd/broken')).rejects.toBeInstanceOf(ObjectNotFound);
    expect(await readdir(path.join(root, '.tmp'))).toEqual([]);
  });

  it('refuses keys that could leave its folder', async () => {
    for (const key of ['../escape', 'a/../../b', '/etc/passwd', 'A/b', 'a//b', '', 'a/b/c/d/e', '.tmp/x'])
      await expect(store.put(key, Readable.from([Buffer.from('x')])), key).rejects.toThrow('Not an object key');
  });

  it('clears what a crash left half-written when it opens again', async () => {
    await writeFile(path.join(root, '.tmp', 'left-by-a-crash'), 'partial');
    await createDiskStore(root);
    expect(await readdir(path.join(root, '.tmp'))).toEqual([]);
  });
});
