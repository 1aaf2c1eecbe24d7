// Adds lock entries for optional, platform-specific packages that `npm install`
// could not record because the registry this machine reaches lacks them
// (e.g. @rollup/rollup-android-arm-eabi at the version rollup asks for).
// npm 11's `npm ci` insists on an entry for every optional dependency, yet
// never downloads one whose os/cpu/libc do not match the machine: so an entry
// with the package's platform fields is all it needs. Run after `npm install`.
// See docs/decisions/005-lockfile-and-partial-registry.md.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const lockPath = path.join(root, 'package-lock.json');
const lock = JSON.parse(readFileSync(lockPath, 'utf8'));
const packages = lock.packages;

const platformFields = (name, version) => {
  const view = (spec) => {
    try {
      return JSON.parse(execFileSync('npm', ['view', spec, 'os', 'cpu', 'libc', '--json'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }) || '{}');
    } catch {
      return null;
    }
  };
  // The exact version when the registry has it, else the newest one it has (platform fields do not change).
  const meta = view(`${name}@${version}`) ?? view(name) ?? {};
  const fields = Array.isArray(meta) ? meta.at(-1) : meta;
  return Object.fromEntries(['os', 'cpu', 'libc'].filter((k) => fields?.[k]).map((k) => [k, [].concat(fields[k])]));
};

let added = 0;
for (const [location, entry] of Object.entries(packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const nested = `${location ? `${location}/` : ''}node_modules/${name}`;
    if (packages[nested] || packages[`node_modules/${name}`]) continue;
    packages[`node_modules/${name}`] = { version, ...(entry.dev ? { dev: true } : {}), optional: true, ...platformFields(name, version) };
    added++;
    console.log(`added node_modules/${name}@${version}`);
  }
}
lock.packages = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))));
writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`${added} optional platform package(s) added to package-lock.json`);
