import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createAuth } from '../server/auth/auth';
import { loadConfig, type Config } from '../server/config';
import type { Db } from '../server/db/client';
import { SIGN_IN_POLICY, type SignInPolicy } from '../server/auth/throttle';

/** A valid configuration for tests: silent logs, a temporary DATA_DIR, its own master key, generous rate limits. */
export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'coverly-test-')),
    PUBLIC_URL: 'http://localhost:3000',
    NOTIFY_EMAIL: 'team@coverly.test',
    MAIL_FROM: 'Coverly <no-reply@coverly.test>',
    WAITLIST_RATE_LIMIT: '1000',
    COMMENT_RATE_LIMIT: '1000',
    AUTH_SECRET: 'test-secret-for-signing-session-cookies-0123456789',
    MASTER_KEY: randomBytes(32).toString('base64'),
    ...env,
  });
}

/**
 * better-auth over a test's database, configured as the app configures it: a
 * second handle on the same accounts, for making them directly.
 */
export const testAuth = (db: Db, config: Config) =>
  createAuth({ db, secret: config.authSecret ?? '', publicUrl: config.publicUrl, brandName: config.publicConfig.brandName });

/** The real sign-in policy with its waits shortened, so throttled tests stay quick. */
export const quickSignInPolicy: SignInPolicy = {
  ...SIGN_IN_POLICY,
  pair: { ...SIGN_IN_POLICY.pair, baseDelayMs: 1, maxDelayMs: 4 },
  client: { ...SIGN_IN_POLICY.client, baseDelayMs: 1, maxDelayMs: 4 },
};
