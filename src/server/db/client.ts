import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import * as schema from './schema';

export type Schema = typeof schema;
/** The database or a transaction on it: every query function takes one of these first. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** PostgreSQL's connection string, for a connection of its own (the realtime listener). */
  url?: string;
  /** The embedded PGlite instance, whose `listen` the realtime listener uses. */
  pglite?: PGlite;
  /** Applies the committed migrations (idempotent). */
  migrate(): Promise<void>;
  /** Resolves when the database answers a trivial query. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export type DatabaseTarget =
  | { kind: 'postgres'; url: string; poolSize?: number }
  /** `dataDir` undefined: in memory (tests). */
  | { kind: 'pglite'; dataDir?: string };

const here = path.dirname(fileURLToPath(import.meta.url));
/**
 * Where drizzle-kit writes migrations (src/server/db/migrations); the server
 * build copies them next to the bundle (dist/server/migrations).
 */
export const migrationsFolder = path.join(here, 'migrations');

/** PostgreSQL when DATABASE_URL is set, else PGlite in DATA_DIR/db. */
export function databaseTargetFor(config: { databaseUrl: string | undefined; dataDir: string }): DatabaseTarget {
  return config.databaseUrl ? { kind: 'postgres', url: config.databaseUrl } : { kind: 'pglite', dataDir: path.join(config.dataDir, 'db') };
}

const drizzleOptions = { schema, casing: 'snake_case' } as const;

/**
 * Runs `migrate` under a PostgreSQL advisory lock, so instances that start at
 * once on one database take turns: the migrator reads which migrations are
 * applied before its transaction, so two at once would both apply the next
 * one and the second would fail ("already exists"). The later one finds
 * everything applied and does nothing. The lock is held on a connection of
 * its own, and given back before that connection returns to the pool.
 */
async function migrateOnce(pool: pg.Pool, migrate: () => Promise<void>) {
  const holder = await pool.connect();
  let broken: Error | undefined;
  try {
    await holder.query(`select pg_advisory_lock(hashtext('coverly.migrate'))`);
    try {
      await migrate();
    } finally {
      await holder.query(`select pg_advisory_unlock(hashtext('coverly.migrate'))`).catch((error: Error) => (broken = error));
    }
  } finally {
    // A connection that could not unlock may still hold the lock: closed, not pooled.
    holder.release(broken);
  }
}

export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  if (target.kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: target.url, max: target.poolSize ?? 10 });
    // An idle client that loses its connection must not crash the process.
    pool.on('error', () => {});
    const db = drizzleNodePg({ client: pool, ...drizzleOptions });
    return {
      db: db as unknown as Db,
      kind: 'postgres',
      url: target.url,
      migrate: () => migrateOnce(pool, () => migrateNodePg(db, { migrationsFolder })),
      ping: async () => {
        await db.execute(sql`select 1`);
      },
      close: () => pool.end(),
    };
  }
  if (target.dataDir) await mkdir(target.dataDir, { recursive: true });
  // pg_trgm serves the pipeline's substring search (migration 0008); PostgreSQL ships it in contrib.
  const client = await PGlite.create(target.dataDir ?? 'memory://', { extensions: { pg_trgm } });
  const db = drizzlePglite({ client, ...drizzleOptions });
  return {
    db: db as unknown as Db,
    kind: 'pglite',
    pglite: client,
    migrate: () => migratePglite(db, { migrationsFolder }),
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    close: () => client.close(),
  };
}
