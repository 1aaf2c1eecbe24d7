import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * AUTH_SECRET from the environment, or — embedded mode — a random one
 * generated once into DATA_DIR/keys/auth-secret and reused on every start.
 */
export async function resolveAuthSecret(
  config: { authSecret: string | undefined; dataDir: string },
  logger: { warn: (obj: object, msg: string) => void },
): Promise<string> {
  if (config.authSecret) return config.authSecret;
  const file = path.join(config.dataDir, 'keys', 'auth-secret');
  try {
    const existing = (await readFile(file, 'utf8')).trim();
    if (existing.length >= 32) return existing;
  } catch {
    // not generated yet
  }
  const secret = randomBytes(32).toString('base64url');
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  await writeFile(file, `${secret}\n`, { mode: 0o600 });
  await chmod(file, 0o600);
  logger.warn({ file }, 'AUTH_SECRET is not set: generated one into the data folder. Set AUTH_SECRET in production.');
  return secret;
}
