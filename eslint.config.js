import { readdirSync } from 'node:fs';
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
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...restrict([webRoot]),
    },
  },
  {
    // The public pages' JavaScript budget (bench/run.mjs): server state and form libraries load with the
    // signed-in app's chunks only (decision 009).
    files: [
      'src/web/features/{marketing,auth,waitlist,calculator,invitations,errors}/**/*.{ts,tsx}',
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
