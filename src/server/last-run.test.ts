import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from './config';
import { lastRunFile, publicUrlForCli, readLastRun, recordLastRun } from './last-run';

describe('where the server last ran', () => {
  let cwd: string;
  /** The CLI's view: its environment, DATA_DIR=data under `cwd`. */
  const cli = (env: NodeJS.ProcessEnv = {}) => {
    const config = loadConfig({ DATA_DIR: 'data', ...env }, cwd);
    return publicUrlForCli(config, env, cwd);
  };

  beforeEach(async () => {
    cwd = await mkdtemp(path.join(tmpdir(), 'coverly-last-run-'));
  });
  afterEach(() => rm(cwd, { recursive: true, force: true }));

  it('records the public URL, port and start time in DATA_DIR/server.json', async () => {
    const dataDir = path.join(cwd, 'data');
    await recordLastRun(dataDir, { publicUrl: 'http://localhost:4000', port: 4000 }, new Date('2026-01-02T03:04:05Z'));
    expect(JSON.parse(await readFile(path.join(dataDir, 'server.json'), 'utf8'))).toEqual({
      publicUrl: 'http://localhost:4000',
      port: 4000,
      startedAt: '2026-01-02T03:04:05.000Z',
    });
    expect(readLastRun(dataDir)).toEqual({ publicUrl: 'http://localhost:4000', port: 4000, startedAt: '2026-01-02T03:04:05.000Z' });
  });

  it('gives the CLI the recorded URL when PUBLIC_URL is unset, and says so', async () => {
    await recordLastRun(path.join(cwd, 'data'), { publicUrl: 'http://localhost:4000', port: 4000 });
    expect(cli()).toEqual({
      publicUrl: 'http://localhost:4000',
      note: `Using http://localhost:4000, where the server last ran (${path.join('data', 'server.json')})`,
    });
    // PORT alone does not override where the server really ran.
    expect(cli({ PORT: '3000' }).publicUrl).toBe('http://localhost:4000');
  });

  it('lets an explicit PUBLIC_URL win', async () => {
    await recordLastRun(path.join(cwd, 'data'), { publicUrl: 'http://localhost:4000', port: 4000 });
    expect(cli({ PUBLIC_URL: 'https://coverly.example.com/' })).toEqual({ publicUrl: 'https://coverly.example.com', note: null });
  });

  it('falls back to the default without a record, or with one it cannot read', async () => {
    expect(cli()).toEqual({ publicUrl: 'http://localhost:3000', note: null });
    expect(cli({ PORT: '5000' })).toEqual({ publicUrl: 'http://localhost:5000', note: null });
    await recordLastRun(path.join(cwd, 'data'), { publicUrl: 'http://localhost:4000', port: 4000 });
    await writeFile(lastRunFile(path.join(cwd, 'data')), '{ not json');
    expect(cli()).toEqual({ publicUrl: 'http://localhost:3000', note: null });
    await writeFile(lastRunFile(path.join(cwd, 'data')), JSON.stringify({ publicUrl: 'ftp://x', port: 1, startedAt: 'now' }));
    expect(cli().publicUrl).toBe('http://localhost:3000');
  });
});
