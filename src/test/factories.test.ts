import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { ListWaitlistResult } from '../shared/schemas/admin';
import type { Me } from '../shared/schemas/me';
import type { TeamMembers } from '../shared/schemas/teams';
import { twoFactor, user } from '../server/db/schema';
import { setupApi } from './api';
import { backends } from './databases';
import {
  addAssistant,
  createAccount,
  createAdmin,
  createBroker,
  createCast,
  createTeamWithOwner,
  createWaitlistEntry,
  enrolAuthenticator,
  signedIn,
} from './factories';
import { cookieFrom } from './http';
import { signIn, signInWithTotp } from './people';

describe.each(backends)('test factories on %s', (backend) => {
  const api = setupApi(backend);
  const meOf = async (who: { cookie: string }) => {
    const response = await api.as(who).get('/api/me');
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as Me;
  };

  it('makes an account that signs in with its password, and a session whose cookie better-auth accepts', async () => {
    const account = await createAccount(api, { email: 'Casey@Factory.test', name: 'Casey Example', password: 'a factory made passphrase' });
    expect(account).toEqual({ userId: expect.any(String), email: 'casey@factory.test', name: 'Casey Example', password: 'a factory made passphrase' });
    expect((await signIn(api.app, account.email, account.password)).body.twoFactorRedirect).toBeUndefined();

    const person = await signedIn(api, account);
    expect(person.cookie).toMatch(/^coverly\.session_token=[A-Za-z0-9]{32}\.[A-Za-z0-9%]+$/);
    const me = await meOf(person);
    expect(me).toMatchObject({
      user: { id: account.userId, name: 'Casey Example', email: 'casey@factory.test' },
      platformAdmin: false,
      broker: false,
      mfaEnrolled: false,
      mustEnrolMfa: false,
      team: null,
    });
    // Signed with the app's secret, or refused.
    const forged = person.cookie.replace(/\.[^.]+$/, `.${encodeURIComponent('A'.repeat(43) + '=')}`);
    expect((await api.as(forged).get('/api/me')).statusCode).toBe(401);
    // Two accounts never share an address by default.
    expect((await createAccount(api)).email).not.toBe((await createAccount(api)).email);
  });

  it('enrols an authenticator as better-auth stores it: the real two-step sign-in takes its code and its backup codes', async () => {
    const account = await enrolAuthenticator(api, await createAccount(api, { name: 'Tove Totp' }));
    expect(account.secret).toMatch(/^[A-Z2-7]{52}$/);
    expect(account.backupCodes).toHaveLength(10);
    expect(new Set(account.backupCodes).size).toBe(10);
    const [row] = await api.db.select().from(twoFactor).where(eq(twoFactor.userId, account.userId));
    expect(row).toMatchObject({ verified: true });
    // Stored encrypted, as better-auth does.
    expect(JSON.stringify(row)).not.toContain(account.backupCodes[0]);
    const [stored] = await api.db.select({ on: user.twoFactorEnabled }).from(user).where(eq(user.id, account.userId));
    expect(stored?.on).toBe(true);

    // Password, then a code from the authenticator.
    const cookie = await signInWithTotp(api.app, account.email, account.secret, account.password);
    expect(await meOf({ cookie })).toMatchObject({ user: { id: account.userId }, mfaEnrolled: true, mustEnrolMfa: false });
    // Password, then a backup code.
    const challenge = await signIn(api.app, account.email, account.password);
    expect(challenge.body.twoFactorRedirect).toBe(true);
    const viaBackup = await api.as(challenge.cookie).post('/api/auth/two-factor/verify-backup-code', { code: account.backupCodes[0] });
    expect(viaBackup.statusCode, viaBackup.body).toBe(200);
    expect((await meOf({ cookie: cookieFrom(viaBackup) })).user.id).toBe(account.userId);
  });

  it('makes platform admins, with and without an authenticator', async () => {
    const admin = await createAdmin(api);
    expect(await meOf(admin)).toMatchObject({
      user: { id: admin.userId, name: 'Avery Admin' },
      platformAdmin: true,
      broker: false,
      mfaEnrolled: true,
      mustEnrolMfa: false,
      team: null,
    });
    expect((await api.as(admin).get('/api/admin/waitlist')).statusCode).toBe(200);
    expect(admin.secret).toBeDefined();

    const newAdmin = await createAdmin(api, { mfa: false });
    expect(newAdmin.secret).toBeUndefined();
    expect(await meOf(newAdmin)).toMatchObject({ platformAdmin: true, mfaEnrolled: false, mustEnrolMfa: true });
    expect((await api.as(newAdmin).get('/api/admin/waitlist')).json()).toMatchObject({ code: 'mfa_required' });
  });

  it('makes brokers who may found a team', async () => {
    const broker = await createBroker(api, { name: 'Bea Broker' });
    expect(await meOf(broker)).toMatchObject({
      user: { name: 'Bea Broker' },
      platformAdmin: false,
      broker: true,
      mfaEnrolled: true,
      mustEnrolMfa: false,
      team: null,
    });
    const founded = await api.as(broker).post('/api/teams', { name: 'Bea Lending' });
    expect(founded.statusCode, founded.body).toBe(201);

    const early = await createBroker(api, { mfa: false });
    expect(await meOf(early)).toMatchObject({ broker: true, mfaEnrolled: false, mustEnrolMfa: true });
  });

  it('makes a team with its enrolled owner, and assistants in it', async () => {
    const { teamId, name, owner } = await createTeamWithOwner(api, { name: 'Factory Lending', owner: { name: 'Ola Owner' } });
    expect(name).toBe('Factory Lending');
    const asOwner = await api.as(owner).get(`/api/teams/${teamId}`);
    expect(asOwner.statusCode, asOwner.body).toBe(200);
    expect(asOwner.json()).toEqual({
      id: teamId,
      name: 'Factory Lending',
      accentColor: '#1d4ed8',
      logoUrl: null,
      role: 'owner',
      dscrThresholds: { strong: 1.25, eligible: 1 },
      timeZone: 'America/New_York',
    });
    expect(await meOf(owner)).toMatchObject({ broker: true, mfaEnrolled: true, team: { id: teamId, role: 'owner' } });
    // A broker owns one team: founding another is refused.
    expect((await api.as(owner).post('/api/teams', { name: 'Second' })).statusCode).toBe(409);

    const assistant = await addAssistant(api, teamId, { name: 'Ada Assistant' });
    expect((await api.as(assistant).get(`/api/teams/${teamId}`)).json()).toMatchObject({ id: teamId, role: 'assistant' });
    const newAssistant = await addAssistant(api, teamId, { mfa: false });
    expect((await api.as(newAssistant).get(`/api/teams/${teamId}`)).json()).toMatchObject({ code: 'mfa_required' });
    expect(await meOf(newAssistant)).toMatchObject({ broker: false, mfaEnrolled: false, mustEnrolMfa: true, team: { id: teamId, role: 'assistant' } });

    const members = (await api.as(owner).get(`/api/teams/${teamId}/members`)).json() as TeamMembers;
    expect(members.members.map(({ userId, role, mfaEnrolled }) => ({ userId, role, mfaEnrolled }))).toEqual([
      { userId: owner.userId, role: 'owner', mfaEnrolled: true },
      { userId: assistant.userId, role: 'assistant', mfaEnrolled: true },
      { userId: newAssistant.userId, role: 'assistant', mfaEnrolled: false },
    ]);
    // Another team's owner does not see it.
    const other = await createTeamWithOwner(api);
    expect(other.name).toBe("Owen Owner's team");
    expect((await api.as(other.owner).get(`/api/teams/${teamId}`)).statusCode).toBe(404);
  });

  it('makes waitlist entries the admin console lists, new or invited, with their dates', async () => {
    const admin = await createAdmin(api);
    const plain = await createWaitlistEntry(api, { fullName: 'Nia New', company: 'Nia Capital' });
    expect(plain).toMatchObject({ fullName: 'Nia New', company: 'Nia Capital', phone: null, status: 'new', submissions: 1, invitedAt: null });
    const day = (n: number) => new Date(Date.UTC(2025, 0, n, 12));
    const invited = await createWaitlistEntry(api, {
      fullName: 'Ike Invited',
      email: 'ike@factory.test',
      phone: '+1 555 0100',
      status: 'invited',
      createdAt: day(1),
      invitedAt: day(2),
    });
    expect(invited).toMatchObject({ email: 'ike@factory.test', status: 'invited', createdAt: day(1), invitedAt: day(2) });

    const listed = (await api.as(admin).get('/api/admin/waitlist?sort=createdAt&dir=asc')).json() as ListWaitlistResult;
    expect(listed.entries.map((e) => ({ id: e.id, status: e.status, createdAt: e.createdAt }))).toEqual([
      { id: invited.id, status: 'invited', createdAt: day(1).toISOString() },
      { id: plain.id, status: 'new', createdAt: plain.createdAt.toISOString() },
    ]);
  });

  it('makes the cast of createPeople, each as the access layer sees them', async () => {
    const people = await createCast(api, 'cast');
    const expected = {
      admin: { platformAdmin: true, broker: false, mfaEnrolled: true, team: null },
      newAdmin: { platformAdmin: true, broker: false, mfaEnrolled: false, team: null },
      ownerA: { platformAdmin: false, broker: true, mfaEnrolled: true, team: { id: people.teamA, name: "owner-a's team", role: 'owner' } },
      assistantA: { platformAdmin: false, broker: false, mfaEnrolled: true, team: { id: people.teamA, role: 'assistant' } },
      newAssistantA: { platformAdmin: false, broker: false, mfaEnrolled: false, team: { id: people.teamA, role: 'assistant' } },
      ownerB: { platformAdmin: false, broker: true, mfaEnrolled: true, team: { id: people.teamB, name: "owner-b's team", role: 'owner' } },
      borrower: { platformAdmin: false, broker: false, mfaEnrolled: false, team: null },
    } as const;
    for (const [who, grants] of Object.entries(expected) as [keyof typeof expected, (typeof expected)[keyof typeof expected]][]) {
      expect(await meOf(people[who]), who).toMatchObject({ user: { id: people[who].userId, email: people[who].email }, ...grants });
    }
    expect(people.ownerA.email).toBe('cast-owner-a@people.test');
  });
});
