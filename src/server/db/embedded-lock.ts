import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

// PGlite keeps the database in files that exactly one process may open. The
// server holds this lock while it runs on DATA_DIR/db; the CLI refuses to open
// the same folder while a live process holds it.

const lockFile = (dataDir: string) => path.join(dataDir, 'db.pid');

/** The pid of a live process holding the embedded database, if any. */
export function embeddedDatabaseHolder(dataDir: string): number | null {
  let pid: number;
  try {
    pid = Number(readFileSync(lockFile(dataDir), 'utf8').trim());
  } catch {
    return null;
  }
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return null;
  try {
    process.kill(pid, 0);
    return pid;
  } catch {
    return null; // a stale lock from a process that is gone
  }
}

/** Takes the lock; returns its release. Throws when another live process holds it. */
export function lockEmbeddedDatabase(dataDir: string): () => void {
  const holder = embeddedDatabaseHolder(dataDir);
  if (holder) throw new Error(`Another Coverly process (pid ${holder}) is using the embedded database in ${dataDir}/db. Stop it first.`);
  writeFileSync(lockFile(dataDir), `${process.pid}\n`);
  return () => rmSync(lockFile(dataDir), { force: true });
}
