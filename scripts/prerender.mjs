// Prerenders the public pages into dist/pages/<name>.html after `vite build`.
// Each page gets its title, description and <link rel="modulepreload"> for
// its own lazy chunk, so it hydrates without a request waterfall.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const webDir = path.join(root, 'dist/web');
const pagesDir = path.join(root, 'dist/pages');
const entry = path.join(root, 'dist/prerender/entry-prerender.js');

const { renderPage, publicPages, prerenderTargets, escapeHtml } = await import(pathToFileURL(entry).href);
const brandToken = '__COVERLY_BRAND_NAME__';
const manifest = JSON.parse(await readFile(path.join(webDir, '.vite/manifest.json'), 'utf8'));
const template = await readFile(path.join(webDir, 'index.html'), 'utf8');

/** The chunk of `source` and every chunk it statically imports, minus what the entry already loads. */
function chunksOf(source, seen = new Set()) {
  const chunk = manifest[source];
  if (!chunk || seen.has(source)) return [];
  seen.add(source);
  const files = [chunk.file];
  for (const dep of chunk.imports ?? []) files.push(...chunksOf(dep, seen));
  return files;
}
const entryFiles = new Set(chunksOf('index.html'));

await rm(pagesDir, { recursive: true, force: true });
await mkdir(pagesDir, { recursive: true });
for (const { name, source } of prerenderTargets) {
  const page = publicPages[name];
  const html = await renderPage(page.path);
  const preloads = [...new Set(chunksOf(source))].filter((file) => !entryFiles.has(file));
  const head = [
    `<title>${escapeHtml(page.title(brandToken))}</title>`,
    `<meta name="description" content="${escapeHtml(page.description)}" />`,
    ...preloads.map((file) => `<link rel="modulepreload" crossorigin href="/${file}" />`),
  ].join('\n    ');
  const out = template.replace('<!--page-head-->', head).replace('<!--page-html-->', html);
  await writeFile(path.join(pagesDir, `${name}.html`), out);
  console.log(`prerendered ${page.path} -> dist/pages/${name}.html (${preloads.length} preloads)`);
}
// The bare shell serves client-only routes; it keeps an empty #root.
await writeFile(
  path.join(pagesDir, 'shell.html'),
  template.replace('<!--page-head-->', `<title>__COVERLY_BRAND_NAME__</title>`).replace('<!--page-html-->', ''),
);
await rm(path.join(webDir, 'index.html'));
