// Signing in to a running Coverly as a seeded person, and small HTTP helpers
// the benchmarks share (node:http, no framework between the bench and the server).
import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { Agent, request } from 'node:http';
import { root } from './lib.mjs';

/** Runs `node <args>` in the repository and resolves with its standard output. */
export function runNode(args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${args.join(' ')} exited ${code}:\n${err}`))));
  });
}

/** RFC 6238 code of a base32 secret, as an authenticator app computes it. */
export function totp(secret, at = Date.now()) {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = 0;
  let value = 0;
  const bytes = [];
  for (const char of secret) {
    value = ((value << 5) | alphabet.indexOf(char)) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 30_000)));
  const digest = createHmac('sha1', Buffer.from(bytes)).update(counter).digest();
  const offset = digest[digest.length - 1] & 15;
  return String((digest.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

/** One kept-alive connection, for the benchmarks that measure one client at a time. */
const sharedAgent = new Agent({ keepAlive: true, maxSockets: 1 });

/**
 * One HTTP request over a kept-alive connection: `agent`'s (a benchmark with
 * several users at once gives each its own), else the shared one. A Buffer
 * body goes as application/octet-stream, anything else as JSON. Resolves with
 * the status, the headers, the body as text (empty unless `keep`: a large
 * download is only counted), its length in bytes, whether it arrived whole, and
 * the times in ms from the start of its headers, its first body byte and its
 * last byte (`ms`).
 */
export function send(method, url, { headers = {}, body, agent = sharedAgent, keep = true } = {}) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const since = () => Number(process.hrtime.bigint() - started) / 1e6;
    const binary = Buffer.isBuffer(body);
    const json = body !== undefined && !binary;
    const contentType = binary ? 'application/octet-stream' : json ? 'application/json' : null;
    const req = request(url, { method, agent, headers: { ...(contentType ? { 'content-type': contentType } : {}), ...headers } }, (res) => {
      const headersMs = since();
      let firstByteMs = null;
      let bytes = 0;
      const chunks = [];
      res.on('data', (chunk) => {
        firstByteMs ??= since();
        bytes += chunk.length;
        if (keep) chunks.push(chunk);
      });
      res.on('end', () =>
        resolve({
          status: res.statusCode,
          headers: res.headers,
          body: Buffer.concat(chunks).toString(),
          bytes,
          complete: res.complete,
          headersMs,
          firstByteMs,
          ms: since(),
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(json ? JSON.stringify(body) : body);
  });
}

/** The cookies a response sets, added to `jar` (name → value). */
export const cookiesOf = (response, jar = new Map()) => {
  for (const line of [response.headers['set-cookie'] ?? []].flat()) {
    const [pair] = line.split(';');
    const [name, ...rest] = pair.split('=');
    // An emptied cookie is an expired one: a browser stops sending it.
    if (rest.join('=') === '') jar.delete(name.trim());
    else jar.set(name.trim(), rest.join('='));
  }
  return jar;
};
export const cookieHeader = (jar) => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');

/**
 * A session of a seeded `member` (password, then the second step: their
 * authenticator's code, or `{ backupCode }`), over a connection of its own.
 * Resolves with the Cookie header.
 */
export async function signIn(base, member, { backupCode } = {}) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const origin = { origin: base };
    const first = await send('POST', `${base}/api/auth/sign-in/email`, { agent, headers: origin, body: { email: member.email, password: member.password } });
    if (first.status !== 200) throw new Error(`sign-in answered ${first.status}: ${first.body}`);
    const jar = cookiesOf(first);
    const verified = await send('POST', `${base}/api/auth/two-factor/${backupCode ? 'verify-backup-code' : 'verify-totp'}`, {
      agent,
      headers: { ...origin, cookie: cookieHeader(jar) },
      body: { code: backupCode ?? totp(member.totpSecret) },
    });
    if (verified.status !== 200) throw new Error(`the second step answered ${verified.status}: ${verified.body}`);
    return cookieHeader(cookiesOf(verified, jar));
  } finally {
    agent.destroy();
  }
}
