import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { invalidField } from '../../shared/errors';
import type { AppContext, Feature } from '../app-context';
import { grantBroker, grantPlatformAdmin, insertMember } from '../accounts/accounts.queries';
import { createCredentialUser, TOTP_DIGITS, TOTP_PERIOD_SECONDS } from '../auth/auth';
import { base32Decode, hotp } from '../auth/totp';
import type { Db } from '../db/client';
import { job, team, teamMember, user } from '../db/schema';
import { noteJobEnqueued } from '../platform/jobs/job-wake';
import { parseInput } from '../platform/http/problem';
import {
  CreateTestPersonSchema,
  DueJobsSchema,
  TEST_SUPPORT_SECRET_ENV,
  TEST_SUPPORT_SECRET_HEADER,
  type CreateTestPerson,
  type TestPerson,
} from './test-support.schema';

const sha256 = (text: string) => createHash('sha256').update(text).digest();

/** The route constraint a request meets by carrying the secret. */
const SECRET_CONSTRAINT = 'testSupportSecret';
const PRESENTED = 'presented';

/**
 * Routes for the browser tests only (README.md here): they make people and
 * open their sessions on the server, which owns its embedded database, so a
 * test starts signed in without going through the sign-in form.
 *
 * They exist only when the server starts with E2E_TEST_SUPPORT_SECRET (the
 * e2e run's random secret), never in production, and every request must carry
 * that secret, or it is answered exactly like an unknown route.
 */
export const testSupportFeature: Feature = {
  name: 'test-support',
  routes: async (app, context) => {
    const secret = process.env[TEST_SUPPORT_SECRET_ENV];
    if (!secret) return;
    // NODE_ENV unset is production too (config.ts): such a server must not start rather than run these.
    if (context.config.env === 'production') {
      throw new Error(
        `${TEST_SUPPORT_SECRET_ENV} is set but NODE_ENV is production (or unset): the test-support routes never run in production. Unset ${TEST_SUPPORT_SECRET_ENV}.`,
      );
    }
    if (secret.length < 32) throw new Error(`${TEST_SUPPORT_SECRET_ENV} must be at least 32 characters`);
    const expected = sha256(secret);

    // A request without the secret matches no route at all: the router answers it as any unknown path,
    // by construction (body parsing and content types included), so nothing shows the routes exist.
    app.addConstraintStrategy({
      name: SECRET_CONSTRAINT,
      storage() {
        const handlers = new Map();
        return {
          get: (value) => handlers.get(value) ?? null,
          set: (value, handler) => {
            handlers.set(value, handler);
          },
        };
      },
      deriveConstraint(request) {
        const given = request.headers[TEST_SUPPORT_SECRET_HEADER];
        return typeof given === 'string' && timingSafeEqual(sha256(given), expected) ? PRESENTED : undefined;
      },
    });
    const routeOptions = { constraints: { [SECRET_CONSTRAINT]: PRESENTED }, config: { access: 'public' as const } };

    app.post('/api/test-support/people', routeOptions, async (request, reply) => {
      const person = await createTestPerson(app, context, parseInput(CreateTestPersonSchema, request.body));
      return reply.status(201).send(person);
    });

    // A debounced job (a comment digest, three minutes on) made due now, so a browser test sees its mail without waiting.
    app.post('/api/test-support/jobs/due', routeOptions, async (request) => {
      const { queue } = parseInput(DueJobsSchema, request.body);
      const moved = await context.db
        .update(job)
        .set({ runAt: sql`now()` })
        .where(and(eq(job.queue, queue), eq(job.status, 'pending')))
        .returning({ id: job.id });
      if (moved.length > 0) noteJobEnqueued();
      return { moved: moved.length };
    });
  },
};

const DEFAULT_NAMES: Record<CreateTestPerson['role'], string> = { admin: 'Avery Admin', owner: 'Owen Owner', assistant: 'Asha Assistant' };

async function createTestPerson(
  app: FastifyInstance,
  { auth, db, publicUrl }: AppContext,
  input: ReturnType<typeof CreateTestPersonSchema.parse>,
): Promise<TestPerson> {
  if (input.teamId && input.role !== 'assistant') throw invalidField('teamId', 'Only an assistant joins an existing team');
  const joining = input.teamId ? await existingTeam(db, input.teamId) : null;
  const tag = randomBytes(6).toString('hex');
  const password = `test support ${randomBytes(12).toString('base64url')}`;
  const name = input.name ?? DEFAULT_NAMES[input.role];
  const email = (input.email ?? `${input.role}.${tag}@test-support.coverly.test`).toLowerCase();
  const person = await createCredentialUser(auth, { email, name, password });

  let teamOf: TestPerson['team'] = null;
  if (input.role === 'admin') {
    await grantPlatformAdmin(db, person.id);
  } else if (joining) {
    await insertMember(db, { teamId: joining.id, userId: person.id, role: 'assistant' });
    teamOf = joining;
  } else {
    // An assistant's team is founded by an owner of its own, who is never signed in.
    const owner =
      input.role === 'owner'
        ? person
        : await createCredentialUser(auth, { email: `owner.${tag}@test-support.coverly.test`, name: DEFAULT_NAMES.owner, password });
    const teamName = input.teamName ?? `${owner.name}'s team`;
    const teamId = await db.transaction(async (tx) => {
      const id = await foundTeam(tx, owner.id, teamName);
      if (owner !== person) await insertMember(tx, { teamId: id, userId: person.id, role: 'assistant' });
      return id;
    });
    teamOf = { id: teamId, name: teamName, owner: { email: owner.email, name: owner.name } };
  }

  const session = await openSession(app, publicUrl, { email, password, mfa: input.mfa });
  return { userId: person.id, email, name, password, role: input.role, team: teamOf, ...session };
}

/** The team an assistant joins (as accepting an invitation to it would make them), with its owner. */
async function existingTeam(db: Db, teamId: string): Promise<NonNullable<TestPerson['team']>> {
  const [found] = await db
    .select({ name: team.name, ownerEmail: user.email, ownerName: user.name })
    .from(team)
    .innerJoin(teamMember, and(eq(teamMember.teamId, team.id), eq(teamMember.role, 'owner')))
    .innerJoin(user, eq(user.id, teamMember.userId))
    .where(eq(team.id, teamId))
    .limit(1);
  if (!found) throw invalidField('teamId', 'No team has this id');
  return { id: teamId, name: found.name, owner: { email: found.ownerEmail, name: found.ownerName } };
}

/** A broker founds a team and owns it, as `createTeam` in the teams feature does. */
async function foundTeam(db: Db, ownerId: string, name: string): Promise<string> {
  await grantBroker(db, ownerId);
  const [created] = await db.insert(team).values({ name, createdBy: ownerId }).returning({ id: team.id });
  if (!created) throw new Error('inserting the team returned no row');
  await insertMember(db, { teamId: created.id, userId: ownerId, role: 'owner' });
  return created.id;
}

/**
 * Signs the person in through the app's own auth routes, as a browser would
 * (throttled, audited), and enrols an authenticator first when asked: the
 * session is exactly what the sign-in form would have given.
 */
async function openSession(
  app: FastifyInstance,
  publicUrl: string,
  { email, password, mfa }: { email: string; password: string; mfa: boolean },
): Promise<Pick<TestPerson, 'cookies' | 'totp'>> {
  const post = async (url: string, payload: object, cookies: string[] = []) => {
    // From the app's own origin, as the browser's requests are: better-auth refuses a POST without one (outside NODE_ENV=test).
    const headers = { origin: new URL(publicUrl).origin, 'user-agent': 'Coverly test support', cookie: cookies.map((c) => c.split(';')[0]).join('; ') };
    const response = await app.inject({ method: 'POST', url, payload, headers });
    if (response.statusCode !== 200) throw new Error(`test support: POST ${url} answered ${response.statusCode}: ${response.body.slice(0, 300)}`);
    return response;
  };
  const signedIn = setCookiesOf(await post('/api/auth/sign-in/email', { email, password }));
  if (!mfa) return { cookies: signedIn, totp: null };

  const enabled = (await post('/api/auth/two-factor/enable', { password }, signedIn)).json() as { totpURI: string; backupCodes: string[] };
  const secret = new URL(enabled.totpURI).searchParams.get('secret') ?? '';
  // The previous step's code, as an authenticator app might show it, unless the window is nearly over:
  // the test's own codes (each accepted once) then still have the current and the next step.
  const now = Date.now();
  const periodMs = TOTP_PERIOD_SECONDS * 1000;
  const step = Math.floor(now / periodMs) - (now % periodMs < periodMs - 5000 ? 1 : 0);
  // Enrolling replaces the session: the new cookie is the one that works.
  const verified = await post('/api/auth/two-factor/verify-totp', { code: hotp(base32Decode(secret), step, TOTP_DIGITS) }, signedIn);
  return { cookies: setCookiesOf(verified), totp: { secret, backupCodes: enabled.backupCodes, usedStep: step } };
}

const setCookiesOf = (response: LightMyRequestResponse) => ([] as string[]).concat(response.headers['set-cookie'] ?? []);
