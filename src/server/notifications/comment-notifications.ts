import { and, asc, eq, inArray, isNull, or } from 'drizzle-orm';
import { z } from 'zod';
import { noticePaths, type NotificationKind } from '../../shared/domain/notifications';
import { findTeam } from '../accounts/accounts.queries';
import type { JobContext } from '../app-context';
import type { Db } from '../db/client';
import { checklistItem, comment, loan, loanParticipant, loanReadCursor, teamMember, user, type CommentRow } from '../db/schema';
import { enqueueJob } from '../platform/jobs/outbox';
import type { JobHandler } from '../platform/jobs/worker';
import { teamMailBrand } from '../teams/team-brand';
import { commentDigestMail, type DigestComment } from './notifications.mail';
import { emailsKind, insertNotification } from './notifications.queries';
import { noticeMessage } from './notify';
import { signalInbox } from '../platform/realtime/signals';

/*
 * Comments tell the people in their thread and the people they mention
 * (decision 021): an inbox row at once, and one debounced digest per person
 * and loan that mails, when it runs, only the comments their read cursor has
 * not passed — none when they saw them all on the loan page.
 */
export const COMMENT_DIGEST_QUEUE = 'notifications.comment-digest';
export const COMMENT_DIGEST_DELAY_MS = 3 * 60_000;

const DigestPayloadSchema = z.object({
  userId: z.string().min(1),
  loanId: z.uuid(),
  commentIds: z.array(z.uuid()),
  /** Comments an edit newly mentioned the person in, with the edit's place in their activity sequence: news until their cursor passes it. */
  mentionedByEdit: z.array(z.object({ commentId: z.uuid(), seq: z.number().int() })).default([]),
});

/** How someone stands on a loan now: its team (every activity row, by `seq`), a borrower (shared rows, by `shared_seq`), or nobody. */
type Audience = 'team' | 'borrowers';

async function audiencesOn(db: Db, loanId: string, teamId: string, userIds: string[]): Promise<Map<string, Audience>> {
  const found = new Map<string, Audience>();
  if (userIds.length === 0) return found;
  const participants = await db
    .select({ userId: loanParticipant.userId })
    .from(loanParticipant)
    .where(and(eq(loanParticipant.loanId, loanId), inArray(loanParticipant.userId, userIds)));
  for (const { userId } of participants) found.set(userId, 'borrowers');
  // A member of the loan's team reads it as the team, even if they also borrow on it.
  const members = await db
    .select({ userId: teamMember.userId })
    .from(teamMember)
    .where(and(eq(teamMember.teamId, teamId), inArray(teamMember.userId, userIds)));
  for (const { userId } of members) found.set(userId, 'team');
  return found;
}

/** Whether someone of `audience` may read the comment: an internal one is the team's only. */
const mayRead = (audience: Audience | undefined, visibility: CommentRow['visibility']) =>
  audience === 'team' || (audience === 'borrowers' && visibility === 'shared');

/**
 * Call in the transaction that posts the comment `commentId`. Tells the people
 * of its thread (whoever started it or replied in it) and the people it
 * mentions, except its author and anyone who may not read it now (an internal
 * comment reaches the loan's team only; someone who left the loan gets
 * nothing): an inbox row each (`mention` or `comment`), and their digest job
 * for the loan, due three minutes later — a later comment joins it.
 *
 * After an edit, pass the mentions the comment had before and the edit's
 * activity row as `edit`: only the people the edit newly mentions hear of it
 * (the thread heard when it was posted, and a fixed typo is no news), and
 * their digest mails it unless their read cursor passed the edit — having
 * read the comment before it named them is not having seen the mention. A
 * deleted comment tells nobody.
 */
export async function queueCommentNotifications(
  tx: Db,
  commentId: string,
  { edit, now = Date.now() }: { edit?: { mentionedBefore: readonly string[]; seq: number; sharedSeq: number | null }; now?: number } = {},
): Promise<void> {
  const [posted] = await tx
    .select({ comment, authorName: user.name, teamId: loan.teamId, street: loan.propertyStreet })
    .from(comment)
    .innerJoin(loan, eq(loan.id, comment.loanId))
    .leftJoin(user, eq(user.id, comment.authorId))
    .where(eq(comment.id, commentId));
  if (!posted || posted.comment.deletedAt) return;
  const { comment: row } = posted;
  const threadId = row.parentId ?? row.id;
  const thread = edit
    ? []
    : await tx
        .select({ authorId: comment.authorId })
        .from(comment)
        .where(and(eq(comment.loanId, row.loanId), or(eq(comment.id, threadId), eq(comment.parentId, threadId))));
  const mentioned = new Set(row.mentions);
  const already = new Set(edit?.mentionedBefore ?? []);
  const candidates = [...new Set([...thread.map((t) => t.authorId), ...mentioned])].filter(
    (id): id is string => !!id && id !== row.authorId && !already.has(id),
  );
  const audiences = await audiencesOn(tx, row.loanId, posted.teamId, candidates);
  const author = posted.authorName ?? 'Someone';
  for (const userId of candidates) {
    if (!mayRead(audiences.get(userId), row.visibility)) continue;
    const kind: NotificationKind = mentioned.has(userId) ? 'mention' : 'comment';
    const title =
      kind === 'mention'
        ? `${author} mentioned you on ${posted.street}`
        : row.parentId
          ? `${author} replied in a thread on ${posted.street}`
          : `${author} commented on ${posted.street}`;
    // No text: the inbox quotes the comment as it is when it is read (edited, or deleted and kept nowhere).
    await insertNotification(tx, {
      userId,
      kind,
      loanId: row.loanId,
      audience: row.visibility === 'internal' ? 'team' : 'shared',
      commentId: row.id,
      data: { title, path: noticePaths.comment(row.loanId, row.id), commentId: row.id },
    });
    await signalInbox(tx, userId);
    if (!(await emailsKind(tx, userId, kind))) continue;
    // The edit's place in what this person reads: the team's sequence, or the borrowers' (a shared comment's edit is shared).
    const editSeq = edit ? (audiences.get(userId) === 'team' ? edit.seq : edit.sharedSeq) : null;
    await enqueueJob(
      tx,
      COMMENT_DIGEST_QUEUE,
      { userId, loanId: row.loanId, commentIds: [row.id], ...(editSeq !== null ? { mentionedByEdit: [{ commentId: row.id, seq: editSeq }] } : {}) },
      {
        dedupKey: `comment-digest:${userId}:${row.loanId}`,
        runAt: new Date(now + COMMENT_DIGEST_DELAY_MS),
        mergeArrays: ['commentIds', 'mentionedByEdit'],
      },
    );
  }
}

/**
 * The digest, written from what is true when it runs: the person still on the
 * loan, the comments still there and still theirs to read, and only those
 * past their read cursor (the loan page moves it while they look at it), of
 * the kinds they still want by e-mail. One mail, or none.
 *
 * It sends the mail itself rather than queueing it: the comments' text is
 * never stored in a job (a comment deleted later is kept nowhere), and a
 * retry after a failed send writes the mail again from the comments as they
 * are then.
 */
export function commentDigestJob({ db, config, mailer }: Pick<JobContext, 'db' | 'config' | 'mailer'>): JobHandler {
  return async (payload) => {
    const { userId, loanId, commentIds, mentionedByEdit } = DigestPayloadSchema.parse(payload);
    const [found] = await db
      .select({ loan, person: { name: user.name, email: user.email } })
      .from(loan)
      .innerJoin(user, eq(user.id, userId))
      .where(eq(loan.id, loanId));
    if (!found || commentIds.length === 0) return;
    const audience = (await audiencesOn(db, loanId, found.loan.teamId, [userId])).get(userId);
    if (!audience) return;
    const [read] = await db
      .select({ cursor: loanReadCursor.cursor })
      .from(loanReadCursor)
      .where(and(eq(loanReadCursor.userId, userId), eq(loanReadCursor.loanId, loanId)));
    const cursor = read?.cursor ?? 0;
    const rows = await db
      .select({ comment, authorName: user.name, itemLabel: checklistItem.label, itemVisible: checklistItem.borrowerVisible })
      .from(comment)
      .leftJoin(user, eq(user.id, comment.authorId))
      .leftJoin(checklistItem, eq(checklistItem.id, comment.itemId))
      .where(and(eq(comment.loanId, loanId), inArray(comment.id, commentIds), isNull(comment.deletedAt)))
      .orderBy(asc(comment.activitySeq));
    const wanted = new Map<NotificationKind, boolean>();
    const unseen: (DigestComment & { kind: NotificationKind })[] = [];
    for (const row of rows) {
      const c = row.comment;
      if (c.authorId === userId || !mayRead(audience, c.visibility)) continue;
      const posted = audience === 'team' ? c.activitySeq : c.sharedActivitySeq;
      const mentioned = c.mentions.includes(userId);
      // Read past where it was posted, but not past the edit that mentioned them: the mention is still news.
      const editedIn = mentioned ? Math.max(...mentionedByEdit.filter((m) => m.commentId === c.id).map((m) => m.seq)) : -Infinity;
      if (posted === null || Math.max(posted, editedIn) <= cursor) continue;
      const kind: NotificationKind = mentioned ? 'mention' : 'comment';
      if (!wanted.has(kind)) wanted.set(kind, await emailsKind(db, userId, kind));
      if (!wanted.get(kind)) continue;
      // A borrower never reads the label of an item hidden from them.
      const itemLabel = row.itemLabel && (audience === 'team' || row.itemVisible) ? row.itemLabel : null;
      unseen.push({ kind, id: c.id, body: c.body, visibility: c.visibility, authorName: row.authorName ?? 'Someone', itemLabel });
    }
    if (unseen.length === 0) return;
    const team = await findTeam(db, found.loan.teamId);
    if (!team) return;
    const kind: NotificationKind = unseen.every((c) => c.kind === 'mention') ? 'mention' : 'comment';
    const brand = teamMailBrand(team, config.publicUrl);
    const mail = commentDigestMail(found.person, found.loan, unseen, { publicUrl: config.publicUrl, brand, audience });
    // Each comment was kept above only if this kind is wanted by e-mail: the preference is already decided.
    await mailer.send(noticeMessage({ userId, email: found.person.email, kind, inbox: { path: noticePaths.comment(loanId, unseen[0]!.id) }, mail }, config));
  };
}
