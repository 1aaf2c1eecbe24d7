import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { request } from 'node:http';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import type { UploadView, VersionsView } from '../../shared/schemas/documents';
import type { FastifyInstance } from 'fastify';
import type { Api } from '../../test/api';
import { testConfig } from '../../test/config';
import { createTestDatabase, backends, type TestDatabase } from '../../test/databases';
import { uploadVersion } from '../../test/documents';
import { addBorrower, createLoan, createTeamWithOwner, type Person } from '../../test/factories';
import { samplePdf } from '../../test/sample-files';
import { documentFile, documentUpload } from '../db/schema';
import { createLogger, createRuntime } from '../runtime';

const silent = createLogger({ logLevel: 'silent' });

/** Just enough of the test Api over an app for uploadVersion. */
const callerOf = (app: FastifyInstance) =>
  ({
    as: (who: Person) => {
      const send =
        (method: 'GET' | 'POST' | 'PUT' | 'DELETE') =>
        (url: string, body?: unknown, extra: { headers?: Record<string, string> } = {}) =>
          app.inject({ method, url, headers: { cookie: who.cookie, ...extra.headers }, ...(body === undefined ? {} : { payload: body as string }) });
      return { get: send('GET'), post: send('POST'), put: send('PUT'), delete: send('DELETE') };
    },
  }) as unknown as Api;
const root = path.resolve(import.meta.dirname, '../../..');

/** The real server in its own process (from source), on the configuration's DATA_DIR and database; resolves once it answers. */
async function startServer(env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'silent', NODE_ENV: 'test' },
    stdio: 'ignore',
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    const up = await fetch(`${url}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    if (up) return { child, url };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error('the server did not start');
}

/** Objects in DATA_DIR/files, temporary ones included. */
async function filesOnDisk(dataDir: string) {
  const entries = await readdir(path.join(dataDir, 'files'), { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => path.relative(dataDir, path.join(entry.parentPath, entry.name)));
}

describe.each(backends)('a server killed in the middle of an upload, on %s', (backend) => {
  let database: TestDatabase | null = null;
  afterAll(async () => {
    await database?.destroy();
  });

  it('keeps nothing half-stored: after the restart there is no version, no file row and no object, and the next upload works', async () => {
    if (backend === 'postgres') database = await createTestDatabase('postgres');
    const env = {
      DATA_DIR: testConfig().dataDir,
      AUTH_SECRET: 'killed-upload-test-secret-0123456789abcdef',
      PUBLIC_URL: 'http://localhost:3000',
      MASTER_KEY: randomBytes(32).toString('base64'),
      ...(database?.url ? { DATABASE_URL: database.url } : {}),
    };
    const config = testConfig(env);

    // The people and the loan, made in-process before the server process takes the data folder.
    let borrower: Person;
    let loanId: string;
    let itemId: string;
    {
      const runtime = await createRuntime(config, { logger: silent, distDir: '/nonexistent' });
      const factory = { app: runtime.app, db: runtime.database.db };
      const team = await createTeamWithOwner(factory);
      loanId = (await createLoan(factory, team.teamId, team.owner)).id;
      borrower = await addBorrower(factory, loanId);
      const items = (await runtime.app.inject({ method: 'GET', url: `/api/loans/${loanId}/checklist`, headers: { cookie: borrower.cookie } })).json<{
        items: { id: string }[];
      }>().items;
      itemId = items[0]!.id;
      await runtime.stop();
    }

    const server = await startServer(env);
    const base = `${server.url}/api/loans/${loanId}/checklist/items/${itemId}`;
    const headers = { cookie: borrower.cookie, origin: 'http://localhost:3000', 'content-type': 'application/json' };
    const size = 8 * 1024 * 1024;
    const started = await fetch(`${base}/uploads`, { method: 'POST', headers, body: JSON.stringify({ files: [{ name: 'big.pdf', size }] }) });
    expect(started.status).toBe(201);
    const upload = (await started.json()) as UploadView;

    // Half of the file goes out; then the server dies without a chance to clean up.
    await new Promise<void>((resolve) => {
      const req = request(`${base}/uploads/${upload.id}/files/1`, {
        method: 'PUT',
        headers: { cookie: borrower.cookie, origin: 'http://localhost:3000', 'content-type': 'application/pdf', 'content-length': size },
      });
      req.on('error', () => resolve());
      req.write(Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(size / 2)]), () => {
        setTimeout(() => {
          server.child.kill('SIGKILL');
          server.child.once('exit', () => resolve());
        }, 300);
      });
    });

    if (server.child.exitCode === null && server.child.signalCode === null) await once(server.child, 'exit');

    // The restart: the store clears what the dead process was writing, and no row ever pointed at it.
    const runtime = await createRuntime(config, { logger: silent, distDir: '/nonexistent' });
    try {
      expect(await filesOnDisk(config.dataDir)).toEqual([]);
      expect(await runtime.database.db.select().from(documentFile).where(eq(documentFile.itemId, itemId))).toEqual([]);
      const [pending] = await runtime.database.db.select().from(documentUpload).where(eq(documentUpload.id, upload.id));
      expect(pending?.id).toBe(upload.id); // announced, never completed: the sweep removes it when it expires
      const versions = (
        await runtime.app.inject({ method: 'GET', url: `${`/api/loans/${loanId}/checklist/items/${itemId}`}/versions`, headers: { cookie: borrower.cookie } })
      ).json<VersionsView>();
      expect(versions.versions).toEqual([]);

      const pdf = await samplePdf('After the restart');
      const version = await uploadVersion(callerOf(runtime.app), borrower, loanId, itemId, [{ name: 'again.pdf', bytes: pdf }]);
      expect(version.number).toBe(1);
      expect(await filesOnDisk(config.dataDir)).toHaveLength(1);
    } finally {
      await runtime.stop();
    }
  }, 120_000);
});
