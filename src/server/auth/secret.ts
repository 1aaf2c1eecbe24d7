import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError } from '../config';

/** How to make a secret, for the messages that ask for one. */
export const MAKE_A_SECRET = 'openssl rand -base64 32';

/**
 * AUTH_SECRET from the environment, or — embedded mode — a random one
 * generated once into DATA_DIR/keys/auth-secret and reused on every start.
 *
 * With DATABASE_URL there is no default: several instances may share the
 * database, and a secret generated into each one's data folder would make
 * each refuse the others' sessions. Keeping a generated one in the database
 * instead would hand session forging to anyone who reads the database or a
 * backup. So the start stops with a ConfigError naming AUTH_SECRET.
 */
export async function resolveAuthSecret(
  config: { authSecret: string | undefined; dataDir: string; databaseUrl?: string | undefined },
  logger: { warn: (obj: object, msg: string) => void },
): Promise<string> {
  if (config.authSecret) return config.authSecret;
  const file = path.join(config.dataDir, 'keys', 'auth-secret');
  const existing = await readFile(file, 'utf8').then(
    (text) => text.trim(),
    () => '',
  );
  if (config.databaseUrl) throw new ConfigError([missingSharedSecret(existing.length >= 32 ? file : null)]);
  if (existing.length >= 32) return existing;
  const secret = randomBytes(32).toString('base64url');
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  await writeFile(file, `${secret}\n`, { mode: 0o600 });
  await chmod(file, 0o600);
  logger.warn({ file }, 'AUTH_SECRET is not set: generated one into the data folder. Set AUTH_SECRET in production.');
  return secret;
}

function missingSharedSecret(generatedFile: string | null): string {
  return (
    `AUTH_SECRET: must be set when DATABASE_URL is. Every instance on the database signs and checks the same session cookies, ` +
    `so all of them need the same secret: make one with \`${MAKE_A_SECRET}\` and set AUTH_SECRET to it on every instance.` +
    (generatedFile ? ` To keep the sessions signed so far, use the secret this instance generated earlier, in ${generatedFile}.` : '')
  );
}
