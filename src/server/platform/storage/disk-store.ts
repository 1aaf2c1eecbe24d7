import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertObjectKey, ObjectNotFound, type ObjectStore } from './object-store';

const TMP = '.tmp';

/** fsyncs a file or a folder, so a rename into it survives a power cut. */
async function sync(target: string) {
  const handle = await open(target, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Objects as files under `root` (DATA_DIR/files): written to a temporary
 * name, synced, then renamed into place, so a reader never sees half an
 * object and a crash leaves only a temporary file, which the next start
 * removes.
 */
export async function createDiskStore(root: string, options: { clearLeftovers?: boolean } = {}): Promise<ObjectStore> {
  await mkdir(path.join(root, TMP), { recursive: true });
  // What a crash mid-upload left behind: never pointed at, never to be finished. A reader beside a
  // running server (check-storage) passes clearLeftovers: false, or it would take the server's writes under way.
  if (options.clearLeftovers !== false) for (const name of await readdir(path.join(root, TMP))) await rm(path.join(root, TMP, name), { force: true });
  const fileOf = (key: string) => {
    assertObjectKey(key);
    return path.join(root, ...key.split('/'));
  };

  return {
    async put(key, body: Readable) {
      const target = fileOf(key);
      const temporary = path.join(root, TMP, randomUUID());
      try {
        await pipeline(body, createWriteStream(temporary, { flags: 'wx', mode: 0o600 }));
        await sync(temporary);
        await mkdir(path.dirname(target), { recursive: true });
        await rename(temporary, target);
        await sync(path.dirname(target));
        return { size: (await stat(target)).size };
      } catch (error) {
        await rm(temporary, { force: true });
        throw error;
      }
    },

    async get(key, range) {
      const file = fileOf(key);
      try {
        await stat(file);
      } catch {
        throw new ObjectNotFound(key);
      }
      return createReadStream(file, range ? { start: range.start, end: range.end } : {});
    },

    async delete(key) {
      await rm(fileOf(key), { force: true });
    },

    async *list() {
      async function* walk(folder: string, prefix: string[]): AsyncGenerator<{ key: string; size: number; writtenAt: Date }> {
        for (const entry of await readdir(folder, { withFileTypes: true })) {
          if (entry.name === TMP) continue;
          const full = path.join(folder, entry.name);
          if (entry.isDirectory()) yield* walk(full, [...prefix, entry.name]);
          else if (entry.isFile()) {
            // Deleted since the folder was read (an upload that failed, an object deletion): no longer there to list.
            const info = await stat(full).catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? null : Promise.reject(error)));
            if (info) yield { key: [...prefix, entry.name].join('/'), size: info.size, writtenAt: info.mtime };
          }
        }
      }
      yield* walk(root, []);
    },

    // A put that never finished and was never cleaned up (its process hung, or died while another kept running).
    async abortStaleUploads(olderThan) {
      let aborted = 0;
      for (const name of await readdir(path.join(root, TMP))) {
        const file = path.join(root, TMP, name);
        const info = await stat(file).catch(() => null);
        if (info && info.mtime < olderThan) {
          await rm(file, { force: true });
          aborted++;
        }
      }
      return { aborted };
    },
  };
}
