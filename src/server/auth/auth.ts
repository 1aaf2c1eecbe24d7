import { betterAuth } from 'better-auth';
import { isAPIError } from 'better-auth/api';
import type { FastifyBaseLogger } from 'fastify';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { twoFactor } from 'better-auth/plugins';
import type { Db } from '../db/client';
import { authSchema } from '../db/schema';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../shared/schemas/password';
import { acceptedOrigins } from '../platform/http/security';
import { enqueueMail } from '../platform/mail/mail-jobs';
import { mailBrandOfUser } from '../teams/team-brand';
import { passwordResetMail } from './auth.mail';
import { authRules } from './auth-rules';

export const AUTH_BASE_PATH = '/api/auth';
export const SESSION_COOKIE_PREFIX = 'coverly';

export interface AuthOptions {
  db: Db;
  secret: string;
  publicUrl: string;
  brandName: string;
  /** Where better-auth's own warnings go (the app's pino logger); silent without one. */
  logger?: Pick<FastifyBaseLogger, 'debug' | 'info' | 'warn' | 'error'>;
}

/** Reset links carry the token in the fragment: it never reaches a server log. */
export const passwordResetLink = (publicUrl: string, token: string) => `${publicUrl}/reset-password#${token}`;
export const PASSWORD_RESET_TTL_SECONDS = 60 * 60;
export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;

/**
 * The auth library (better-auth) over our database. Accounts come by
 * invitation only, so its public sign-up is off; invitations create accounts
 * through `createCredentialUser` below.
 */
export function createAuth({ db, secret, publicUrl, brandName, logger }: AuthOptions) {
  const https = publicUrl.startsWith('https://');
  const backgroundTasks = createBackgroundTasks(logger);
  const auth = betterAuth({
    appName: 'Coverly',
    baseURL: publicUrl,
    basePath: AUTH_BASE_PATH,
    secret,
    // PUBLIC_URL's origin; on a loopback PUBLIC_URL, every loopback spelling of it (security.ts).
    trustedOrigins: acceptedOrigins(publicUrl),
    database: drizzleAdapter(db, { provider: 'pg', schema: authSchema }),
    emailAndPassword: {
      enabled: true,
      disableSignUp: true,
      minPasswordLength: PASSWORD_MIN_LENGTH,
      maxPasswordLength: PASSWORD_MAX_LENGTH,
      resetPasswordTokenExpiresIn: PASSWORD_RESET_TTL_SECONDS,
      // A reset ends every session of the account, wherever it was signed in.
      revokeSessionsOnPasswordReset: true,
      async sendResetPassword({ user, token }) {
        // A team's people get the team's brand on every e-mail.
        const brand = await mailBrandOfUser({ db, publicUrl }, user.id);
        // The link resets the password: it leaves the outbox once the mail is sent.
        const mail = passwordResetMail({ email: user.email, name: user.name, link: passwordResetLink(publicUrl, token) }, { brandName, brand });
        await enqueueMail(db, mail, { secret: true });
      },
    },
    // Reset tokens (and every other verification value) are stored hashed only.
    verification: { storeIdentifier: 'hashed' },
    // Our own throttle (src/server/auth/throttle.ts) guards sign-in and resets, shared across instances.
    rateLimit: { enabled: false },
    session: {
      // Sliding expiry: a session used within a day of its start is extended by a week.
      expiresIn: 60 * 60 * 24 * 7,
      updateAge: 60 * 60 * 24,
    },
    // Our rules run inside better-auth's pipeline, whatever spelling a request used (auth-rules.ts).
    hooks: { before: authRules({ db, brandName, totp: { digits: TOTP_DIGITS, periodSeconds: TOTP_PERIOD_SECONDS } }) },
    advanced: {
      // The reset mail is queued after the answer, so a known address answers as fast as an unknown one.
      backgroundTasks: { handler: backgroundTasks.run },
      cookiePrefix: SESSION_COOKIE_PREFIX,
      useSecureCookies: https,
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax', secure: https },
    },
    // No network calls home: this product runs where it is installed.
    telemetry: { enabled: false },
    // Its messages join ours as JSON lines, never as coloured console text.
    // Its messages often echo what a client sent (an e-mail, a token): they join ours as warnings at
    // most, as one bounded line of the library's own words, without the values it passes along.
    logger: logger
      ? { level: 'warn', log: (level, message) => logger[level === 'error' ? 'warn' : level]({ library: 'better-auth' }, boundedLine(message)) }
      : { disabled: true },
    // Its refusals of a client (wrong password, bad token) are ours to log, at info, with the fields we choose.
    onAPIError: {
      onError(error) {
        if (isAPIError(error) && error.statusCode < 500)
          logger?.info({ library: 'better-auth', status: error.statusCode, code: error.body?.code }, 'auth request refused');
        else logger?.error({ library: 'better-auth', err: error }, 'auth request failed');
      },
    },
    plugins: [
      // TOTP authenticators with one-time backup codes. An enrolled account is
      // asked for a code at every new sign-in: no device is ever "trusted"
      // (auth-rules.ts).
      twoFactor({
        issuer: brandName,
        totpOptions: { digits: TOTP_DIGITS, period: TOTP_PERIOD_SECONDS },
        backupCodeOptions: { amount: 10, length: 10 },
      }),
    ],
  });
  return Object.assign(auth, { backgroundTasks });
}

export type Auth = ReturnType<typeof createAuth>;

/** A log line from text we do not control: control characters escaped, at most 200 characters. */
const boundedLine = (message: string) => JSON.stringify(String(message)).slice(1, -1).slice(0, 200);

/**
 * Work better-auth hands off to run after its answer (the reset mail). Each
 * task's failure is logged; `settled()` waits for what is under way, so
 * shutdown and tests can finish it.
 */
function createBackgroundTasks(logger: AuthOptions['logger']) {
  const pending = new Set<Promise<void>>();
  return {
    run(task: Promise<unknown>) {
      const tracked: Promise<void> = task.then(
        () => {},
        (error: unknown) => logger?.error({ err: error }, 'background task of the auth library failed'),
      );
      pending.add(tracked);
      void tracked.finally(() => pending.delete(tracked));
    },
    async settled() {
      while (pending.size > 0) await Promise.all(pending);
    },
  };
}

/** Creates an account with an e-mail and password, outside the disabled public sign-up. */
export async function createCredentialUser(auth: Auth, input: { email: string; name: string; password: string }) {
  const context = await auth.$context;
  const hash = await context.password.hash(input.password);
  const created = await context.internalAdapter.createUser({ email: input.email.toLowerCase(), name: input.name, emailVerified: true }, { method: 'admin' });
  if (!created) throw new Error('better-auth did not create the user');
  await context.internalAdapter.linkAccount({ userId: created.id, providerId: 'credential', accountId: created.id, password: hash });
  return created;
}
