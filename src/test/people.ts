import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { Config } from '../server/config';
import { createCredentialUser } from '../server/auth/auth';
import { testAuth } from './config';
import type { Db } from '../server/db/client';
import { job } from '../server/db/schema';
import { grantBroker, grantPlatformAdmin } from '../server/accounts/accounts.queries';
import { MAIL_QUEUE } from '../server/platform/mail/mail-jobs';
import { cookieFrom } from './http';
import { freshTotpCode } from './totp';

export const PEOPLE_PASSWORD = 'seven quiet lanterns glow';

export interface Person {
  userId: string;
  email: string;
  /** The Cookie header of a signed-in session. */
  cookie: string;
  /** The authenticator's base32 secret, once enrolled. */
  secret?: string;
  backupCodes?: string[];
}

export const signIn = async (app: FastifyInstance, email: string, password = PEOPLE_PASSWORD) => {
  const response = await app.inject({ method: 'POST', url: '/api/auth/sign-in/email', payload: { email, password } });
  expect(response.statusCode, `sign-in of ${email}`).toBe(200);
  return { cookie: cookieFrom(response), body: response.json() as { twoFactorRedirect?: boolean } };
};

/** Enrols a TOTP authenticator the way the app does: enable with the password, then confirm a code. */
export async function enrolTotp(app: FastifyInstance, cookie: string, password = PEOPLE_PASSWORD) {
  const enabled = await app.inject({ method: 'POST', url: '/api/auth/two-factor/enable', headers: { cookie }, payload: { password } });
  expect(enabled.statusCode, enabled.body).toBe(200);
  const { totpURI, backupCodes } = enabled.json() as { totpURI: string; backupCodes: string[] };
  const secret = new URL(totpURI).searchParams.get('secret') ?? '';
  const verified = await app.inject({
    method: 'POST',
    url: '/api/auth/two-factor/verify-totp',
    headers: { cookie },
    payload: { code: await freshTotpCode(secret) },
  });
  expect(verified.statusCode, verified.body).toBe(200);
  // Enrolling replaces the session: the new cookie is the one that works.
  return { cookie: cookieFrom(verified), secret, backupCodes };
}

/** Signs in an enrolled account: password first, then a code from its authenticator. */
export async function signInWithTotp(app: FastifyInstance, email: string, secret: string, password = PEOPLE_PASSWORD) {
  const first = await signIn(app, email, password);
  expect(first.body.twoFactorRedirect).toBe(true);
  const verified = await app.inject({
    method: 'POST',
    url: '/api/auth/two-factor/verify-totp',
    headers: { cookie: first.cookie },
    payload: { code: await freshTotpCode(secret) },
  });
  expect(verified.statusCode, verified.body).toBe(200);
  return cookieFrom(verified);
}

/** The invitation token of the newest mail to `email` still in the outbox. */
export async function invitationTokenFor(db: Db, email: string): Promise<string> {
  const [row] = await db
    .select({ payload: job.payload })
    .from(job)
    .where(and(eq(job.queue, MAIL_QUEUE), sql`lower(${job.payload}->>'to') = ${email.toLowerCase()}`))
    .orderBy(sql`${job.id} desc`)
    .limit(1);
  const text = (row?.payload as { text?: string } | undefined)?.text ?? '';
  const token = /\/invite#([A-Za-z0-9_-]{43})/.exec(text)?.[1];
  if (!token) throw new Error(`No invitation mail to ${email}`);
  return token;
}

export interface People {
  /** A platform admin with an authenticator enrolled. */
  admin: Person;
  /** Granted platform admin but has not enrolled an authenticator yet. */
  newAdmin: Person;
  ownerA: Person;
  assistantA: Person;
  ownerB: Person;
  /** Accepted team A's invitation but has not enrolled an authenticator yet. */
  newAssistantA: Person;
  /** Signed in, in no team: how a loan's borrower stands toward every team route. */
  borrower: Person;
  teamA: string;
  teamB: string;
}

/**
 * The cast of the access matrix, made through the real flows: accounts,
 * admin and broker grants, TOTP enrolment, team creation, and an assistant
 * who accepts the owner's e-mailed invitation and enrols too.
 */
export async function createPeople(app: FastifyInstance, db: Db, config: Config, prefix = 'p'): Promise<People> {
  const auth = testAuth(db, config);
  const account = async (name: string) => {
    const email = `${prefix}-${name}@people.test`;
    const created = await createCredentialUser(auth, { email, name, password: PEOPLE_PASSWORD });
    return { userId: created.id, email };
  };

  const founder = async (name: string) => {
    const person = await account(name);
    await grantBroker(db, person.userId);
    const enrolled = await enrolTotp(app, (await signIn(app, person.email)).cookie);
    const created = await app.inject({ method: 'POST', url: '/api/teams', headers: { cookie: enrolled.cookie }, payload: { name: `${name}'s team` } });
    expect(created.statusCode, created.body).toBe(201);
    return { person: { ...person, ...enrolled }, teamId: (created.json() as { id: string }).id };
  };

  const platformAdmin = async (name: string) => {
    const person = await account(name);
    await grantPlatformAdmin(db, person.userId);
    return { ...person, cookie: (await signIn(app, person.email)).cookie };
  };
  const signedInAdmin = await platformAdmin('admin');
  const admin = { ...signedInAdmin, ...(await enrolTotp(app, signedInAdmin.cookie)) };
  const newAdmin = await platformAdmin('new-admin');

  const a = await founder('owner-a');
  const b = await founder('owner-b');

  const joinTeamA = async (name: string) => {
    const email = `${prefix}-${name}@people.test`;
    const invited = await app.inject({ method: 'POST', url: `/api/teams/${a.teamId}/invitations`, headers: { cookie: a.person.cookie }, payload: { email } });
    expect(invited.statusCode, invited.body).toBe(201);
    const token = await invitationTokenFor(db, email);
    const accepted = await app.inject({ method: 'POST', url: '/api/invitations/accept', payload: { token, name, password: PEOPLE_PASSWORD } });
    expect(accepted.statusCode, accepted.body).toBe(200);
    const cookie = cookieFrom(accepted);
    const me = await app.inject({ url: '/api/me', headers: { cookie } });
    return { userId: (me.json() as { user: { id: string } }).user.id, email, cookie };
  };
  const joined = await joinTeamA('assistant-a');
  const assistantA = { ...joined, ...(await enrolTotp(app, joined.cookie)) };
  const newAssistantA = await joinTeamA('new-assistant-a');

  const borrowerAccount = await account('borrower');
  const borrower = { ...borrowerAccount, cookie: (await signIn(app, borrowerAccount.email)).cookie };

  return { admin, newAdmin, ownerA: a.person, assistantA, newAssistantA, ownerB: b.person, borrower, teamA: a.teamId, teamB: b.teamId };
}
