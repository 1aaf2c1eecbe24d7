import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditEvent, user } from '../db/schema';
import { setupApi } from '../../test/api';
import { backends } from '../../test/databases';
import { addAssistant, createAdmin, createTeamWithOwner, type Person } from '../../test/factories';
import { PEOPLE_PASSWORD } from '../../test/people';

describe.each(backends)('two-step verification stays on on %s', (backend) => {
  const api = setupApi(backend);
  let people: Record<'admin' | 'ownerA' | 'assistantA', Person>;

  beforeAll(async () => {
    const { teamId, owner } = await createTeamWithOwner(api);
    people = { admin: await createAdmin(api), ownerA: owner, assistantA: await addAssistant(api, teamId) };
  });

  it('refuses to turn it off for a platform admin, an owner and an assistant, and records nothing', async () => {
    for (const who of ['admin', 'ownerA', 'assistantA'] as const) {
      const refused = await api.as(people[who]).post('/api/auth/two-factor/disable', { password: PEOPLE_PASSWORD });
      expect(refused.statusCode, who).toBe(403);
      expect(refused.json(), who).toMatchObject({ code: 'forbidden', detail: 'Two-step verification stays on for platform admins, brokers and their teams' });
      const [row] = await api.db.select({ on: user.twoFactorEnabled }).from(user).where(eq(user.id, people[who].userId));
      expect(row?.on, who).toBe(true);
    }
    expect(await api.db.$count(auditEvent, eq(auditEvent.action, 'mfa.disabled'))).toBe(0);
  });
});
