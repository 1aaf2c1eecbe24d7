import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { auditEvent, user } from '../db/schema';
import { backends, createTestDatabase, type TestDatabase } from '../../test/databases';
import { testConfig } from '../../test/config';
import { createPeople, PEOPLE_PASSWORD, type People } from '../../test/people';

describe.each(backends)('two-step verification stays on on %s', (backend) => {
  let database: TestDatabase;
  let app: FastifyInstance;
  let people: People;
  const config = testConfig();

  beforeAll(async () => {
    database = await createTestDatabase(backend);
    app = await buildApp({ config, database, distDir: '/nonexistent' });
    people = await createPeople(app, database.db, config, 'keep');
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await database?.destroy();
  });

  it('refuses to turn it off for a platform admin, an owner and an assistant, and records nothing', async () => {
    for (const who of ['admin', 'ownerA', 'assistantA'] as const) {
      const refused = await app.inject({ method: 'POST', url: '/api/auth/two-factor/disable', headers: { cookie: people[who].cookie }, payload: { password: PEOPLE_PASSWORD } });
      expect(refused.statusCode, who).toBe(403);
      expect(refused.json(), who).toMatchObject({ code: 'forbidden', detail: 'Two-step verification stays on for platform admins, brokers and their teams' });
      const [row] = await database.db.select({ on: user.twoFactorEnabled }).from(user).where(eq(user.id, people[who].userId));
      expect(row?.on, who).toBe(true);
    }
    expect(await database.db.$count(auditEvent, eq(auditEvent.action, 'mfa.disabled'))).toBe(0);
  });
});
