// Encrypted uploads and downloads of one large file through the real app,
// against a bare node:http server streaming the same bytes to and from disk
// (bench/bare-file-server.mjs), in the same run and on the same disk:
//
//   throughput  app ÷ bare, upload and download                  (≥ 0.5 each)
//   memory      server RSS growth while the file streams          (≤ 64 MB)
//   event loop  delay p99 in the server while it streams          (≤ 20 ms)
//
// Beside them: AES-256-GCM plus SHA-256 over the same bytes on one core, the
// most the app's own work could allow. The file is BENCH_UPLOAD_MB (default
// 1024) of a PDF-shaped body; the app runs with MAX_UPLOAD_MB raised to fit.
import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { appEnv, median, report, root, runIfMain, sleep, startNode } from './lib.mjs';
import { runNode, send, signIn } from './session.mjs';

const MB = 1024 * 1024;
const SIZE = Number(process.env.BENCH_UPLOAD_MB ?? 1024) * MB;
const ROUNDS = Number(process.env.BENCH_UPLOAD_ROUNDS ?? 2);
const APP_PORT = 3290;
const BARE_PORT = 3291;
const PROBE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'loop-probe.mjs');
const BLOCK = randomBytes(MB);
const HEAD = Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1');
const TAIL = Buffer.from('\n%%EOF\n', 'latin1');

/** The file's bytes, made as they are sent: a PDF header, repeated random blocks, the end-of-file marker. */
function* body() {
  yield HEAD;
  let left = SIZE - HEAD.length - TAIL.length;
  while (left > 0) {
    const part = left >= BLOCK.length ? BLOCK : BLOCK.subarray(0, left);
    left -= part.length;
    yield part;
  }
  yield TAIL;
}

const rssOf = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) * 1024;

/** Samples a process's RSS every 20 ms while `work` runs: the growth over where it started. */
async function watched(server, work) {
  const probe = server.probeFile;
  const snapshot = async () => {
    server.child.kill('SIGUSR2');
    for (let i = 0; i < 100; i++) {
      await sleep(10);
      try {
        const text = readFileSync(probe, 'utf8');
        rmSync(probe);
        return JSON.parse(text);
      } catch {
        // not written yet
      }
    }
    throw new Error('the event-loop probe did not answer');
  };
  await snapshot(); // starts its histogram afresh
  const before = rssOf(server.child.pid);
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, rssOf(server.child.pid))), 20);
  const started = process.hrtime.bigint();
  try {
    const result = await work();
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const loop = await snapshot();
    return {
      ...result,
      seconds,
      mbPerSecond: Number((SIZE / MB / seconds).toFixed(1)),
      rssGrowthMb: Number(((peak - before) / MB).toFixed(1)),
      loopP99Ms: loop.p99,
      loopMaxMs: loop.max,
    };
  } finally {
    clearInterval(timer);
  }
}

/** PUTs the file as a raw body; resolves with the answer. */
function put(url, headers) {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'PUT', headers: { 'content-type': 'application/pdf', 'content-length': SIZE, ...headers } }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => (res.statusCode === 200 ? resolve(text) : reject(new Error(`PUT answered ${res.statusCode}: ${text}`))));
    });
    req.on('error', reject);
    Readable.from(body()).pipe(req);
  });
}

/** GETs a file and counts its bytes. */
function get(url, headers) {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      let bytes = 0;
      res.on('data', (chunk) => (bytes += chunk.length));
      res.on('end', () =>
        res.statusCode === 200 && bytes === SIZE ? resolve({ bytes }) : reject(new Error(`GET answered ${res.statusCode} with ${bytes} bytes`)),
      );
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

/** AES-256-GCM in 64 KiB segments plus SHA-256, over the same bytes, on this one core. */
function cryptoReference() {
  const key = randomBytes(32);
  const hash = createHash('sha256');
  const started = process.hrtime.bigint();
  let index = 0;
  for (const chunk of body()) {
    for (let offset = 0; offset < chunk.length; offset += 64 * 1024) {
      const segment = chunk.subarray(offset, offset + 64 * 1024);
      const nonce = Buffer.alloc(12);
      nonce.writeUInt32BE(index++, 7);
      const cipher = createCipheriv('aes-256-gcm', key, nonce);
      cipher.update(segment);
      cipher.final();
      cipher.getAuthTag();
      hash.update(segment);
    }
  }
  hash.digest();
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return Number((SIZE / MB / seconds).toFixed(1));
}

async function startServer(args, env, work, name) {
  const probeFile = path.join(work, `${name}-loop.json`);
  const server = await startNode(['--import', pathToFileURL(PROBE).href, ...args], {
    env: { ...env, LOOP_PROBE_FILE: probeFile },
    logFile: path.join(work, `${name}.log`),
    readyUrl: `http://127.0.0.1:${env.PORT}/healthz`,
  });
  return Object.assign(server, { probeFile });
}

export async function runUploads() {
  const work = mkdtempSync(path.join(tmpdir(), 'coverly-bench-uploads-'));
  const base = `http://127.0.0.1:${APP_PORT}`;
  const env = appEnv(
    { port: APP_PORT, dataDir: path.join(work, 'data') },
    { MAX_UPLOAD_MB: String(Math.ceil(SIZE / MB) + 16), UPLOAD_MB_PER_PERSON_PER_DAY: String(Math.ceil((SIZE * (ROUNDS + 1)) / MB) + 16) },
  );
  const rounds = { app: { upload: [], download: [] }, bare: { upload: [], download: [] } };
  try {
    const seeded = JSON.parse(await runNode(['dist/server/cli.js', 'seed-demo', '--loans', '1', '--json'], env));
    const app = await startServer(['dist/server/main.js'], env, work, 'app');
    const bareDir = path.join(work, 'bare');
    (await import('node:fs')).mkdirSync(bareDir);
    const bare = await startServer([path.join(root, 'bench/bare-file-server.mjs')], { PORT: String(BARE_PORT), BARE_DIR: bareDir }, work, 'bare');
    try {
      const cookie = await signIn(base, seeded.owner);
      const headers = { cookie, origin: base };
      const loans = JSON.parse((await send('GET', `${base}/api/teams/${seeded.teamId}/loans`, { headers })).body);
      const loanId = loans.rows[0].id;
      const added = await send('POST', `${base}/api/loans/${loanId}/checklist/items`, { headers, body: { label: 'Benchmark statements', category: 'assets' } });
      if (added.status !== 201) throw new Error(`adding an item answered ${added.status}: ${added.body}`);
      const item = JSON.parse(added.body);
      const itemUrl = `${base}/api/loans/${loanId}/checklist/items/${item.id}`;

      for (let round = 0; round < ROUNDS; round++) {
        rounds.bare.upload.push(await watched(bare, () => put(`http://127.0.0.1:${BARE_PORT}/upload`, {})));
        const started = await send('POST', `${itemUrl}/uploads`, { headers, body: { files: [{ name: 'big statement.pdf', size: SIZE }] } });
        if (started.status !== 201) throw new Error(`starting the upload answered ${started.status}: ${started.body}`);
        const upload = JSON.parse(started.body);
        rounds.app.upload.push(await watched(app, () => put(`${itemUrl}/uploads/${upload.id}/files/1`, headers).then(() => ({}))));
        const done = await send('POST', `${itemUrl}/uploads/${upload.id}/complete`, { headers });
        if (done.status !== 201) throw new Error(`completing the upload answered ${done.status}: ${done.body}`);
        const fileId = JSON.parse(done.body).files[0].id;
        rounds.bare.download.push(await watched(bare, () => get(`http://127.0.0.1:${BARE_PORT}/upload`, {})));
        rounds.app.download.push(await watched(app, () => get(`${itemUrl}/files/${fileId}`, headers)));
      }
    } finally {
      await app.stop();
      await bare.stop();
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }

  const figure = (list, key) => median(list.map((r) => r[key]));
  const worst = (list, key) => Math.max(...list.map((r) => r[key]));
  const ratio = (kind) => Number((figure(rounds.app[kind], 'mbPerSecond') / figure(rounds.bare[kind], 'mbPerSecond')).toFixed(3));
  const oneCore = cryptoReference();
  const result = {
    sizeMb: SIZE / MB,
    rounds: ROUNDS,
    node: process.version,
    cryptoOneCoreMbPerSecond: oneCore,
    upload: { ratio: ratio('upload'), app: rounds.app.upload, bare: rounds.bare.upload },
    download: { ratio: ratio('download'), app: rounds.app.download, bare: rounds.bare.download },
  };
  const row = (kind, who) =>
    `| ${kind} | ${who} | ${figure(rounds[who][kind], 'mbPerSecond')} | ${worst(rounds[who][kind], 'rssGrowthMb')} | ${worst(rounds[who][kind], 'loopP99Ms')} |`;
  const lines = [
    `# Encrypted uploads and downloads`,
    ``,
    `${new Date().toISOString()} · Node ${process.version} · one ${SIZE / MB} MB file · ${ROUNDS} rounds each, alternating, medians (worst for memory and the event loop)`,
    ``,
    `| | server | MB/s | RSS growth (MB) | event-loop p99 (ms) |`,
    `|---|---|---|---|---|`,
    row('upload', 'app'),
    row('upload', 'bare'),
    row('download', 'app'),
    row('download', 'bare'),
    ``,
    `app ÷ bare node:http: upload ${result.upload.ratio}, download ${result.download.ratio}.`,
    `AES-256-GCM (64 KiB segments) plus SHA-256 over the same bytes on one core: ${oneCore} MB/s.`,
  ];
  const checks = [];
  for (const kind of ['upload', 'download']) {
    checks.push({ what: `${kind}: app ÷ bare node:http ≥ 0.5`, ok: result[kind].ratio >= 0.5, value: result[kind].ratio });
    const memory = worst(rounds.app[kind], 'rssGrowthMb');
    checks.push({ what: `${kind}: server memory growth ≤ 64 MB`, ok: memory <= 64, value: `${memory} MB` });
    const loop = worst(rounds.app[kind], 'loopP99Ms');
    checks.push({ what: `${kind}: event-loop delay p99 ≤ 20 ms`, ok: loop <= 20, value: `${loop} ms` });
  }
  return report('uploads', result, lines, checks);
}

await runIfMain(import.meta.url, runUploads);
