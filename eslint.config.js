import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** The three roots import one way only: server → shared, web → shared. */
const restrict = (patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });
const webRoot = { group: ['**/server/**', 'node:*'], message: 'web/ may import shared/ only, never server/ or Node built-ins.' };
const serverRoot = { group: ['**/web/**', 'react', 'react-dom', 'react-router'], message: 'server/ may import shared/, never web/.' };
/** The folders of src/server: each feature's, and the homes they share (accounts, platform, db…). */
const serverFolders = readdirSync('src/server', { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/**
 * The web app's folders import one way only (bulletproof-react's rule between features, as on the
 * server): a feature (src/web/features/<name>) imports its own files, ui/, lib/ and shared/, never
 * another feature's nor the shell (src/web/app); ui/ and lib/ are what several features share, so
 * they import neither features nor the shell. The shell (app/) composes the features.
 */
const webDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'src', 'web');
/** Where a path lies in src/web: its top folder and, under features/, the feature; null outside src/web. */
const webPlace = (file) => {
  const rel = path.relative(webDir, file);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return null;
  const [top, feature] = rel.split(path.sep);
  return { top, feature: top === 'features' ? feature : undefined };
};
const webBoundaries = {
  meta: {
    type: 'problem',
    docs: { description: 'A web feature imports no other feature and not the shell; ui/ and lib/ import no feature and not the shell.' },
    messages: {
      otherFeature: "A feature may not import another feature's files ({{target}}): move what both need to src/web/ui or src/web/lib.",
      shell: 'A feature may not import the app shell (src/web/app): what features need from it lives in src/web/lib (useMe, the query client, AppRoute).',
      shared: 'src/web/{{from}} is shared by the features: it may not import a feature or the app shell ({{target}}).',
    },
    schema: [],
  },
  create(context) {
    const from = webPlace(context.filename);
    if (!from || !['features', 'ui', 'lib'].includes(from.top)) return {};
    const check = (node) => {
      const source = node.source;
      if (!source || source.type !== 'Literal' || typeof source.value !== 'string' || !source.value.startsWith('.')) return;
      const to = webPlace(path.resolve(path.dirname(context.filename), source.value));
      if (!to) return;
      const target = path
        .relative(webDir, path.resolve(path.dirname(context.filename), source.value))
        .split(path.sep)
        .join('/');
      if (from.top === 'features') {
        if (to.top === 'features' && to.feature !== from.feature) context.report({ node: source, messageId: 'otherFeature', data: { target } });
        else if (to.top === 'app') context.report({ node: source, messageId: 'shell' });
      } else if (to.top === 'features' || to.top === 'app') {
        context.report({ node: source, messageId: 'shared', data: { from: from.top, target } });
      }
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check };
  },
};

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'bench/results/**', 'test-results/**', 'playwright-report/**', 'src/server/db/migrations/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks, coverly: { rules: { 'web-boundaries': webBoundaries } } },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...restrict([webRoot]),
      'coverly/web-boundaries': 'error',
    },
  },
  {
    // The public pages' JavaScript budget (bench/run.mjs): server state and form libraries load with the
    // signed-in app's chunks only (decision 009).
    files: [
      'src/web/features/{marketing,auth,waitlist,calculator,invitations,upload-link,unsubscribe,errors}/**/*.{ts,tsx}',
      'src/web/app/routes.tsx',
      'src/web/app/root-layout.tsx',
      'src/web/entry-*.tsx',
    ],
    rules: restrict([
      webRoot,
      {
        group: ['@tanstack/*', 'react-hook-form', '@hookform/*', '**/lib/use-app-form'],
        message: 'Public pages stay small: TanStack Query and react-hook-form belong to the signed-in app (decision 009).',
      },
    ]),
  },
  {
    files: ['src/shared/**/*.ts'],
    rules: restrict([
      { group: ['**/server/**', '**/web/**', 'node:*', 'react', 'react-*'], message: 'shared/ is pure TypeScript: no I/O, no DOM, no server or web imports.' },
    ]),
  },
  {
    files: ['src/server/**/*.ts'],
    rules: restrict([serverRoot]),
  },
  // Features do not reach into each other's queries or services (bulletproof-react's rule between
  // features): what several need lives in accounts/ or platform/, or in a module a feature offers.
  ...serverFolders.map((folder) => ({
    files: [`src/server/${folder}/**/*.ts`],
    rules: restrict([
      serverRoot,
      {
        regex: `^(\\.\\./)+(?!${folder}/|accounts/)[a-z][a-z-]*/[^/]+\\.(queries|service)$`,
        message: `A feature may not import another feature's *.queries or *.service: move what both need to src/server/accounts or src/server/platform.`,
      },
    ]),
  })),
);
