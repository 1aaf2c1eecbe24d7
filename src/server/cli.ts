import { ConfigError, loadConfig, loadDotEnv } from './config';
import { InviteAdminSchema } from '../shared/schemas/invitations';
import { databaseTargetFor, openDatabase } from './db/client';
import { embeddedDatabaseHolder } from './db/embedded-lock';
import { createInvitation } from './accounts/invitations';
import { publicUrlForCli } from './last-run';
import { countJobsByStatus, retryDeadJobs } from './platform/jobs/outbox';

const USAGE = `Usage: npm run cli -- <command>

Commands:
  invite-admin <email>  mail a platform-admin invitation (single use, 7 days) and print its link
  migrate               apply database migrations (the server also does this at start)
  jobs                  count background jobs by status (pending, running, done, dead)
  retry-dead-jobs       put every dead job back in the queue with fresh attempts
  help                  show this text

With the embedded database (no DATABASE_URL), stop the server first: one process at a time may open it.`;

async function main(argv: string[]): Promise<number> {
  const [command = 'help'] = argv;
  if (command === 'help' || command === '--help' || command === '-h') {
    console.log(USAGE);
    return 0;
  }
  if (!['invite-admin', 'migrate', 'jobs', 'retry-dead-jobs'].includes(command)) {
    console.error(`Unknown command "${command}".\n\n${USAGE}`);
    return 64; // EX_USAGE
  }
  loadDotEnv();
  const config = loadConfig();
  const target = databaseTargetFor(config);
  const holder = target.kind === 'pglite' ? embeddedDatabaseHolder(config.dataDir) : null;
  if (holder) {
    console.error(
      `Coverly is running on this data folder (pid ${holder}). Stop it, run the command, then start it again:\nthe embedded database can be opened by one process at a time.`,
    );
    return 75; // EX_TEMPFAIL
  }
  let adminEmail = '';
  if (command === 'invite-admin') {
    const parsed = InviteAdminSchema.safeParse({ email: argv[1] ?? '' });
    if (!parsed.success) {
      console.error(`invite-admin needs an e-mail address: npm run cli -- invite-admin you@example.com`);
      return 64;
    }
    adminEmail = parsed.data.email;
  }
  const database = await openDatabase(target);
  try {
    await database.migrate();
    if (command === 'invite-admin') {
      const { publicUrl, note } = publicUrlForCli(config);
      if (note) console.error(note);
      const { link, invitation } = await createInvitation(
        { db: database.db, publicUrl, brandName: config.publicConfig.brandName },
        { email: adminEmail, role: 'platform_admin', inviter: null },
      );
      console.log(`Platform-admin invitation for ${invitation.email} (works once, expires ${invitation.expiresAt.toUTCString()}):\n\n  ${link}\n`);
      console.log(`The invitation e-mail is queued; the server sends it when it runs (embedded: into ${config.dataDir}/mail).`);
    }
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
