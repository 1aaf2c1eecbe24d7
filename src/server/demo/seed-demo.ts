import { randomBytes, randomUUID } from 'node:crypto';
import { and, eq, inArray, like, notExists, sql } from 'drizzle-orm';
import { grantBroker } from '../accounts/accounts.queries';
import { createCredentialUser, type Auth } from '../auth/auth';
import { otpauthUri, storeVerifiedAuthenticator } from '../auth/authenticator-store';
import type { Db } from '../db/client';
import { checklistFor, DSCR_TEMPLATE } from '../../shared/domain/checklist-templates';
import { importActivity } from '../activity/activity-log';
import { itemRowsFrom } from '../checklist/new-loan-checklist';
import { checklistItem, documentFile, documentVersion, loan, loanParticipant, stageChange, team, teamMember, user } from '../db/schema';
import { enqueuePreviews } from '../documents/previews';
import { loanColumnsOf } from '../loans/loan-record';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { FileVault } from '../platform/files/file-vault';
import { enqueueObjectDeletion, objectKeysOfTeams } from '../platform/files/file-objects';
import { demoChecklist, type DemoChecklist } from './demo-checklist';
import { demoFileMaker } from './demo-documents';
import { demoLoan, prng, type DemoActivity, type DemoLoan, type DemoPerson } from './demo-loans';

/**
 * `npm run cli -- seed-demo`: a demo team with its people and a book of
 * made-up DSCR loans, written straight into the database in one transaction
 * (multi-row inserts, so 10,000 loans take seconds), each loan valid per the
 * shared schema and its history and activity consistent with its stage.
 *
 * Every loan has its checklist from the built-in template, its items in the
 * states its stage implies, and (for the first DEMO_DOCUMENT_LOANS loans)
 * the versions behind them with real small files stored through the vault
 * (demo-checklist.ts, demo-documents.ts).
 *
 * What is demo: every person it makes has an address at DEMO_EMAIL_DOMAIN, and
 * the demo team is the team owned by one of them. Running it again resets the
 * demo: the old demo team (with its loans) and the demo people are deleted and
 * made anew, with new passwords and authenticator keys. A database with any
 * other team is refused unless `force` (the demo is added next to them).
 */

export const DEMO_EMAIL_DOMAIN = 'demo.coverly.test';
export const DEMO_TEAM_NAME = 'Harbor Lending';
export const DEMO_LOANS_DEFAULT = 40;
export const DEMO_LOANS_MAX = 100_000;
/** The PRNG seed of the book: the same loans on every run. */
export const DEMO_SEED = 0xc0_4e_21;
/** The checklists' own seed, so the book of loans stays what it was without them. */
const DEMO_CHECKLIST_SEED = 0xd0_c5_16;
/**
 * Loans past this many (a large book for benchmarks) get their checklists
 * without files: their items are requested, waived or not applicable, so a
 * 10,000-loan book does not write hundreds of thousands of files.
 */
export const DEMO_DOCUMENT_LOANS = 100;
/** How many files are stored at once. */
const STORE_CONCURRENCY = 32;

export class DemoSeedRefused extends Error {}

export interface DemoAccount {
  name: string;
  email: string;
  password: string;
}

export interface DemoTeamMember extends DemoAccount {
  role: 'owner' | 'assistant';
  /** Base32 authenticator key (type it into an authenticator app), and the same as an otpauth:// URI. */
  totpSecret: string;
  otpauthUri: string;
  backupCodes: string[];
}

export interface DemoBorrower extends DemoAccount {
  loans: { loanId: string; role: 'borrower' | 'co_borrower'; property: string }[];
}

export interface DemoSeedResult {
  teamId: string;
  teamName: string;
  owner: DemoTeamMember;
  assistant: DemoTeamMember;
  borrowers: DemoBorrower[];
  loans: number;
  /** What the checklists hold: items, versions and their stored files. */
  documents: { items: number; versions: number; files: number };
  /** An earlier demo team was deleted first. */
  replaced: boolean;
  elapsedMs: number;
}

export interface SeedDemoDeps {
  db: Db;
  auth: Auth;
  /** The authenticator apps' issuer label. */
  brandName: string;
  /** Where the documents' files are stored (encrypted). */
  files: FileVault;
}

export interface SeedDemoOptions {
  loans?: number;
  force?: boolean;
  now?: Date;
}

const demoEmail = (local: string) => `${local}@${DEMO_EMAIL_DOMAIN}`;
const isDemoUser = like(user.email, `%@${DEMO_EMAIL_DOMAIN}`);
/** 16 random characters: shown once by the seed, never stored but hashed. */
const newPassword = () => randomBytes(12).toString('base64url');

/** Teams owned by a demo person: the demo team (one, unless someone made more by hand). */
async function demoTeamIds(db: Db): Promise<string[]> {
  const rows = await db
    .selectDistinct({ id: teamMember.teamId })
    .from(teamMember)
    .innerJoin(user, eq(user.id, teamMember.userId))
    .where(and(eq(teamMember.role, 'owner'), isDemoUser));
  return rows.map((row) => row.id);
}

/** How many teams have no demo owner: real teams, which the seed will not mix demo data into unasked. */
export async function countNonDemoTeams(db: Db): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(team)
    .where(
      notExists(
        db
          .select({ one: sql`1` })
          .from(teamMember)
          .innerJoin(user, eq(user.id, teamMember.userId))
          .where(and(eq(teamMember.teamId, team.id), eq(teamMember.role, 'owner'), isDemoUser)),
      ),
    );
  return row?.n ?? 0;
}

const BORROWERS = [
  { local: 'marcus.reed', name: 'Marcus Reed' },
  { local: 'elena.reed', name: 'Elena Reed' },
  { local: 'priya.shah', name: 'Priya Shah' },
] as const;

export async function seedDemo(deps: SeedDemoDeps, options: SeedDemoOptions = {}): Promise<DemoSeedResult> {
  const started = Date.now();
  const count = options.loans ?? DEMO_LOANS_DEFAULT;
  if (!Number.isInteger(count) || count < 0 || count > DEMO_LOANS_MAX) throw new DemoSeedRefused(`--loans takes a whole number from 0 to ${DEMO_LOANS_MAX}`);
  const now = options.now ?? new Date();
  const { db, auth } = deps;

  const others = await countNonDemoTeams(db);
  if (others > 0 && !options.force) {
    throw new DemoSeedRefused(
      `This database has ${others} team${others === 1 ? '' : 's'} that ${others === 1 ? 'is' : 'are'} not the demo's: seed-demo makes up people and loans, so it refuses to add them here.\nRun it on an empty database, or add --force to put the demo team next to the others.`,
    );
  }

  // Reset: the earlier demo team (its loans go with it) and every demo person.
  const previous = await demoTeamIds(db);
  await db.transaction(async (tx) => {
    await enqueueObjectDeletion(tx, await objectKeysOfTeams(tx, previous));
    if (previous.length) await tx.delete(team).where(inArray(team.id, previous));
    await tx.delete(user).where(isDemoUser);
  });

  const account = async (local: string, name: string): Promise<DemoAccount & { userId: string }> => {
    const password = newPassword();
    const created = await createCredentialUser(auth, { email: demoEmail(local), name, password });
    return { userId: created.id, name, email: created.email, password };
  };
  const enrolled = async (person: DemoAccount & { userId: string }, role: 'owner' | 'assistant'): Promise<DemoTeamMember & { userId: string }> => {
    const { secret, backupCodes } = await storeVerifiedAuthenticator(auth, person.userId);
    return { ...person, role, totpSecret: secret, otpauthUri: otpauthUri({ issuer: deps.brandName, account: person.email, secret }), backupCodes };
  };

  const owner = await enrolled(await account('jordan.hayes', 'Jordan Hayes'), 'owner');
  const assistant = await enrolled(await account('sam.ortiz', 'Sam Ortiz'), 'assistant');
  const borrowerAccounts = [];
  for (const b of BORROWERS) borrowerAccounts.push(await account(b.local, b.name));

  const rng = prng(DEMO_SEED);
  const people = { now, owner: owner as DemoPerson, assistant: assistant as DemoPerson };
  const book: DemoLoan[] = Array.from({ length: count }, (_, i) => demoLoan(rng, i, people));
  const loanIds = book.map(() => randomUUID());

  // Borrowers on their loans: Marcus and Elena on a file collecting documents, Marcus on a funded one too, Priya in underwriting.
  const firstAt = (stage: DemoLoan['stage'], skip = 0) => book.findIndex((l, i) => l.stage === stage && !l.archived && i >= skip);
  const [marcus, elena, priya] = borrowerAccounts as [(typeof borrowerAccounts)[number], (typeof borrowerAccounts)[number], (typeof borrowerAccounts)[number]];
  const participation: { index: number; who: typeof marcus; role: 'borrower' | 'co_borrower' }[] = [
    { index: firstAt('documents_collecting'), who: marcus, role: 'borrower' as const },
    { index: firstAt('documents_collecting'), who: elena, role: 'co_borrower' as const },
    { index: firstAt('funded'), who: marcus, role: 'borrower' as const },
    { index: firstAt('underwriting'), who: priya, role: 'borrower' as const },
  ].filter((p) => p.index >= 0);
  for (const { index, who, role } of participation) {
    const file = book[index]!;
    if (role === 'borrower') {
      file.input.borrowerName = who.name;
      file.input.borrowerEmail = who.email;
    }
    // They joined the day after the loan reached Borrower invited.
    const invited = file.stageChanges.find((c) => c.toStage === 'borrower_invited')?.at ?? file.createdAt;
    const joinedAt = new Date(Math.min(invited.getTime() + 20 * 3_600_000, now.getTime() - 60_000));
    file.activity.push({ actorId: who.userId, kind: 'participant.joined', visibility: 'shared', data: { name: who.name, role }, at: joinedAt });
  }

  // Each loan's checklist, its versions and their activity, decided before anything is written.
  const checklistRng = prng(DEMO_CHECKLIST_SEED);
  const borrowerOf = new Map(participation.filter((p) => p.role === 'borrower').map((p) => [p.index, p.who as DemoPerson]));
  const checklists = book.map((file, i) => {
    const template = checklistFor(DSCR_TEMPLATE, file.input.purpose, file.input.propertyType);
    const ids = template.map(() => randomUUID());
    const plan = demoChecklist(checklistRng, file, template, ids, {
      now,
      people: { owner: owner as DemoPerson, assistant: assistant as DemoPerson, borrower: borrowerOf.get(i) ?? null },
      newId: randomUUID,
      withDocuments: i < DEMO_DOCUMENT_LOANS,
    });
    file.activity.push(...plan.activity);
    return { template, plan };
  });
  // The files first, the rows that point at them last (in the transaction below).
  const fileRows = await storeDemoFiles(deps.files, checklists, loanIds);

  const teamId = await db.transaction(async (tx) => {
    const [created] = await tx.insert(team).values({ name: DEMO_TEAM_NAME, accentColor: '#0f766e', createdBy: owner.userId }).returning({ id: team.id });
    if (!created) throw new Error('seed-demo: the team was not created');
    await grantBroker(tx, owner.userId);
    await tx.insert(teamMember).values([
      { teamId: created.id, userId: owner.userId, role: 'owner', phone: '(512) 555-0142' },
      { teamId: created.id, userId: assistant.userId, role: 'assistant', phone: '(512) 555-0178' },
    ]);

    const lastOf = (items: { at: Date }[]) => new Date(Math.max(...items.map((item) => item.at.getTime())));
    const loanRows = book.map((file, i) => {
      const lastActivityAt = lastOf(file.activity);
      const archivedAt = file.archived ? (file.activity.find((a) => a.kind === 'loan.archived')?.at ?? lastActivityAt) : null;
      return {
        ...loanColumnsOf(file.input),
        id: loanIds[i]!,
        teamId: created.id,
        version: 1 + file.edits,
        stage: file.stage,
        leftFromStage: file.leftFromStage,
        stageEnteredAt: lastOf(file.stageChanges),
        archivedAt,
        createdBy: file.createdBy,
        createdAt: file.createdAt,
        updatedAt: lastActivityAt,
        lastActivityAt,
      } as typeof loan.$inferInsert;
    });
    for (const chunk of chunks(loanRows, 500)) await tx.insert(loan).values(chunk);
    const changes = book.flatMap((file, i) => file.stageChanges.map((c) => ({ ...c, loanId: loanIds[i]! }))).sort(byTime);
    for (const chunk of chunks(changes, 2000)) await tx.insert(stageChange).values(chunk);
    const itemRows = checklists.flatMap(({ template, plan }, i) => {
      const file = book[i]!;
      const fromTemplate = itemRowsFrom(loanIds[i]!, template, 0, file.createdAt.toISOString().slice(0, 10), file.createdBy);
      return plan.items.map(({ key: _key, ...state }, index) => ({ ...fromTemplate[index]!, ...state, requestedAt: file.createdAt }));
    });
    await insertAsJson(tx, checklistItem, itemRows);
    const versionRows = checklists.flatMap(({ plan }, i) => plan.versions.map((version) => ({ ...version, loanId: loanIds[i]! })));
    for (const chunk of chunks(versionRows, 1000)) await tx.insert(documentVersion).values(chunk);
    for (const chunk of chunks(fileRows, 1000)) await tx.insert(documentFile).values(chunk);
    // The TIFF scans get their previews once a server runs the queue.
    await enqueuePreviews(tx, fileRows);
    // In time order, so each loan's activity is numbered as it happened, as it is in use.
    await importActivity(tx, book.flatMap((file, i) => file.activity.map((a: DemoActivity) => ({ ...a, loanId: loanIds[i]! }))).sort(byTime));
    if (participation.length)
      await tx
        .insert(loanParticipant)
        .values(participation.map((p) => ({ loanId: loanIds[p.index]!, userId: p.who.userId, role: p.role, invitedBy: owner.userId })));
    return created.id;
  });

  const strip = <T extends { userId: string }>({ userId: _userId, ...rest }: T) => rest;
  return {
    teamId,
    teamName: DEMO_TEAM_NAME,
    owner: strip(owner),
    assistant: strip(assistant),
    borrowers: borrowerAccounts.map((b) => ({
      ...strip(b),
      loans: participation
        .filter((p) => p.who === b)
        .map((p) => {
          const input = book[p.index]!.input;
          return { loanId: loanIds[p.index]!, role: p.role, property: `${input.propertyStreet}, ${input.propertyCity}, ${input.propertyState}` };
        }),
    })),
    loans: count,
    documents: {
      items: checklists.reduce((n, { plan }) => n + plan.items.length, 0),
      versions: checklists.reduce((n, { plan }) => n + plan.versions.length, 0),
      files: fileRows.length,
    },
    replaced: previous.length > 0,
    elapsedMs: Date.now() - started,
  };
}

const byTime = (a: { at: Date }, b: { at: Date }) => a.at.getTime() - b.at.getTime();

/**
 * Inserts many rows at a few statements: each chunk travels as one JSON
 * parameter that PostgreSQL unpacks (json_populate_recordset) instead of a
 * bind parameter per value, which for the ~190,000 checklist items of a
 * 10,000-loan book is many times faster to build, send and parse. Every row
 * has the first row's keys (camelCase, as snake_case columns); no bytea.
 */
async function insertAsJson(tx: Db, table: PgTable, rows: Record<string, unknown>[], chunkSize = 20_000) {
  if (rows.length === 0) return;
  const keys = Object.keys(rows[0]!);
  const names = keys.map((key) => key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`));
  const columns = sql.join(
    names.map((name) => sql.identifier(name)),
    sql`, `,
  );
  for (const chunk of chunks(rows, chunkSize)) {
    const json = JSON.stringify(chunk.map((row) => Object.fromEntries(keys.map((key, i) => [names[i], row[key] ?? null]))));
    await tx.execute(sql`insert into ${table} (${columns}) select ${columns} from json_populate_recordset(null::${table}, ${json}::json)`);
  }
}

/**
 * Stores the files of every version the checklists hold, a few at a time,
 * each encrypted under its own key; returns their document_file rows.
 */
async function storeDemoFiles(vault: FileVault, checklists: { template: readonly { key: string; label: string }[]; plan: DemoChecklist }[], loanIds: string[]) {
  const files = demoFileMaker();
  const work = checklists.flatMap(({ template, plan }, i) =>
    plan.versions.map((version) => {
      const item = template[plan.items.findIndex((row) => row.id === version.itemId)]!;
      return { loanId: loanIds[i]!, version, item };
    }),
  );
  const rows: (typeof documentFile.$inferInsert & { id: string })[] = [];
  const next = async () => {
    for (let task = work.shift(); task; task = work.shift()) {
      const { loanId, version, item } = task;
      for (const [index, file] of (await files(item.key, item.label)).entries()) {
        const stored = await vault.storeBuffer(file.bytes, `files/${loanId}`);
        rows.push({
          id: randomUUID(),
          loanId,
          itemId: version.itemId,
          versionId: version.id,
          position: index + 1,
          name: file.name,
          size: stored.size,
          contentType: file.type,
          sha256: stored.sha256,
          objectKey: stored.objectKey,
          wrappedKey: stored.wrappedKey,
          createdAt: version.createdAt,
        });
      }
    }
  };
  await Promise.all(Array.from({ length: STORE_CONCURRENCY }, next));
  return rows;
}

function* chunks<T>(items: T[], size: number): Generator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}

/** What the CLI prints: how to sign in as each demo person. */
export function describeDemo(result: DemoSeedResult, signInUrl: string): string {
  const member = (m: DemoTeamMember) =>
    [
      `  ${m.role === 'owner' ? 'Owner    ' : 'Assistant'}  ${m.name}`,
      `    e-mail             ${m.email}`,
      `    password           ${m.password}`,
      `    authenticator key  ${m.totpSecret}`,
      `    otpauth URI        ${m.otpauthUri}`,
      `    backup codes       ${m.backupCodes.join('  ')}`,
    ].join('\n');
  return [
    `${result.replaced ? 'Reset the demo team' : 'Made the demo team'} "${result.teamName}" with ${result.loans.toLocaleString('en-US')} loans in ${(result.elapsedMs / 1000).toFixed(1)} s.`,
    `Their checklists: ${result.documents.items.toLocaleString('en-US')} items, ${result.documents.versions.toLocaleString('en-US')} versions of documents, ${result.documents.files.toLocaleString('en-US')} files (made up, stored encrypted).`,
    ``,
    `Sign in at ${signInUrl} (the authenticator key goes into any authenticator app: add a key by hand, time-based).`,
    ``,
    member(result.owner),
    ``,
    member(result.assistant),
    ``,
    `  Borrowers (no authenticator; they see only their own loans)`,
    ...result.borrowers.flatMap((b) => [
      `    ${b.name}  ${b.email}  password ${b.password}`,
      ...b.loans.map((l) => `      ${l.role === 'borrower' ? 'borrower' : 'co-borrower'} on ${l.property}`),
    ]),
    ``,
    `Passwords and keys are new at every run; running seed-demo again resets the demo team and its people.`,
  ].join('\n');
}
