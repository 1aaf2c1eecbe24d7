// Makes a fresh clone runnable: installs dependencies when node_modules is
// missing or older than package-lock.json, and builds when dist/ is missing or
// older than any source. Plain Node only: it runs before anything is installed.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function run(command, args, what) {
  console.log(`\n> ${what}: ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: process.env });
  if (result.status !== 0) {
    console.error(`\n${what} failed (exit ${result.status ?? result.signal}).`);
    process.exit(result.status ?? 1);
  }
}

function newestMtime(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

export function ensureInstalled() {
  const marker = path.join(root, 'node_modules/.package-lock.json');
  if (existsSync(marker) && statSync(marker).mtimeMs >= statSync(path.join(root, 'package-lock.json')).mtimeMs) return;
  run(npm, ['ci', '--no-audit', '--no-fund'], 'Installing dependencies');
}

const BUILD_INPUTS = ['src', 'scripts', 'package-lock.json', 'vite.config.ts'];
const STAMP = path.join(root, 'dist/.build-stamp');

export function ensureBuilt() {
  const stamp = existsSync(STAMP) ? statSync(STAMP).mtimeMs : 0;
  const newestInput = Math.max(...BUILD_INPUTS.map((p) => newestMtime(path.join(root, p))));
  if (stamp >= newestInput) return;
  run(npm, ['run', '--silent', 'build'], 'Building');
  writeFileSync(STAMP, new Date().toISOString());
}
