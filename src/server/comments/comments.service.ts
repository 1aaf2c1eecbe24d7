import { randomUUID } from 'node:crypto';
import type { LoanRole } from '../../shared/domain/access';
import { COMMENT_THREADS_PAGE_SIZE, type CommentVisibility } from '../../shared/domain/comments';
import { AppError, invalidField } from '../../shared/errors';
import type {
  CommentListView,
  CommentThreadView,
  CommentView,
  EditComment,
  MentionCandidatesView,
  PostCommentFields,
  ReadCursorView,
} from '../../shared/schemas/comments';
import { forgetCommentText, recordActivityOnLoans } from '../activity/activity-log';
import type { AppContext } from '../app-context';
import { refuseWhenThrottled, takeAttempt } from '../auth/throttle';
import type { Db } from '../db/client';
import type { CommentRow } from '../db/schema';
import { queueCommentNotifications } from '../notifications/comment-notifications';
import * as q from './comments.queries';
import type { CommentAudience, CommentSource } from './comments.queries';

type Deps = Pick<AppContext, 'db' | 'config'>;

/** Who is reading or writing: the signed-in person and their role on the loan (never none: the access layer let them in). */
export interface Commenter {
  userId: string;
  name: string;
  role: Exclude<LoanRole, { kind: 'none' }>;
}

export const audienceOf = (who: Commenter): CommentAudience => (who.role.kind === 'team' ? 'team' : 'borrowers');
const sideOf = (who: Commenter) => (who.role.kind === 'team' ? 'team' : 'borrower');
/** An owner of the loan's team may delete anyone's comment (a borrower's account number posted by mistake). */
const mayDelete = (who: Commenter, row: Pick<CommentRow, 'authorId'>) => row.authorId === who.userId || (who.role.kind === 'team' && who.role.role === 'owner');

function toView(source: CommentSource, who: Commenter, names: ReadonlyMap<string, string>): CommentView {
  const { row } = source;
  const audience = audienceOf(who);
  const deleted = row.deletedAt !== null;
  return {
    id: row.id,
    parentId: row.parentId,
    // A borrower never learns the id of an item they do not see (one made internal after the comment).
    itemId: audience === 'borrowers' && source.itemBorrowerVisible !== true ? null : row.itemId,
    visibility: row.visibility,
    author: row.authorId ? { id: row.authorId, name: source.authorName ?? '', side: source.authorSide === 'borrower' ? 'borrower' : 'team' } : null,
    body: deleted ? '' : row.body,
    mentions: deleted ? [] : row.mentions.filter((id) => names.has(id)).map((id) => ({ id, name: names.get(id)! })),
    createdAt: row.createdAt.toISOString(),
    editedAt: row.editedAt?.toISOString() ?? null,
    deletedAt: row.deletedAt?.toISOString() ?? null,
    cursor: source.cursor,
    canEdit: !deleted && row.authorId === who.userId,
    canDelete: !deleted && mayDelete(who, row),
  };
}

async function viewsOf(db: Db, sources: CommentSource[], who: Commenter): Promise<CommentView[]> {
  const names = await q.namesOf(db, [...new Set(sources.flatMap((source) => source.row.mentions))]);
  return sources.map((source) => toView(source, who, names));
}

async function viewOf(db: Db, loanId: string, who: Commenter, commentId: string): Promise<CommentView> {
  const source = await q.commentSource(db, loanId, audienceOf(who), commentId);
  if (!source) throw new Error(`Comment ${commentId} is not visible to its own writer`);
  const [view] = await viewsOf(db, [source], who);
  return view!;
}

/** The caller's cursor, the newest one of their sequence, and what is unread after theirs. */
async function cursorView(db: Db, loanId: string, who: Commenter): Promise<ReadCursorView> {
  const audience = audienceOf(who);
  // The newest position first: a comment that commits after it is then read as unread, never as seen.
  const latestCursor = await q.latestCursor(db, loanId, audience);
  const cursor = await q.readCursorOf(db, who.userId, loanId);
  return { cursor, latestCursor, unread: await q.unreadAfter(db, loanId, audience, who.userId, cursor) };
}

/**
 * A page of the loan's discussion as the caller may see it: threads (the
 * newest page first, each page oldest first) with all their replies; a
 * deleted thread whose replies are all gone too is left out.
 */
export async function listComments(db: Db, loanId: string, who: Commenter, query: { before?: number; itemId?: string }): Promise<CommentListView> {
  const audience = audienceOf(who);
  const position = await cursorView(db, loanId, who);
  const rows = await q.threadPage(db, loanId, audience, { ...query, limit: COMMENT_THREADS_PAGE_SIZE });
  const page = rows.slice(0, COMMENT_THREADS_PAGE_SIZE);
  const replies = await q.repliesOf(
    db,
    loanId,
    audience,
    page.map((source) => source.row.id),
  );
  const views = await viewsOf(db, [...page, ...replies], who);
  const byId = new Map(views.map((view) => [view.id, view]));
  const threads: CommentThreadView[] = page
    .map((source) => ({
      ...byId.get(source.row.id)!,
      replies: replies.filter((reply) => reply.row.parentId === source.row.id).map((reply) => byId.get(reply.row.id)!),
    }))
    .filter((thread) => thread.deletedAt === null || thread.replies.some((reply) => reply.deletedAt === null))
    .reverse();
  return {
    ...position,
    threads,
    nextBefore: rows.length > COMMENT_THREADS_PAGE_SIZE ? (page.at(-1)?.cursor ?? null) : null,
    itemCounts: await q.itemCounts(db, loanId, audience),
  };
}

/** Each person's comments per minute, across loans and app instances (the throttle's table). */
async function throttle(deps: Deps, who: Commenter) {
  const verdict = await takeAttempt(deps.db, [{ key: `comment:${who.userId}`, limits: { windowMs: 60_000, refuseAfter: deps.config.commentRateLimit } }]);
  refuseWhenThrottled(verdict, 'comments');
}

/** Refuses (400, naming the entry) a mention of anyone who is not on the loan or may not see a comment of this visibility. */
async function checkMentions(db: Db, loanId: string, visibility: CommentVisibility, mentions: string[]): Promise<string[]> {
  const distinct = [...new Set(mentions)];
  if (distinct.length === 0) return [];
  const allowed = new Set((await q.loanPeople(db, loanId, visibility)).map((person) => person.id));
  const refused = mentions.findIndex((id) => !allowed.has(id));
  if (refused >= 0) {
    throw invalidField(
      `mentions.${refused}`,
      visibility === 'internal' ? 'You can only mention team members in an internal comment' : 'You can only mention people on this loan',
    );
  }
  return distinct;
}

/** What the thread a new comment goes into says: its visibility and item (a reply's come from its thread). */
async function placeOf(db: Db, loanId: string, who: Commenter, input: PostCommentFields) {
  const audience = audienceOf(who);
  if (input.parentId) {
    const parent = await q.findComment(db, input.parentId);
    // A thread of another loan, or an internal one asked for by a borrower, is no thread at all to them.
    if (!parent || parent.loanId !== loanId || (audience === 'borrowers' && parent.visibility !== 'shared')) {
      throw invalidField('parentId', 'There is no such comment on this loan');
    }
    if (parent.parentId !== null) throw invalidField('parentId', 'Reply to the first comment of the thread');
    if (parent.deletedAt !== null) throw invalidField('parentId', 'This comment was deleted');
    if (input.visibility && input.visibility !== parent.visibility) throw invalidField('visibility', 'A reply has its thread’s visibility');
    if (input.itemId !== undefined && input.itemId !== parent.itemId) throw invalidField('itemId', 'A reply is about its thread’s item');
    return { parentId: parent.id, visibility: parent.visibility, itemId: parent.itemId };
  }
  const visibility = input.visibility ?? 'shared';
  if (audience === 'borrowers' && visibility !== 'shared') throw invalidField('visibility', 'Your comments are shared with everyone on the loan');
  let itemId: string | null = null;
  if (input.itemId) {
    const item = await q.itemOfLoan(db, loanId, input.itemId);
    if (!item || (audience === 'borrowers' && !item.borrowerVisible)) throw invalidField('itemId', 'There is no such checklist item on this loan');
    // Its label and id would reach the borrowers with the comment.
    if (visibility === 'shared' && !item.borrowerVisible) throw invalidField('itemId', 'An internal item can only have internal comments');
    itemId = input.itemId;
  }
  return { parentId: null, visibility, itemId };
}

/**
 * Posts a comment: one transaction with its `comment.posted` activity row
 * (the comment keeps that row's `seq` and, when shared, `shared_seq`).
 */
export async function postComment(deps: Deps, who: Commenter, loanId: string, input: PostCommentFields): Promise<CommentView> {
  const place = await placeOf(deps.db, loanId, who, input);
  const mentions = await checkMentions(deps.db, loanId, place.visibility, input.mentions);
  await throttle(deps, who);
  const id = randomUUID();
  await deps.db.transaction(async (tx) => {
    const [taken] = await recordActivityOnLoans(tx, [
      {
        loanId,
        actorId: who.userId,
        kind: 'comment.posted',
        visibility: place.visibility,
        data: { commentId: id, parentId: place.parentId, itemId: place.itemId, byName: who.name, side: sideOf(who), mentions },
      },
    ]);
    if (!taken) throw new AppError('not_found', 'This loan does not exist');
    await q.insertComment(tx, {
      id,
      loanId,
      authorId: who.userId,
      body: input.body,
      mentions,
      ...place,
      activitySeq: taken.seq,
      sharedActivitySeq: taken.sharedSeq,
    });
    // The thread's people and the mentioned hear of it with the comment, never before it exists.
    await queueCommentNotifications(tx, id);
  });
  return viewOf(deps.db, loanId, who, id);
}

/** The comment, locked, when it is this reader's to see on this loan (the access layer checked; it may have gone since). */
async function mustLock(db: Db, loanId: string, who: Commenter, commentId: string): Promise<CommentRow> {
  const row = await q.lockComment(db, commentId);
  if (!row || row.loanId !== loanId || (audienceOf(who) === 'borrowers' && row.visibility !== 'shared')) {
    throw new AppError('not_found', 'This comment does not exist');
  }
  return row;
}

/** The author edits their comment: `edited_at` set, the earlier text kept in the `comment.edited` activity row. */
export async function editComment(deps: Deps, who: Commenter, loanId: string, commentId: string, input: EditComment): Promise<CommentView> {
  const body = input.body;
  await throttle(deps, who);
  await deps.db.transaction(async (tx) => {
    const row = await mustLock(tx, loanId, who, commentId);
    if (row.authorId !== who.userId) throw new AppError('forbidden', 'Only its author can edit a comment');
    if (row.deletedAt !== null) throw new AppError('conflict', 'This comment was deleted');
    const mentions = input.mentions === undefined ? row.mentions : await checkMentions(tx, loanId, row.visibility, input.mentions);
    if (body === row.body && sameIds(mentions, row.mentions)) return;
    const [edited] = await recordActivityOnLoans(tx, [
      {
        loanId,
        actorId: who.userId,
        kind: 'comment.edited',
        visibility: row.visibility,
        data: { commentId, byName: who.name, previousBody: row.body, previousMentions: row.mentions },
      },
    ]);
    await q.updateComment(tx, commentId, { body, mentions, editedAt: new Date() });
    // Only the people the edit newly mentions hear of it.
    await queueCommentNotifications(tx, commentId, { edit: { mentionedBefore: row.mentions, seq: edited!.seq, sharedSeq: edited!.sharedSeq } });
  });
  return viewOf(deps.db, loanId, who, commentId);
}

const sameIds = (a: string[], b: string[]) => a.length === b.length && a.every((id, i) => id === b[i]);

/**
 * Deletes a comment (its author, or an owner of the loan's team): its text
 * and mentions emptied, `deleted_at` set, its replies kept. The text is not
 * kept anywhere: a deletion is how a mistake (an account number) goes away.
 * Its edits' earlier texts go in the same transaction.
 */
export async function deleteComment(deps: Deps, who: Commenter, loanId: string, commentId: string): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const row = await mustLock(tx, loanId, who, commentId);
    if (!mayDelete(who, row)) throw new AppError('forbidden', 'Only its author can delete a comment');
    if (row.deletedAt !== null) return;
    await recordActivityOnLoans(tx, [
      {
        loanId,
        actorId: who.userId,
        kind: 'comment.deleted',
        visibility: row.visibility,
        data: { commentId, byName: who.name, authorId: row.authorId },
      },
    ]);
    await q.updateComment(tx, commentId, { body: '', mentions: [], deletedAt: new Date() });
    // Nor its earlier texts: the team's history of its edits keeps that they happened, not what it said.
    await forgetCommentText(tx, loanId, commentId);
  });
}

/** Who the caller may @mention in a comment of this visibility (borrowers: shared only). */
export async function mentionCandidates(db: Db, loanId: string, who: Commenter, visibility: CommentVisibility): Promise<MentionCandidatesView> {
  if (audienceOf(who) === 'borrowers' && visibility !== 'shared') throw invalidField('visibility', 'Your comments are shared with everyone on the loan');
  return { people: await q.loanPeople(db, loanId, visibility) };
}

export const readCursor = (db: Db, loanId: string, who: Commenter) => cursorView(db, loanId, who);

/** Moves the caller's read cursor forward (never back, never past the newest position of their sequence). */
export async function markRead(db: Db, loanId: string, who: Commenter, cursor: number): Promise<ReadCursorView> {
  const latest = await q.latestCursor(db, loanId, audienceOf(who));
  await q.advanceReadCursor(db, who.userId, loanId, Math.min(cursor, latest));
  return cursorView(db, loanId, who);
}
