import { ConfigError, loadConfig, loadDotEnv } from './config';
import { InviteAdminSchema } from '../shared/schemas/invitations';
import { databaseTargetFor, openDatabase } from './db/client';
import { embeddedDatabaseHolder } from './db/embedded-lock';
import { createInvitation } from './accounts/invitations';
import { publicUrlForCli } from './last-run';
import { countJobsByStatus, retryDeadJobs } from './platform/jobs/outbox';
import { createAuth } from './auth/auth';
import { resolveAuthSecret } from './auth/secret';
import { DEMO_EMAIL_DOMAIN, DEMO_LOANS_DEFAULT, DemoSeedRefused, describeDemo, seedDemo } from './demo/seed-demo';
import { rotateMasterKey } from './platform/files/key-rotation';
import { openFileVault, openObjectStore } from './platform/files/open-vault';
import { checkStorage, type StorageReport } from './platform/files/storage-check';
import { checkDocumentCounts, refreshAllDocumentCounts, type DocumentCountDrift } from './checklist/document-counts';

const USAGE = `Usage: npm run cli -- <command>

Commands:
  invite-admin <email>  mail a platform-admin invitation (single use, 7 days) and print its link
  migrate               apply database migrations (the server also does this at start)
  jobs                  count background jobs by status (pending, running, done, dead)
  retry-dead-jobs       put every dead job back in the queue with fresh attempts
  seed-demo [--loans N] [--force] [--json]
                        make the demo team "Harbor Lending": an owner and an assistant (sign-in and
                        authenticator key printed), three borrowers, and N made-up loans (default ${DEMO_LOANS_DEFAULT})
                        across every stage, each with its checklist and documents (small made-up files, stored
                        encrypted). Its people have @${DEMO_EMAIL_DOMAIN} addresses; running it again
                        resets the demo. Refuses a database with other teams unless --force. --json prints
                        the sign-ins as JSON.
  rotate-master-key [--check]
                        re-wrap every stored file's data key under the current master key (file bodies are
                        not touched; it can be stopped and run again). With MASTER_KEY set: put the new key
                        in MASTER_KEY and the old one in MASTER_KEYS_RETIRED first. Embedded (no MASTER_KEY):
                        generates a new key into DATA_DIR/keys and keeps the old one in DATA_DIR/keys/retired.
                        Says when the retired keys can be removed. --check only reports which keys files need.
  check-storage         read every stored object (DATA_DIR/files or the S3 bucket) and report any that does not
                        begin with Coverly's encrypted-file header or holds a PDF, PNG or JPEG signature
                        (docs/SECURITY.md); exits 1 if one does. Safe while the server runs.
  refresh-document-counts
                        count every loan's checklist again into its document counters (progress, the
                        pipeline's outstanding documents), after checklist rows were written by hand
  check-document-counts [--fix]
                        report every loan whose stored document counters (what the pipeline and the board show)
                        disagree with its checklist items; exits 1 if one does. --fix counts those loans again.
                        Safe while the server runs (on PostgreSQL).
  help                  show this text

With the embedded database (no DATABASE_URL), stop the server first: one process at a time may open it.`;

async function main(argv: string[]): Promise<number> {
  const [command = 'help'] = argv;
  if (command === 'help' || command === '--help' || command === '-h') {
    console.log(USAGE);
    return 0;
  }
  if (
    ![
      'invite-admin',
      'migrate',
      'jobs',
      'retry-dead-jobs',
      'seed-demo',
      'rotate-master-key',
      'check-storage',
      'refresh-document-counts',
      'check-document-counts',
    ].includes(command)
  ) {
    console.error(`Unknown command "${command}".\n\n${USAGE}`);
    return 64; // EX_USAGE
  }
  loadDotEnv();
  const config = loadConfig();
  // Reads the object store only: no database, so it may run beside the server.
  if (command === 'check-storage')
    return describeStorageCheck(
      config.s3 ? `the bucket ${config.s3.bucket}` : `${config.dataDir}/files`,
      await checkStorage(await openObjectStore(config, { clearLeftovers: false })),
    );
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
  const seed = command === 'seed-demo' ? seedOptions(argv.slice(1)) : null;
  if (seed && 'error' in seed) {
    console.error(`${seed.error}\n\n${USAGE}`);
    return 64;
  }
  const rotation = command === 'rotate-master-key' ? argv.slice(1) : null;
  if (rotation && rotation.some((arg) => arg !== '--check')) {
    console.error(`rotate-master-key takes only --check\n\n${USAGE}`);
    return 64;
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
    if (seed) {
      const auth = createAuth({
        db: database.db,
        secret: await resolveAuthSecret(config, { warn: (_details, message) => console.error(message) }),
        publicUrl: config.publicUrl,
        brandName: config.publicConfig.brandName,
      });
      try {
        const files = await openFileVault(config, { warn: (_details, message) => console.error(message) });
        const result = await seedDemo({ db: database.db, auth, brandName: config.publicConfig.brandName, files }, seed);
        const { publicUrl, note } = publicUrlForCli(config);
        if (seed.json) console.log(JSON.stringify({ ...result, signInUrl: `${publicUrl}/signin` }, null, 2));
        else {
          if (note) console.error(note);
          console.log(describeDemo(result, `${publicUrl}/signin`));
        }
      } catch (error) {
        if (!(error instanceof DemoSeedRefused)) throw error;
        console.error(error.message);
        return 65; // EX_DATAERR
      }
    }
    if (rotation) return await rotateMasterKey(config, database.db, { check: rotation.includes('--check'), print: (line) => console.log(line) });
    if (command === 'migrate') console.log('Migrations applied.');
    if (command === 'jobs') console.table(await countJobsByStatus(database.db));
    if (command === 'check-document-counts') {
      const fix = argv.slice(1).includes('--fix');
      const unknown = argv.slice(1).filter((arg) => arg !== '--fix');
      if (unknown.length) {
        console.error(`check-document-counts does not know "${unknown[0]}"`);
        return 64;
      }
      return describeDocumentCountCheck(await checkDocumentCounts(database.db, { fix }), fix);
    }
    if (command === 'refresh-document-counts') console.log(`Counted the checklists of ${await refreshAllDocumentCounts(database.db)} loan(s).`);
    if (command === 'retry-dead-jobs') console.log(`${await retryDeadJobs(database.db)} dead job(s) queued again; a running server sends them within seconds.`);
    return 0;
  } finally {
    await database.close();
  }
}

/** check-storage's report; 0 when every object is encrypted, 1 otherwise. */
function describeStorageCheck(where: string, report: StorageReport): number {
  const size = `${(report.bytes / 1024 / 1024).toFixed(1)} MB`;
  if (report.suspicious.length === 0) {
    console.log(
      `Checked ${report.objects} object(s), ${size}, in ${where}: every one begins with Coverly's encrypted-file header, and none holds a PDF, PNG or JPEG signature.`,
    );
    return 0;
  }
  console.log(`Checked ${report.objects} object(s), ${size}, in ${where}. ${report.suspicious.length} look(s) like plaintext:`);
  for (const { key, findings } of report.suspicious) {
    console.log(`  ${key}: ${findings.map((finding) => `${finding.what} at byte ${finding.offset}`).join(', ')}`);
  }
  return 1;
}

/** check-document-counts' report; 0 when every loan's counters match its items (or --fix counted them again), 1 otherwise. */
function describeDocumentCountCheck(drift: DocumentCountDrift[], fixed: boolean): number {
  if (drift.length === 0) {
    console.log('Every loan’s document counters match its checklist.');
    return 0;
  }
  const counts = (c: DocumentCountDrift['stored']) =>
    `${c.requiredItems} required, ${c.approvedItems} approved (borrower: ${c.borrowerRequiredItems}, ${c.borrowerApprovedItems})`;
  console.log(`${drift.length} loan(s) have document counters that disagree with their checklist:`);
  for (const { loanId, teamId, stored, counted } of drift)
    console.log(`  loan ${loanId} (team ${teamId}): stored ${counts(stored)}; its items count ${counts(counted)}`);
  console.log(fixed ? `Counted them again: ${drift.length} loan(s) fixed.` : 'Run it again with --fix to count them again.');
  return fixed ? 0 : 1;
}

/** seed-demo's flags: --loans N, --force, --json. */
function seedOptions(args: string[]): { loans: number; force: boolean; json: boolean } | { error: string } {
  const options = { loans: DEMO_LOANS_DEFAULT, force: false, json: false };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--force') options.force = true;
    else if (arg === '--json') options.json = true;
    else if (arg === '--loans' || arg?.startsWith('--loans=')) {
      const value = arg === '--loans' ? args[++i] : arg.slice('--loans='.length);
      if (!value || !/^\d+$/.test(value)) return { error: '--loans takes a whole number, e.g. --loans 10000' };
      options.loans = Number(value);
    } else return { error: `seed-demo does not know "${arg}"` };
  }
  return options;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exit(error instanceof ConfigError ? 78 : 1);
  },
);
