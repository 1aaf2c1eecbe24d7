// Builds the browser bundle, then a Node bundle of the prerender entry, then
// writes the prerendered public pages (scripts/prerender.mjs).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const configFile = path.join(root, 'vite.config.ts');

await build({ configFile, logLevel: 'warn' });
await build({
  configFile,
  logLevel: 'warn',
  build: {
    ssr: path.join(root, 'src/web/entry-prerender.tsx'),
    outDir: path.join(root, 'dist/prerender'),
    emptyOutDir: true,
    manifest: false,
  },
});
await import('./prerender.mjs');

// Precompress text assets once, so the server sends .br/.gz files as they are.
const { readdir, readFile, writeFile, stat } = await import('node:fs/promises');
const zlib = await import('node:zlib');
const webDir = path.join(root, 'dist/web');
async function* files(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else yield full;
  }
}
let compressed = 0;
for await (const file of files(webDir)) {
  if (!/\.(m?js|css|svg|txt|json|webmanifest)$/.test(file) || file.includes(`${path.sep}.vite${path.sep}`)) continue;
  if ((await stat(file)).size < 1024) continue;
  const source = await readFile(file);
  await writeFile(`${file}.gz`, zlib.gzipSync(source, { level: 9 }));
  await writeFile(`${file}.br`, zlib.brotliCompressSync(source, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }));
  compressed++;
}
console.log(`precompressed ${compressed} assets (.br, .gz)`);
