import { randomBytes, randomUUID } from 'node:crypto';
import { and, eq, inArray, like, notExists, sql } from 'drizzle-orm';
import { grantBroker } from '../accounts/accounts.queries';
import { createCredentialUser, type Auth } from '../auth/auth';
import { otpauthUri, storeVerifiedAuthenticator } from '../auth/authenticator-store';
import type { Db } from '../db/client';
import { checklistFor, DSCR_TEMPLATE } from '../../shared/domain/checklist-templates';
import { importActivity } from '../activity/activity-log';
import { itemRowsFrom } from '../checklist/new-loan-checklist';
import { refreshAllDocumentCounts } from '../checklist/document-counts';
import {
  checklistItem,
  comment,
  documentFile,
  documentVersion,
  loan,
  loanParticipant,
  loanReadCursor,
  notification,
  stageChange,
  team,
  teamMember,
  user,
} from '../db/schema';
import { enqueuePreviews } from '../documents/previews';
import { loanColumnsOf } from '../loans/loan-record';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { FileVault } from '../platform/files/file-vault';
import { enqueueObjectDeletion, objectKeysOfTeams } from '../platform/files/file-objects';
import { demoChecklist, type DemoChecklist } from './demo-checklist';
import { demoConversation, type DemoCommentRow } from './demo-conversation';
import { demoFileMaker } from './demo-documents';
import { demoNotices, demoNotificationRow, type DemoNotice } from './demo-notifications';
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
 * (demo-checklist.ts, demo-documents.ts). Every loan past its first step
 * has a discussion (demo-conversation.ts), and each demo person a read
 * cursor on their loans that leaves a few comments unread.
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
/** The discussions' own seed, for the same reason. */
const DEMO_CONVERSATION_SEED = 0xc0_33_e7;
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
  /** What the discussions hold: comments, and how many are internal to the team. */
  conversations: { comments: number; internal: number };
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
  const borrowerAccounts: (DemoAccount & { userId: string })[] = [];
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
  // Each loan's discussion, about the items of its checklist.
  const conversationRng = prng(DEMO_CONVERSATION_SEED);
  const conversations = book.map((file, i) => {
    const { template, plan } = checklists[i]!;
    const items = plan.items.map((row, index) => ({ id: row.id, key: row.key, borrowerVisible: template[index]!.borrowerVisible }));
    const conversation = demoConversation(conversationRng, file, items, {
      now,
      newId: randomUUID,
      people: { owner: owner as DemoPerson, assistant: assistant as DemoPerson, borrower: borrowerOf.get(i) ?? null },
    });
    file.activity.push(...conversation.activity);
    return conversation.comments;
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
    // The counters the pipeline and the board read, counted from those items as every writer counts them.
    await refreshAllDocumentCounts(tx, { teamId: created.id });
    const versionRows = checklists.flatMap(({ plan }, i) => plan.versions.map((version) => ({ ...version, loanId: loanIds[i]! })));
    for (const chunk of chunks(versionRows, 1000)) await tx.insert(documentVersion).values(chunk);
    for (const chunk of chunks(fileRows, 1000)) await tx.insert(documentFile).values(chunk);
    // The TIFF scans get their previews once a server runs the queue.
    await enqueuePreviews(tx, fileRows);
    // In time order, so each loan's activity is numbered as it happened, as it is in use.
    const timeline = book.flatMap((file, i) => file.activity.map((entry: DemoActivity) => ({ ...entry, loanId: loanIds[i]!, entry }))).sort(byTime);
    const numbers = await importActivity(
      tx,
      timeline.map(({ entry: _entry, ...row }) => row),
    );
    const numberOf = new Map(timeline.map(({ entry }, k) => [entry, numbers[k]!]));
    // Each comment keeps the numbers of the row that posted it, as postComment does; threads before their replies.
    const commentRows = conversations
      .flatMap((comments, i) => comments.map((row) => commentRow(row, loanIds[i]!, numberOf.get(row.posted)!)))
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
    await insertAsJson(tx, comment, commentRows);
    const commentsOf = new Map<string, CommentInsert[]>();
    for (const row of commentRows) commentsOf.set(row.loanId, [...(commentsOf.get(row.loanId) ?? []), row]);
    // Whom each comment told (an inbox row each), as posting it does: the cursors leave unread only comments that told their reader.
    const teamIds = new Set([owner.userId, assistant.userId]);
    const onLoan = new Set(participation.map((p) => `${loanIds[p.index]}:${p.who.userId}`));
    const notices = demoNotices(commentRows, (loanId, userId) => (teamIds.has(userId) ? 'team' : onLoan.has(`${loanId}:${userId}`) ? 'borrowers' : undefined));
    const cursors = readCursors(
      loanIds.map((loanId) => ({ loanId, comments: commentsOf.get(loanId) ?? [] })),
      { owner, assistant, borrowers: participation.map((p) => ({ userId: p.who.userId, index: p.index })) },
      new Set(notices.map((n) => `${n.userId}:${n.commentId}`)),
      now,
    );
    await insertAsJson(tx, loanReadCursor, cursors);
    await insertAsJson(tx, notification, inboxRows(notices, commentRows, cursors, { people: [owner, assistant, ...borrowerAccounts], book, loanIds, now }));
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
    conversations: {
      comments: conversations.reduce((n, comments) => n + comments.length, 0),
      internal: conversations.reduce((n, comments) => n + comments.filter((row) => row.visibility === 'internal').length, 0),
    },
    replaced: previous.length > 0,
    elapsedMs: Date.now() - started,
  };
}

const byTime = (a: { at: Date }, b: { at: Date }) => a.at.getTime() - b.at.getTime();

type CommentInsert = typeof comment.$inferInsert & { id: string; authorId: string; mentions: string[]; loanId: string; createdAt: Date; activitySeq: number };

function commentRow({ posted: _posted, ...row }: DemoCommentRow, loanId: string, numbers: { seq: number; sharedSeq: number | null }): CommentInsert {
  return { ...row, loanId, activitySeq: numbers.seq, sharedActivitySeq: numbers.sharedSeq };
}

/**
 * Where each demo person has read up to: the owner has a couple of unread
 * comments on every third loan, the assistant one on every fourth, the
 * others read to the end; a borrower has two unread on their first loan and
 * one on the next. Unread counts others' comments that are not deleted, by
 * the reader's sequence (decision 011), as the comments feature counts them;
 * only comments that told the reader (`told`: their threads, their mentions)
 * are left unread, fewer when the newest do not, so each unread comment is
 * also an unread row in their inbox (a co-borrower who is in no thread has
 * read to the end).
 */
function readCursors(
  loans: { loanId: string; comments: CommentInsert[] }[],
  people: { owner: { userId: string }; assistant: { userId: string }; borrowers: { userId: string; index: number }[] },
  told: ReadonlySet<string>,
  now: Date,
): (typeof loanReadCursor.$inferInsert)[] {
  // Up to `unread` of the newest comments by others are left unread, as long as each of them told the reader (an inbox row):
  // what the pipeline counts unread on the loan is then what the bell counts for it.
  const leaving = (comments: CommentInsert[], userId: string, audience: 'team' | 'borrowers', unread: number) => {
    const seen = comments.filter((row) => audience === 'team' || row.sharedActivitySeq != null);
    const cursorOf = (row: CommentInsert) => (audience === 'team' ? row.activitySeq : row.sharedActivitySeq!);
    const others = seen.filter((row) => row.authorId !== userId && !row.deletedAt);
    const newest = Math.max(0, ...seen.map(cursorOf));
    let left = 0;
    while (left < unread && left < others.length && told.has(`${userId}:${others[others.length - 1 - left]!.id}`)) left += 1;
    return left > 0 ? cursorOf(others[others.length - left]!) - 1 : newest;
  };
  const rows: (typeof loanReadCursor.$inferInsert)[] = [];
  loans.forEach(({ loanId, comments }, i) => {
    if (comments.length === 0) return;
    rows.push({ userId: people.owner.userId, loanId, cursor: leaving(comments, people.owner.userId, 'team', i % 3 === 1 ? 2 : 0), updatedAt: now });
    rows.push({ userId: people.assistant.userId, loanId, cursor: leaving(comments, people.assistant.userId, 'team', i % 4 === 2 ? 1 : 0), updatedAt: now });
  });
  const firsts = new Set<string>();
  people.borrowers.forEach(({ userId, index }) => {
    const { loanId, comments } = loans[index]!;
    if (comments.length === 0) return;
    const unread = firsts.has(userId) ? 1 : 2;
    firsts.add(userId);
    rows.push({ userId, loanId, cursor: leaving(comments, userId, 'borrowers', unread), updatedAt: now });
  });
  return rows;
}

/**
 * The inbox rows of the notices, one per person and comment, as posting the
 * comment wrote them: read (an hour after it was posted, or now if sooner)
 * when the person's read cursor has passed it or it was deleted since,
 * unread otherwise. In posting order, so their ids grow with time.
 */
function inboxRows(
  notices: DemoNotice[],
  comments: CommentInsert[],
  cursors: (typeof loanReadCursor.$inferInsert)[],
  { people, book, loanIds, now }: { people: { userId: string; name: string }[]; book: DemoLoan[]; loanIds: string[]; now: Date },
) {
  const byId = new Map(comments.map((row) => [row.id, row]));
  const nameOf = new Map(people.map((p) => [p.userId, p.name]));
  const streetOf = new Map(loanIds.map((id, i) => [id, book[i]!.input.propertyStreet]));
  const cursorOf = new Map(cursors.map((c) => [`${c.userId}:${c.loanId}`, c.cursor ?? 0]));
  const team = new Set(people.slice(0, 2).map((p) => p.userId));
  return notices.map((notice) => {
    const row = byId.get(notice.commentId)!;
    const seq = team.has(notice.userId) ? row.activitySeq : row.sharedActivitySeq!;
    const read = row.deletedAt != null || seq <= (cursorOf.get(`${notice.userId}:${row.loanId}`) ?? 0);
    const readAt = read ? new Date(Math.min(row.createdAt.getTime() + 3_600_000, now.getTime())) : null;
    return demoNotificationRow(notice, row, { authorName: nameOf.get(row.authorId) ?? 'Someone', street: streetOf.get(row.loanId) ?? '', readAt });
  });
}

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
    `Their discussions: ${result.conversations.comments.toLocaleString('en-US')} comments, ${result.conversations.internal.toLocaleString('en-US')} of them internal to the team; each person has a few unread.`,
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
