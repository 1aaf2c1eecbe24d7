import { ConfigError, loadConfig, loadDotEnv } from './config';
import { databaseTargetFor, openDatabase } from './db/client';
import { countJobsByStatus, retryDeadJobs } from './platform/jobs/outbox';

const USAGE = `Usage: npm run cli -- <command>

Commands:
  migrate            apply database migrations (the server also does this at start)
  jobs               count background jobs by status (pending, running, done, dead)
  retry-dead-jobs    put every dead job back in the queue with fresh attempts
  help               show this text`;

async function main(argv: string[]): Promise<number> {
  const [command = 'help'] = argv;
  if (command === 'help' || command === '--help' || command === '-h') {
    console.log(USAGE);
    return 0;
  }
  if (!['migrate', 'jobs', 'retry-dead-jobs'].includes(command)) {
    console.error(`Unknown command "${command}".\n\n${USAGE}`);
    return 64; // EX_USAGE
  }
  loadDotEnv();
  const config = loadConfig();
  const database = await openDatabase(databaseTargetFor(config));
  try {
    await database.migrate();
    if (command === 'migrate') console.log('Migrations applied.');
    if (command === 'jobs') console.table(await countJobsByStatus(database.db));
    if (command === 'retry-dead-jobs') console.log(`${await retryDeadJobs(database.db)} dead job(s) queued again; a running server sends them within seconds.`);
    return 0;
  } finally {
    await database.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exit(error instanceof ConfigError ? 78 : 1);
  },
);
