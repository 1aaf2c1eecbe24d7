import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import type { ChecklistItemView, ChecklistView } from '../../shared/schemas/checklist';
import type { UploadView } from '../../shared/schemas/documents';
import { testConfig } from '../../test/config';
import { addBorrower, createLoan, createTeamWithOwner } from '../../test/factories';
import { rawExchange, type Sent } from '../../test/http';
import { freePort } from '../../test/nginx';
import { samplePdf } from '../../test/sample-files';
import { uploadLinkTokenFor } from '../../test/upload-links';
import { createLogger, createRuntime } from '../runtime';

/*
 * Every way an upload can fail, sent to the real server in a process of its
 * own, with its request log on (info) and TRUST_PROXY unset, naming the proxy,
 * and trusting every hop: after each, the process still answers. Behind a
 * trusted proxy Fastify reads the client's address from the socket, which a
 * refused upload's request no longer has; the request log once read it in the
 * response's 'finish' handler and the throw ended the process.
 *
 * PGlite only: what is tried here is the HTTP layer, the same on both databases.
 */

const ORIGIN = 'http://localhost:3000';

async function startServer(env: Record<string, string>): Promise<{ child: ChildProcess; port: number }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: process.cwd(),
    // The request log on, as in production: the line it writes is what once threw.
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', NODE_ENV: 'test' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}: ${stderr}`);
    if (await answers(port)) return { child, port };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error('the server did not start');
}

const answers = (port: number) =>
  fetch(`http://127.0.0.1:${port}/healthz`).then(
    (response) => response.status === 200,
    () => false,
  );

describe('upload failures against the real server process, with and without TRUST_PROXY', () => {
  const env = {
    DATA_DIR: testConfig().dataDir,
    AUTH_SECRET: 'upload-failures-test-secret-0123456789abcdef',
    PUBLIC_URL: ORIGIN,
    MASTER_KEY: randomBytes(32).toString('base64'),
    // Small files only: the body limit is the announced size, never this.
    MAX_UPLOAD_MB: '5',
  };
  let cookie = '';
  let loanId = '';
  let itemId = '';
  let linkToken = '';
  let server: { child: ChildProcess; port: number } | null = null;

  const stopServer = async (signal: NodeJS.Signals) => {
    const running = server;
    server = null;
    if (running && running.child.exitCode === null && running.child.signalCode === null) {
      running.child.kill(signal);
      await once(running.child, 'exit');
    }
  };
  afterAll(() => stopServer('SIGKILL'));

  it.each([
    ['unset', {}],
    ['naming the proxy (127.0.0.1, as DEPLOY.md says)', { TRUST_PROXY: '127.0.0.1' }],
    ['trusting every hop', { TRUST_PROXY: 'true' }],
  ])(
    'stays up through every upload failure path with TRUST_PROXY %s, for a borrower and for a link with no account',
    async (_name, proxyEnv) => {
      if (!cookie) {
        // The people, the loan and a link, made in-process before the server's process takes the data folder.
        const runtime = await createRuntime(testConfig(env), { logger: createLogger({ logLevel: 'silent' }), distDir: '/nonexistent' });
        const factory = { app: runtime.app, db: runtime.database.db };
        const team = await createTeamWithOwner(factory);
        loanId = (await createLoan(factory, team.teamId, team.owner)).id;
        cookie = (await addBorrower(factory, loanId)).cookie;
        const headers = { cookie, origin: ORIGIN };
        itemId = (await runtime.app.inject({ method: 'GET', url: `/api/loans/${loanId}/checklist`, headers })).json<ChecklistView<ChecklistItemView>>()
          .items[0]!.id;
        const owner = { cookie: team.owner.cookie, origin: ORIGIN };
        const surveyItem = await runtime.app.inject({
          method: 'POST',
          url: `/api/loans/${loanId}/checklist/items`,
          headers: owner,
          payload: { label: 'Boundary survey', category: 'property', provider: 'third_party' },
        });
        const surveyId = surveyItem.json<ChecklistItemView>().id;
        const sent = await runtime.app.inject({
          method: 'POST',
          url: `/api/loans/${loanId}/checklist/items/${surveyId}/upload-links`,
          headers: owner,
          payload: { name: 'Sam Survey', email: 'sam@survey.test' },
        });
        expect(sent.statusCode, sent.body).toBe(201);
        linkToken = await uploadLinkTokenFor(runtime.database.db, 'sam@survey.test');
        await runtime.stop();
      }

      server = await startServer({ ...env, ...proxyEnv });
      try {
        const { port, child } = server;
        const pdf = await samplePdf('A small statement');

        /** The two kinds of caller: a signed-in borrower on her item, and a link's holder with no account. */
        const callers = [
          {
            name: 'borrower',
            auth: `Cookie: ${cookie}\r\n`,
            start: `/api/loans/${loanId}/checklist/items/${itemId}/uploads`,
            file: (uploadId: string) => `/api/loans/${loanId}/checklist/items/${itemId}/uploads/${uploadId}/files/1`,
          },
          {
            name: 'link',
            auth: `Authorization: Bearer ${linkToken}\r\n`,
            start: '/api/upload-link/uploads',
            file: (uploadId: string) => `/api/upload-link/uploads/${uploadId}/files/1`,
          },
        ];

        for (const caller of callers) {
          const headers = {
            origin: ORIGIN,
            'content-type': 'application/json',
            ...(caller.name === 'borrower' ? { cookie } : { authorization: `Bearer ${linkToken}` }),
          };
          /** A fresh upload announcing one file of `size` bytes; a link takes one version, so each path announces anew and cancels after. */
          const announce = async (name: string, size: number) => {
            const started = await fetch(`http://127.0.0.1:${port}${caller.start}`, {
              method: 'POST',
              headers,
              body: JSON.stringify({ files: [{ name, size }] }),
            });
            expect(started.status, `${caller.name}: ${await started.clone().text()}`).toBe(201);
            return ((await started.json()) as UploadView).id;
          };
          const putHead = (uploadId: string, length: number | null, type = 'application/pdf') =>
            `PUT ${caller.file(uploadId)} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: ${ORIGIN}\r\n${caller.auth}Content-Type: ${type}\r\n` +
            (length === null ? 'Transfer-Encoding: chunked\r\n' : `Content-Length: ${length}\r\n`) +
            '\r\n';
          const chunked = (bytes: Buffer) => Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, Buffer.from('\r\n0\r\n\r\n')]);
          /** Cancels a path's upload, so the next path's start stays inside the link's quota of open uploads. */
          const cancel = async (uploadId: string, what: string) => {
            const { 'content-type': _json, ...bodiless } = headers;
            const cancelled = await fetch(`http://127.0.0.1:${port}${caller.start}/${uploadId}`, { method: 'DELETE', headers: bodiless });
            expect(cancelled.status, `${caller.name}, ${what}: cancelling: ${await cancelled.text()}`).toBeLessThan(300);
          };

          const paths: [string, (uploadId: string) => Promise<Sent>, number | null][] = [
            // Larger than announced, said up front (the finding: 50 bytes announced, 135 sent).
            ['larger than announced', (id) => rawExchange(port, putHead(id, 135), [Buffer.alloc(135, 0x25)], 'keep'), 400],
            // Larger than announced, found only while reading (no length given): the body is cut short by the server.
            ['larger than announced, chunked', (id) => rawExchange(port, putHead(id, null), [chunked(Buffer.alloc(135, 0x25))], 'keep'), 400],
            // Not what it says it is: text under a PDF's name.
            ['the wrong type', (id) => rawExchange(port, putHead(id, 50), [Buffer.alloc(50, 0x61)], 'keep'), null],
            // The client stops writing and half-closes: fewer bytes than its Content-Length.
            ['cut off', (id) => rawExchange(port, putHead(id, 50), [pdf.subarray(0, 20)], 'half'), null],
            // The client drops the connection mid-body.
            ['aborted', (id) => rawExchange(port, putHead(id, 50), [pdf.subarray(0, 20)], 'destroy'), null],
          ];
          for (const [what, send, status] of paths) {
            const uploadId = await announce('a.pdf', 50);
            const answer = await send(uploadId);
            if (status !== null) expect(answer.status, `${caller.name}, ${what}: ${answer.text}`).toBe(status);
            // A refusal is a 4xx naming what went wrong, never a 5xx, whenever an answer came at all.
            if (answer.status) expect(answer.status, `${caller.name}, ${what}: ${answer.text}`).toBeLessThan(500);
            expect(child.exitCode, `${caller.name}, ${what}: the process ended`).toBeNull();
            expect(await answers(port), `${caller.name}, ${what}: the server no longer answers`).toBe(true);
            await cancel(uploadId, what);
          }
        }

        // Still whole: a proper upload goes through after all of that.
        const uploadId = await (async () => {
          const started = await fetch(`http://127.0.0.1:${port}${callers[0]!.start}`, {
            method: 'POST',
            headers: { origin: ORIGIN, cookie, 'content-type': 'application/json' },
            body: JSON.stringify({ files: [{ name: 'statement.pdf', size: pdf.length }] }),
          });
          return ((await started.json()) as UploadView).id;
        })();
        const put = await fetch(`http://127.0.0.1:${port}${callers[0]!.file(uploadId)}`, {
          method: 'PUT',
          headers: { origin: ORIGIN, cookie, 'content-type': 'application/pdf' },
          body: new Uint8Array(pdf),
        });
        expect(put.status, await put.clone().text()).toBe(200);
        await fetch(`http://127.0.0.1:${port}${callers[0]!.start}/${uploadId}`, { method: 'DELETE', headers: { origin: ORIGIN, cookie } });
      } finally {
        // Stopped even when a check failed, so the next case's server can take the data folder.
        await stopServer('SIGTERM');
      }
    },
    120_000,
  );
});
