// Prerenders the public pages into dist/pages/<name>.html after `vite build`.
// Each page gets its title and description, and loads its modules once it
// has painted: it reads and works as plain HTML first (the landing page's
// menu and counters need no script), and on a slow link its render-blocking
// stylesheet does not share the connection with ~90 KB of JavaScript. A
// small loader (no inline script: the CSP allows none) preloads the page's
// own chunks after the first paint, and holds a form sent before the app is
// there until it has hydrated.
import { createHash } from 'node:crypto';
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

/**
 * The loader of every prerendered page: once the page has painted, it preloads
 * the page's chunks and imports the entry, both named in its
 * <meta name="coverly-modules">. It sets no timer (tests that pause the clock
 * still hydrate) and starts at once where paint timing is unknown or the page
 * is hidden (a background tab paints nothing until it is shown).
 *
 * A form sent before the app has hydrated (html[data-hydrated], root-layout.tsx)
 * is held, not sent by the browser, and sent again through the app once it is
 * there: the fields keep what was typed, and nothing goes to the server in a
 * way the app did not mean (without any JavaScript at all the forms post).
 */
const paintFirstLoader = `// Written by scripts/prerender.mjs: loads the app once the prerendered page has painted.
const root = document.documentElement;
const held = new Map();
const hold = (event) => {
  if (root.dataset.hydrated) return;
  event.preventDefault();
  held.set(event.target, event.submitter);
};
document.addEventListener('submit', hold, true);
new MutationObserver((_, observer) => {
  if (!root.dataset.hydrated) return;
  observer.disconnect();
  document.removeEventListener('submit', hold, true);
  for (const [form, submitter] of held) {
    if (form.isConnected) form.requestSubmit(submitter?.form === form ? submitter : undefined);
  }
}).observe(root, { attributes: true, attributeFilter: ['data-hydrated'] });

const [entry, ...chunks] = (document.querySelector('meta[name="coverly-modules"]')?.getAttribute('content') ?? '').split(' ').filter(Boolean);
const start = () => {
  for (const href of chunks) {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.href = href;
    document.head.append(link);
  }
  if (entry) import(entry);
};
if (!PerformanceObserver.supportedEntryTypes?.includes('paint') || document.visibilityState !== 'visible') {
  start();
} else {
  // Buffered: a paint before this ran is reported too. Entries are read from the observer, not
  // from performance.getEntries*, which a test's fake clock may replace.
  const observer = new PerformanceObserver((list) => {
    if (list.getEntriesByName('first-contentful-paint').length === 0) return;
    observer.disconnect();
    start();
  });
  observer.observe({ type: 'paint', buffered: true });
}
`;
const loaderFile = `assets/paint-first-${createHash('sha256').update(paintFirstLoader).digest('base64url').slice(0, 8)}.js`;
await writeFile(path.join(webDir, loaderFile), paintFirstLoader);

const entryScript = template.match(/<script type="module" crossorigin src="([^"]+)"><\/script>/);
if (!entryScript) throw new Error('dist/web/index.html has no entry <script type="module">');
/** Preloads Vite put in the template for the entry's own imports (none while the entry is one chunk). */
const templatePreloads = [...template.matchAll(/\s*<link rel="modulepreload" crossorigin href="([^"]+)">/g)];

await rm(pagesDir, { recursive: true, force: true });
await mkdir(pagesDir, { recursive: true });
for (const { name, source } of prerenderTargets) {
  const page = publicPages[name];
  const html = await renderPage(page.path);
  const preloads = [...new Set(chunksOf(source))].filter((file) => !entryFiles.has(file));
  const modules = [entryScript[1], ...templatePreloads.map((m) => m[1]), ...preloads.map((file) => `/${file}`)];
  const head = [
    `<title>${escapeHtml(page.title(brandToken))}</title>`,
    `<meta name="description" content="${escapeHtml(page.description)}" />`,
    `<meta name="coverly-modules" content="${modules.join(' ')}" />`,
  ].join('\n    ');
  // The loader goes last in <head>, after the stylesheet, at low priority: nothing in it is needed for
  // the first paint, so the render-blocking stylesheet is fetched first.
  let out = template
    .replace('<!--page-head-->', head)
    .replace('<!--page-html-->', html)
    .split('\n')
    .filter((line) => line.trim() !== entryScript[0])
    .join('\n')
    .replace('</head>', `  <script type="module" crossorigin fetchpriority="low" src="/${loaderFile}"></script>\n  </head>`);
  for (const [link] of templatePreloads) out = out.replace(link, '');
  await writeFile(path.join(pagesDir, `${name}.html`), out);
  console.log(`prerendered ${page.path} -> dist/pages/${name}.html (modules after first paint: ${modules.length})`);
}
// The bare shell serves client-only routes; it keeps an empty #root.
await writeFile(
  path.join(pagesDir, 'shell.html'),
  template.replace('<!--page-head-->', `<title>__COVERLY_BRAND_NAME__</title>`).replace('<!--page-html-->', ''),
);
await rm(path.join(webDir, 'index.html'));
