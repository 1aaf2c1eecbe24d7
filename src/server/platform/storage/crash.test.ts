import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storageBackends, useStorage } from '../../../test/storage';
import { openObjectStore } from '../files/open-vault';
import { ObjectNotFound } from './object-store';

/**
 * A server killed mid-upload (issue 16): a real process starts storing a
 * body, is killed outright (SIGKILL, no cleanup of any kind) while the
 * bytes flow, and the store, opened again as the restarted server opens it,
 * holds nothing of it.
 */
describe.each(storageBackends)('a put killed with its process on %s storage', (kind) => {
  const storage = useStorage(kind);
  let folder: string;
  let script: string;
  beforeAll(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'coverly-crash-'));
    script = path.join(folder, 'put-and-die.mjs');
    await build({
      entryPoints: [path.join(import.meta.dirname, '../../../test/children/put-and-die.ts')],
      outfile: script,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      logLevel: 'silent',
      // The SDK is CommonJS and requires Node's modules as it goes.
      banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
    });
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('leaves no object, and nothing a restart does not clear', async () => {
    const dataDir = await mkdtemp(path.join(folder, 'data-'));
    const child = spawn(process.execPath, [script, 'files/crash/killed-upload'], {
      env: { ...process.env, NODE_ENV: 'test', DATA_DIR: dataDir, ...storage.env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = once(child, 'exit');
    const [line] = (await Promise.race([once(createInterface({ input: child.stdout }), 'line'), exited])) as [string];
    expect(line).toBe('storing');
    if (kind !== 'disk') {
      // Killed once the store holds a part of the upload, not merely once the child has read its bytes: on a busy
      // machine the first part can still be on its way to S3 when the child says "storing".
      const holdsAPart = async () => {
        for await (const file of storage.rawFiles({ dataDir })) if (file.name.includes('._S3rver_uploads/')) return true;
        return false;
      };
      for (let waited = 0; !(await holdsAPart()) && waited < 30_000; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    child.kill('SIGKILL');
    await exited;

    if (kind === 'disk') {
      // The killed write is a temporary file, never an object; the next start clears it.
      expect(await readdir(path.join(dataDir, 'files', '.tmp'))).toHaveLength(1);
    } else {
      // A multipart upload was under way: its parts are in the store, but no object is.
      const names: string[] = [];
      for await (const file of storage.rawFiles({ dataDir })) names.push(file.name);
      expect(names.some((name) => name.includes('._S3rver_uploads/'))).toBe(true);
      expect(names.filter((name) => name.endsWith('._S3rver_object'))).toEqual([]);
    }

    const reopened = await openObjectStore({ dataDir, s3: storage.s3 });
    await expect(reopened.get('files/crash/killed-upload')).rejects.toBeInstanceOf(ObjectNotFound);
    const listed = [];
    for await (const object of reopened.list()) listed.push(object.key);
    expect(listed).toEqual([]);
    if (kind === 'disk') expect(await readdir(path.join(dataDir, 'files', '.tmp'))).toEqual([]);
  });
});
