import { readFileSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { Config } from './config';

/**
 * Where the server last ran, recorded in DATA_DIR at every start, so the CLI
 * (same DATA_DIR, perhaps without the server's PORT or PUBLIC_URL) builds links
 * to the address people actually open.
 */
export const LAST_RUN_FILE = 'server.json';

const LastRunSchema = z.object({
  publicUrl: z.url().refine((url) => /^https?:\/\//.test(url)),
  port: z.number().int().min(0).max(65535),
  startedAt: z.string(),
});
export type LastRun = z.infer<typeof LastRunSchema>;

export const lastRunFile = (dataDir: string) => path.join(dataDir, LAST_RUN_FILE);

/** Writes DATA_DIR/server.json, whole or not at all (a temporary file renamed over it). */
export async function recordLastRun(dataDir: string, run: { publicUrl: string; port: number }, now = new Date()): Promise<void> {
  await mkdir(dataDir, { recursive: true });
  const file = lastRunFile(dataDir);
  const partial = `${file}.${process.pid}.tmp`;
  const record: LastRun = { publicUrl: run.publicUrl, port: run.port, startedAt: now.toISOString() };
  await writeFile(partial, `${JSON.stringify(record, null, 2)}\n`);
  await rename(partial, file);
}

/** What DATA_DIR/server.json says, or null when there is none or it cannot be read. */
export function readLastRun(dataDir: string): LastRun | null {
  let raw: string;
  try {
    raw = readFileSync(lastRunFile(dataDir), 'utf8');
  } catch {
    return null;
  }
  try {
    const parsed = LastRunSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * The public URL the CLI builds links with: PUBLIC_URL when set (in the
 * environment or `.env`, which loadDotEnv put there), else the one the server
 * recorded at its last start on this DATA_DIR, else the configured default.
 * `note` says so when the recorded one is used.
 */
export function publicUrlForCli(
  config: Pick<Config, 'publicUrl' | 'dataDir'>,
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
): { publicUrl: string; note: string | null } {
  if (env.PUBLIC_URL?.trim()) return { publicUrl: config.publicUrl, note: null };
  const lastRun = readLastRun(config.dataDir);
  if (!lastRun) return { publicUrl: config.publicUrl, note: null };
  const publicUrl = lastRun.publicUrl.replace(/\/$/, '');
  const file = lastRunFile(config.dataDir);
  const relative = path.relative(cwd, file);
  const shown = relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
  return { publicUrl, note: `Using ${publicUrl}, where the server last ran (${shown})` };
}
