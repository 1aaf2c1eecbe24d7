import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { testConfig } from '../../test/config';
import { backends, createTestDatabase } from '../../test/databases';
import { openStream } from '../../test/event-stream';
import { addBorrower, createLoan, createTeamWithOwner } from '../../test/factories';
import { LISTENER_APPLICATION_NAME } from '../platform/realtime/listener';
import { createLogger, createRuntime, type Runtime } from '../runtime';
import { realtimeHubOf } from './realtime.routes';

const silent = createLogger({ logLevel: 'silent' });

/** A runtime listening on a loopback port, as main.ts starts one. */
async function started(env: Record<string, string> = {}) {
  const runtime = await createRuntime(testConfig(env), { logger: silent });
  const baseUrl = await runtime.app.listen({ port: 0, host: '127.0.0.1' });
  return { runtime, baseUrl, factory: { app: runtime.app, db: runtime.database.db } };
}

describe.each(backends)('the live loan stream at shutdown on %s', (backend) => {
  // An embedded database on disk, migrated from nothing: tens of seconds on a busy machine (not a speed check).
  it('ends every stream with a retry hint, so stopping the server does not wait for them', { timeout: 120_000 }, async () => {
    const database = backend === 'postgres' ? await createTestDatabase('postgres') : null;
    try {
      const { runtime, baseUrl, factory } = await started(
        database ? { DATABASE_URL: database.url!, AUTH_SECRET: 'one-secret-shared-by-every-instance-0123456789' } : {},
      );
      const team = await createTeamWithOwner(factory);
      const loan = await createLoan(factory, team.teamId, team.owner);
      const borrower = await addBorrower(factory, loan.id);
      const streams = await Promise.all([team.owner, borrower].map((who) => openStream(baseUrl, { path: `/api/events?loans=${loan.id}`, cookie: who.cookie })));
      await Promise.all(streams.map((stream) => stream.live()));
      expect(realtimeHubOf(runtime.app).connectionCount).toBe(2);
      await runtime.stop();
      for (const stream of streams) {
        await stream.ended;
        // The last frame is the hint: come back in a few seconds (to whichever instance is up).
        const last = stream.frames.at(-1)!;
        expect(last.retry).toBeGreaterThanOrEqual(500);
        expect(last.event).toBeUndefined();
      }
    } finally {
      await database?.destroy();
    }
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('the live loan stream across two instances on PostgreSQL', () => {
  it('carries a change made on one instance to a stream on the other, also after the listener’s connection is killed', { timeout: 120_000 }, async () => {
    const database = await createTestDatabase('postgres');
    const runtimes: Runtime[] = [];
    try {
      const env = {
        DATABASE_URL: database.url!,
        AUTH_SECRET: 'one-secret-shared-by-every-instance-0123456789',
        MASTER_KEY: randomBytes(32).toString('base64'),
      };
      const a = await started(env);
      runtimes.push(a.runtime);
      const b = await started(env);
      runtimes.push(b.runtime);
      const team = await createTeamWithOwner(a.factory, { name: 'Harbor Lending' });
      const loan = await createLoan(a.factory, team.teamId, team.owner);
      const borrower = await addBorrower(a.factory, loan.id, { name: 'Bea Borrower' });
      // The owner watches on B; the borrower on A.
      const watching = await openStream(b.baseUrl, { path: `/api/events?loans=${loan.id}`, cookie: team.owner.cookie });
      await watching.live();
      const mark = watching.frames.length;
      const other = await openStream(a.baseUrl, { path: `/api/events?loans=${loan.id}`, cookie: borrower.cookie });
      await other.live();
      // Presence crosses instances too.
      await watching.next((frame) => frame.event === 'presence' && frame.data!.includes(borrower.userId), mark);

      let stage = loan.stage;
      const move = async () => {
        const to = stage === 'lead' ? 'application' : 'lead';
        const moved = await a.runtime.app.inject({
          method: 'POST',
          url: `/api/loans/${loan.id}/stage`,
          headers: { cookie: team.owner.cookie, origin: 'http://localhost:3000' },
          payload: { from: stage, to },
        });
        expect(moved.statusCode, moved.body).toBe(200);
        stage = to;
      };
      await move();
      await watching.counted('activity', 1);

      // Every listener connection of this database is cut; the next change is made at once, while they reconnect.
      const admin = new pg.Client({ connectionString: database.url! });
      await admin.connect();
      try {
        const killed = await admin.query(
          'select pg_terminate_backend(pid) as killed from pg_stat_activity where application_name = $1 and datname = current_database()',
          [LISTENER_APPLICATION_NAME],
        );
        expect(killed.rowCount).toBe(2);
      } finally {
        await admin.end();
      }
      await move();
      await move();
      await watching.counted('activity', 3);
      await other.counted('activity', 3);
      const ids = watching.activity().map((event) => event.item.id);
      expect(ids).toEqual([ids[0], ids[0]! + 1, ids[0]! + 2]);
      // And live again after the reconnection.
      await move();
      await watching.counted('activity', 4);
      watching.close();
      other.close();
    } finally {
      for (const runtime of runtimes) await runtime.stop();
      await database.destroy();
    }
  });
});
