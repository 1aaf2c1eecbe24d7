import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openDatabase } from './client';

/** A new, empty PostgreSQL database next to TEST_DATABASE_URL's, dropped by the returned function. */
async function emptyDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL ?? '';
  const name = `coverly_test_${randomBytes(6).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) };
}

// PGlite is one process with one connection: only PostgreSQL has instances that start at once.
describe.runIf(process.env.TEST_DATABASE_URL)('migrations when several instances start at once on PostgreSQL', () => {
  it('applies each migration once: every instance starts, whichever migrates first', async () => {
    const { url, drop } = await emptyDatabase();
    const instances = await Promise.all(Array.from({ length: 3 }, () => openDatabase({ kind: 'postgres', url, poolSize: 3 })));
    try {
      const results = await Promise.allSettled(instances.map((instance) => instance.migrate()));
      expect(results.map((result) => (result.status === 'rejected' ? String(result.reason) : 'ok'))).toEqual(['ok', 'ok', 'ok']);
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const { rows } = await client.query<{ hash: string; n: number }>(`select hash, count(*)::int as n from drizzle.__drizzle_migrations group by hash`);
        expect(rows.length).toBeGreaterThan(10);
        expect(rows.filter((row) => row.n !== 1)).toEqual([]);
        // Nobody keeps the lock: a later start does not wait for it.
        const { rows: held } = await client.query(
          `select 1 from pg_locks where locktype = 'advisory' and database = (select oid from pg_database where datname = current_database())`,
        );
        expect(held).toEqual([]);
      } finally {
        await client.end();
      }
    } finally {
      for (const instance of instances) await instance.close();
      await drop();
    }
  });
});
