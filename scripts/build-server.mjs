// Bundles the server and the CLI into dist/server (dependencies stay in
// node_modules) and copies the committed migrations next to them.
import { cp, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outdir = path.join(root, 'dist/server');

await rm(outdir, { recursive: true, force: true });
await build({
  entryPoints: [path.join(root, 'src/server/main.ts'), path.join(root, 'src/server/cli.ts')],
  outdir,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});
await cp(path.join(root, 'src/server/db/migrations'), path.join(outdir, 'migrations'), { recursive: true });
console.log('built dist/server (main.js, cli.js, migrations/)');
