import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCredentialUser } from './auth/auth';
import { ConfigError } from './config';
import { createRuntime, createLogger, type Runtime } from './runtime';
import { testConfig } from '../test/config';
import { createTestDatabase } from '../test/databases';
import { PEOPLE_PASSWORD, signIn } from '../test/people';

const silent = createLogger({ logLevel: 'silent' });

describe('several instances on one database', () => {
  it('refuses to start on DATABASE_URL without AUTH_SECRET, naming the variable and how to make one', async () => {
    // Refused before any connection: nothing answers on this port.
    const config = testConfig({ DATABASE_URL: 'postgres://postgres@127.0.0.1:1/coverly', AUTH_SECRET: '' });
    const started = createRuntime(config, { logger: silent });
    await expect(started).rejects.toBeInstanceOf(ConfigError);
    await expect(started).rejects.toThrow(/AUTH_SECRET: must be set when DATABASE_URL is.*openssl rand -base64 32/s);
  });

  it('refuses to start on DATABASE_URL without MASTER_KEY, naming the variable and how to make one', async () => {
    const config = testConfig({ DATABASE_URL: 'postgres://postgres@127.0.0.1:1/coverly', MASTER_KEY: '' });
    const started = createRuntime(config, { logger: silent });
    await expect(started).rejects.toBeInstanceOf(ConfigError);
    await expect(started).rejects.toThrow(/MASTER_KEY: must be set when DATABASE_URL is.*openssl rand -base64 32/s);
  });

  it('still generates one into the data folder on the embedded database', async () => {
    const config = testConfig({ AUTH_SECRET: '', MASTER_KEY: '' });
    const runtime = await createRuntime(config, { logger: silent });
    await runtime.stop();
    expect(readFileSync(path.join(config.dataDir, 'keys', 'auth-secret'), 'utf8').trim()).toHaveLength(43);
    // The master key too, and the next start reads the same one back.
    const masterKey = readFileSync(path.join(config.dataDir, 'keys', 'master-key'), 'utf8').trim();
    expect(Buffer.from(masterKey, 'base64')).toHaveLength(32);
    await (await createRuntime(config, { logger: silent })).stop();
    expect(readFileSync(path.join(config.dataDir, 'keys', 'master-key'), 'utf8').trim()).toBe(masterKey);
  });

  it.runIf(process.env.TEST_DATABASE_URL)('accepts on one instance a session made on another, with a shared AUTH_SECRET', async () => {
    const database = await createTestDatabase('postgres');
    const runtimes: Runtime[] = [];
    try {
      const env = {
        DATABASE_URL: database.url!,
        AUTH_SECRET: 'one-secret-shared-by-every-instance-0123456789',
        MASTER_KEY: randomBytes(32).toString('base64'),
      };
      for (let i = 0; i < 2; i++) runtimes.push(await createRuntime(testConfig(env), { logger: silent }));
      const [first, second] = runtimes as [Runtime, Runtime];
      const account = await createCredentialUser(first.app.auth, { email: 'shared@example.com', name: 'Sam Shared', password: PEOPLE_PASSWORD });
      const { cookie } = await signIn(first.app, account.email);
      for (const runtime of runtimes) {
        const me = await runtime.app.inject({ method: 'GET', url: '/api/me', headers: { cookie } });
        expect(me.statusCode, me.body).toBe(200);
      }
      const signedOut = await second.app.inject({ method: 'POST', url: '/api/auth/sign-out', headers: { cookie, origin: 'http://localhost:3000' } });
      expect(signedOut.statusCode).toBe(200);
      expect((await first.app.inject({ method: 'GET', url: '/api/me', headers: { cookie } })).statusCode).toBe(401);
    } finally {
      for (const runtime of runtimes) await runtime.stop();
      await database.destroy();
    }
  });
});
