// Bundles the server and the CLI into dist/server (dependencies stay in
// node_modules) and copies the files they read at run time next to them.
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
// The password policy reads its blocklist from next to the bundle (src/server/auth/password-policy.ts).
await cp(path.join(root, 'src/server/auth/common-passwords.txt'), path.join(outdir, 'common-passwords.txt'));
console.log('built dist/server (main.js, cli.js, migrations/, common-passwords.txt)');
