import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import type { Db } from '../db/client';
import { authSchema } from '../db/schema';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../shared/schemas/password';

export const AUTH_BASE_PATH = '/api/auth';
export const SESSION_COOKIE_PREFIX = 'coverly';

export interface AuthOptions {
  db: Db;
  secret: string;
  publicUrl: string;
}

/**
 * The auth library (better-auth) over our database. Accounts come by
 * invitation only, so its public sign-up is off; invitations create accounts
 * through `createCredentialUser` below.
 */
export function createAuth({ db, secret, publicUrl }: AuthOptions) {
  const https = publicUrl.startsWith('https://');
  return betterAuth({
    appName: 'Coverly',
    baseURL: publicUrl,
    basePath: AUTH_BASE_PATH,
    secret,
    trustedOrigins: [new URL(publicUrl).origin],
    database: drizzleAdapter(db, { provider: 'pg', schema: authSchema }),
    emailAndPassword: {
      enabled: true,
      disableSignUp: true,
      minPasswordLength: PASSWORD_MIN_LENGTH,
      maxPasswordLength: PASSWORD_MAX_LENGTH,
    },
    session: {
      // Sliding expiry: a session used within a day of its start is extended by a week.
      expiresIn: 60 * 60 * 24 * 7,
      updateAge: 60 * 60 * 24,
    },
    advanced: {
      cookiePrefix: SESSION_COOKIE_PREFIX,
      useSecureCookies: https,
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax', secure: https },
    },
    // No network calls home: this product runs where it is installed.
    telemetry: { enabled: false },
  });
}

export type Auth = ReturnType<typeof createAuth>;

/** Creates an account with an e-mail and password, outside the disabled public sign-up. */
export async function createCredentialUser(auth: Auth, input: { email: string; name: string; password: string }) {
  const context = await auth.$context;
  const hash = await context.password.hash(input.password);
  const created = await context.internalAdapter.createUser(
    { email: input.email.toLowerCase(), name: input.name, emailVerified: true },
    { method: 'admin' },
  );
  if (!created) throw new Error('better-auth did not create the user');
  await context.internalAdapter.linkAccount({ userId: created.id, providerId: 'credential', accountId: created.id, password: hash });
  return created;
}
