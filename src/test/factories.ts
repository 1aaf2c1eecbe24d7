import { createHmac, randomBytes } from 'node:crypto';
import { generateRandomString, symmetricEncrypt } from 'better-auth/crypto';
import { eq } from 'drizzle-orm';
import { grantBroker, grantPlatformAdmin, insertMember } from '../server/accounts/accounts.queries';
import { joinLoan } from '../server/accounts/loan-participants';
import { createLoan as createLoanFile } from '../server/loans/loans.service';
import { CreateLoanSchema, type CreateLoan, type LoanDetail, type LoanInput } from '../shared/schemas/loans';
import type { LoanParticipantRole } from '../shared/domain/access';
import { markWaitlistEntryInvited } from '../server/admin/admin.queries';
import { createCredentialUser } from '../server/auth/auth';
import { waitlistEntry, type WaitlistEntry } from '../server/db/schema';
import { insertTeam } from '../server/teams/teams.queries';
import { upsertWaitlistEntry } from '../server/waitlist/waitlist.queries';
import type { Api } from './api';
import { sampleLoan } from './sample-loan';

export { sampleLoan };
import { PEOPLE_PASSWORD, type People } from './people';

/*
 * Valid rows made through the real queries and better-auth's own adapter,
 * without the HTTP flows that normally make them (README.md here).
 */

type Factory = Pick<Api, 'app' | 'db'>;

export interface AccountInput {
  /** Defaults to a new, unique address. */
  email?: string;
  name?: string;
  /** Defaults to PEOPLE_PASSWORD, like the cast of `createPeople`. */
  password?: string;
}

export interface Account {
  userId: string;
  email: string;
  name: string;
  password: string;
  /** The authenticator's base32 secret (as its otpauth:// URI shows it), once enrolled. */
  secret?: string;
  /** Its one-time backup codes, once enrolled. */
  backupCodes?: string[];
}

/** An account with a signed-in session. */
export interface Person extends Account {
  /** The Cookie header of the session. */
  cookie: string;
}

export interface Team {
  teamId: string;
  name: string;
  owner: Person;
}

let made = 0;
const uniqueEmail = (kind: string) => `${kind}-${++made}-${randomBytes(3).toString('hex')}@factory.test`;

/** An account with an e-mail and password, as an accepted invitation makes one. */
export async function createAccount(api: Factory, input: AccountInput = {}): Promise<Account> {
  const password = input.password ?? PEOPLE_PASSWORD;
  const name = input.name ?? 'Pat Person';
  const created = await createCredentialUser(api.app.auth, { email: input.email ?? uniqueEmail('person'), name, password });
  return { userId: created.id, email: created.email, name, password };
}

/**
 * Enrols a TOTP authenticator for the account, stored exactly as better-auth's
 * enable and verify-totp leave it: the twoFactor row with the secret and the
 * backup codes encrypted with the auth secret, verified, and the user's
 * twoFactorEnabled on. Enrol before signing in: the HTTP flow ends the
 * account's other sessions, this does not.
 */
export async function enrolAuthenticator<A extends Account>(api: Factory, account: A): Promise<A & Required<Pick<Account, 'secret' | 'backupCodes'>>> {
  const context = await api.app.auth.$context;
  // As better-auth's two-factor plugin makes them (plugins/two-factor/index, backup-codes/index): 10 codes of 10 characters.
  const rawSecret = generateRandomString(32);
  const backupCodes = Array.from({ length: 10 }, () => generateRandomString(10, 'a-z', '0-9', 'A-Z')).map((code) => `${code.slice(0, 5)}-${code.slice(5)}`);
  await context.adapter.create({
    model: 'twoFactor',
    data: {
      userId: account.userId,
      secret: await symmetricEncrypt({ key: context.secretConfig, data: rawSecret }),
      backupCodes: await symmetricEncrypt({ key: context.secretConfig, data: JSON.stringify(backupCodes) }),
      verified: true,
    },
  });
  await context.internalAdapter.updateUser(account.userId, { twoFactorEnabled: true });
  // The key is the secret's UTF-8 bytes; the authenticator app is given them in base32.
  return { ...account, secret: base32Encode(Buffer.from(rawSecret, 'utf8')), backupCodes };
}

/**
 * A session for the account, opened on the server as a completed sign-in
 * (password, and code when enrolled) would open it, with its cookie signed
 * as better-auth signs it (better-call's signCookieValue: the token, a dot,
 * the base64 HMAC-SHA256 of the token under the auth secret, URL-encoded).
 * No request is made: nothing reaches the sign-in throttle or the audit log.
 */
export async function signedIn<A extends Account>(api: Factory, account: A): Promise<A & Person> {
  const context = await api.app.auth.$context;
  const session = await context.internalAdapter.createSession(account.userId);
  const signature = createHmac('sha256', context.secret).update(session.token).digest('base64');
  return { ...account, cookie: `${context.authCookies.sessionToken.name}=${encodeURIComponent(`${session.token}.${signature}`)}` };
}

export interface GrantedInput extends AccountInput {
  /** With an authenticator enrolled (the default); without, the app asks them to enrol one first. */
  mfa?: boolean;
}

async function granted(api: Factory, input: GrantedInput, grant: (userId: string) => Promise<void>): Promise<Person> {
  const { mfa = true, ...rest } = input;
  const account = await createAccount(api, rest);
  await grant(account.userId);
  return signedIn(api, mfa ? await enrolAuthenticator(api, account) : account);
}

/** A signed-in platform admin, enrolled unless `mfa: false`. */
export const createAdmin = (api: Factory, input: GrantedInput = {}) =>
  granted(api, { name: 'Avery Admin', ...input }, (userId) => grantPlatformAdmin(api.db, userId));

/** A signed-in broker (who may found a team) in no team yet, enrolled unless `mfa: false`. */
export const createBroker = (api: Factory, input: GrantedInput = {}) => granted(api, { name: 'Bo Broker', ...input }, (userId) => grantBroker(api.db, userId));

/** A team founded by a new, enrolled broker who owns it, as POST /api/teams leaves them (without its audit row). */
export async function createTeamWithOwner(api: Factory, input: { name?: string; owner?: AccountInput } = {}): Promise<Team> {
  const owner = await createBroker(api, { name: 'Owen Owner', ...input.owner });
  const name = input.name ?? `${owner.name}'s team`;
  const teamId = await api.db.transaction(async (tx) => {
    const created = await insertTeam(tx, { name, createdBy: owner.userId });
    await insertMember(tx, { teamId: created.id, userId: owner.userId, role: 'owner' });
    return created.id;
  });
  return { teamId, name, owner };
}

/** A new, signed-in assistant of the team, enrolled unless `mfa: false`. */
export const addAssistant = (api: Factory, teamId: string, input: GrantedInput = {}) =>
  granted(api, { name: 'Asha Assistant', ...input }, (userId) => insertMember(api.db, { teamId, userId, role: 'assistant' }));

/** A loan of the team, made by `by` (a team member) through the real service, as POST /api/teams/:teamId/loans makes it. */
export async function createLoan(
  api: Factory & Pick<Api, 'app'>,
  teamId: string,
  by: { userId: string; email: string; name?: string },
  overrides: Partial<CreateLoan> = {},
): Promise<LoanDetail> {
  const input = CreateLoanSchema.parse(sampleLoan(overrides)) as LoanInput;
  const principal = {
    kind: 'user' as const,
    userId: by.userId,
    email: by.email,
    name: by.name ?? by.email,
    platformAdmin: false,
    broker: false,
    mfaEnrolled: true,
    team: null,
  };
  return createLoanFile({ db: api.db, publicUrl: 'http://localhost' }, principal, teamId, input, { ip: null, userAgent: null });
}

/** A signed-in borrower (or co-borrower) of the loan, as accepting its invitation makes them. */
export async function addBorrower(api: Factory, loanId: string, input: AccountInput & { role?: LoanParticipantRole } = {}): Promise<Person> {
  const { role = 'borrower', ...rest } = input;
  const account = await createAccount(api, { name: 'Bea Borrower', ...rest });
  await api.db.transaction((tx) => joinLoan(tx, { loanId, userId: account.userId, role, invitedBy: null }));
  return signedIn(api, account);
}

export interface WaitlistInput {
  fullName?: string;
  email?: string;
  phone?: string;
  company?: string;
  /** 'invited' marks it as the admin console's invite does. */
  status?: WaitlistEntry['status'];
  createdAt?: Date;
  invitedAt?: Date;
}

/** A waitlist entry as a sign-up makes it (without its mails), optionally invited, with its dates set. */
export async function createWaitlistEntry(api: Factory, input: WaitlistInput = {}): Promise<WaitlistEntry> {
  const { entry } = await upsertWaitlistEntry(api.db, {
    fullName: input.fullName ?? 'Wren Waitlist',
    email: input.email ?? uniqueEmail('waitlist'),
    phone: input.phone,
    company: input.company,
  });
  const invited = input.status === 'invited' || input.invitedAt ? await markWaitlistEntryInvited(api.db, entry.id) : entry;
  if (!input.createdAt && !input.invitedAt) return invited ?? entry;
  const [dated] = await api.db
    .update(waitlistEntry)
    .set({ ...(input.createdAt ? { createdAt: input.createdAt } : {}), ...(input.invitedAt ? { invitedAt: input.invitedAt } : {}) })
    .where(eq(waitlistEntry.id, entry.id))
    .returning();
  if (!dated) throw new Error('createWaitlistEntry: the entry is gone');
  return dated;
}

/**
 * The cast of `createPeople` (same names, addresses and team names), made
 * with the factories instead of the real flows: for tests about what these
 * people may do, not about how they came to be. The access matrix and the
 * journeys keep `createPeople`.
 */
export async function createCast(api: Factory, prefix = 'p'): Promise<People> {
  const named = (name: string) => ({ email: `${prefix}-${name}@people.test`, name });
  const admin = await createAdmin(api, named('admin'));
  const newAdmin = await createAdmin(api, { ...named('new-admin'), mfa: false });
  const a = await createTeamWithOwner(api, { name: "owner-a's team", owner: named('owner-a') });
  const b = await createTeamWithOwner(api, { name: "owner-b's team", owner: named('owner-b') });
  const assistantA = await addAssistant(api, a.teamId, named('assistant-a'));
  const newAssistantA = await addAssistant(api, a.teamId, { ...named('new-assistant-a'), mfa: false });
  const borrower = await signedIn(api, await createAccount(api, named('borrower')));
  return { admin, newAdmin, ownerA: a.owner, assistantA, ownerB: b.owner, newAssistantA, borrower, teamA: a.teamId, teamB: b.teamId };
}

/** RFC 4648 base32 without padding, as otpauth:// URIs carry secrets. */
function base32Encode(bytes: Uint8Array): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31];
  return out;
}
