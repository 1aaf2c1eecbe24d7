import { z } from 'zod';
import { COMMENT_MAX_LENGTH, COMMENT_MAX_MENTIONS, COMMENT_VISIBILITIES, type CommentVisibility } from '../domain/comments';
import { LoanId } from './loan-id';
import { text } from './text';

const Uuid = (what: string) => z.uuid({ error: `Not a ${what} id` }).transform((id) => id.toLowerCase());

export const CommentIdParamsSchema = z.object({ loanId: LoanId, commentId: Uuid('comment') });

/** Plain text, trimmed; the web shows it as text (links made clickable), never as HTML. */
const Body = text('Comment')
  .trim()
  .min(1, { error: 'Write something first' })
  .max(COMMENT_MAX_LENGTH, { error: `A comment must be at most ${COMMENT_MAX_LENGTH} characters` });

const Visibility = z.enum(COMMENT_VISIBILITIES, { error: 'visibility must be shared or internal' });

/** The ids of the people a comment @mentions; each must be on the loan and able to see the comment. */
const Mentions = z
  .array(text('Mention').min(1, { error: 'Not a person' }).max(64, { error: 'Not a person' }), { error: 'mentions must list the ids of people' })
  .max(COMMENT_MAX_MENTIONS, { error: `A comment may mention at most ${COMMENT_MAX_MENTIONS} people` });

/**
 * A new comment: a thread of its own, or a reply (`parentId`: a thread's
 * first comment), which takes its thread's visibility and item. A new thread
 * is shared unless it says internal (the team only).
 */
export const PostCommentSchema = z.strictObject({
  body: Body,
  visibility: Visibility.optional(),
  itemId: Uuid('checklist item').nullable().optional(),
  parentId: Uuid('comment').nullable().optional(),
  mentions: Mentions.default([]),
});
export type PostComment = z.input<typeof PostCommentSchema>;
export type PostCommentFields = z.output<typeof PostCommentSchema>;

/** An edit by the author: the new text, and the mentions it makes (left out: the ones it made). */
export const EditCommentSchema = z.strictObject({ body: Body, mentions: Mentions.optional() });
export type EditComment = z.input<typeof EditCommentSchema>;

export const ListCommentsQuerySchema = z.strictObject({
  /** Threads started before this cursor (the `nextBefore` of the page read). */
  before: z.coerce.number({ error: 'before must be a comment cursor' }).int().min(1).max(2_147_483_647).optional(),
  /** Only the threads on this checklist item. */
  itemId: Uuid('checklist item').optional(),
});

export const MentionCandidatesQuerySchema = z.strictObject({ visibility: Visibility.default('shared') });

/** Moves the caller's read cursor to here (never back). */
export const ReadCursorSchema = z.strictObject({
  cursor: z.number({ error: 'cursor must be a whole number' }).int({ error: 'cursor must be a whole number' }).min(0).max(2_147_483_647),
});

/** Who wrote a comment: a name, and whether they speak for the team or as a borrower. */
export interface CommentAuthor {
  id: string;
  name: string;
  side: 'team' | 'borrower';
}

/** One comment as its reader may see it. A deleted one keeps its place, with no text and no mentions. */
export interface CommentView {
  id: string;
  parentId: string | null;
  /** The checklist item it is about (null when none, or when the item is not one the reader sees). */
  itemId: string | null;
  visibility: CommentVisibility;
  /** Null when the author's account is gone. */
  author: CommentAuthor | null;
  body: string;
  mentions: { id: string; name: string }[];
  createdAt: string;
  editedAt: string | null;
  deletedAt: string | null;
  /** Its place in the reader's sequence of the loan's activity: compared with the read cursor. */
  cursor: number;
  /** The reader wrote it and may edit it. */
  canEdit: boolean;
  /** The reader may delete it (its author, or an owner of the loan's team). */
  canDelete: boolean;
}

export interface CommentThreadView extends CommentView {
  replies: CommentView[];
}

export interface UnreadComments {
  /** Comments by others after the reader's cursor (deleted ones not counted). */
  count: number;
  /** The first of them, in the order of the discussion; null when none. */
  firstUnreadId: string | null;
}

/** The reader's place in a loan's discussion. */
export interface ReadCursorView {
  /** How far they have read, in their sequence of the loan's activity. */
  cursor: number;
  /** The newest position of that sequence when this was read: what to send back once it was all on screen. */
  latestCursor: number;
  unread: UnreadComments;
}

export interface CommentListView extends ReadCursorView {
  /** The threads of this page, oldest first (the newest thread last, beside the composer). */
  threads: CommentThreadView[];
  /** Pass as `before` for the older threads; null when this page reaches the first. */
  nextBefore: number | null;
  /** Comments per checklist item the reader sees (deleted ones not counted). */
  itemCounts: Record<string, number>;
}

export interface MentionCandidate {
  id: string;
  name: string;
  side: 'team' | 'borrower';
}

export interface MentionCandidatesView {
  people: MentionCandidate[];
}
