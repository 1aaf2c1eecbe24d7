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

const agent = new Agent({ keepAlive: true, maxSockets: 1 });

/** One HTTP request over a kept-alive connection: status, headers, body, and the time to the last byte. */
export function send(method, url, { headers = {}, body } = {}) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const req = request(url, { method, agent, headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...headers } }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString(), ms: Number(process.hrtime.bigint() - started) / 1e6 }),
      );
    });
    req.on('error', reject);
    req.end(body ? JSON.stringify(body) : undefined);
  });
}

const cookiesOf = (response, jar = new Map()) => {
  for (const line of [response.headers['set-cookie'] ?? []].flat()) {
    const [pair] = line.split(';');
    const [name, ...rest] = pair.split('=');
    jar.set(name.trim(), rest.join('='));
  }
  return jar;
};
const cookieHeader = (jar) => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');

/** Signs in as a seeded owner (password, then the authenticator code) and resolves with the Cookie header. */
export async function signInOwner(base, owner) {
  const origin = { origin: base };
  const first = await send('POST', `${base}/api/auth/sign-in/email`, { headers: origin, body: { email: owner.email, password: owner.password } });
  if (first.status !== 200) throw new Error(`sign-in answered ${first.status}: ${first.body}`);
  const jar = cookiesOf(first);
  const second = await send('POST', `${base}/api/auth/two-factor/verify-totp`, {
    headers: { ...origin, cookie: cookieHeader(jar) },
    body: { code: totp(owner.totpSecret) },
  });
  if (second.status !== 200) throw new Error(`the authenticator code answered ${second.status}: ${second.body}`);
  return cookieHeader(cookiesOf(second, jar));
}
