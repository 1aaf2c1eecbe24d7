import { defineConfig } from 'drizzle-kit';

// Migrations are generated from the schema and committed; the server and the
// tests apply them with drizzle's migrator (never `push`).
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/server/db/schema/index.ts',
  out: './src/server/db/migrations',
  casing: 'snake_case',
});
