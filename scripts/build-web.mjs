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
