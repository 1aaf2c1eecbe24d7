import { noticePaths, type NotificationKind } from '../../shared/domain/notifications';

/*
 * Whom each demo comment told, as `queueCommentNotifications`
 * (notifications/comment-notifications.ts) tells them when a comment is
 * posted (decision 021): the people of its thread so far and the people it
 * mentions, except its author and anyone who may not read it (an internal
 * comment reaches the team only). The seed writes an inbox row for each,
 * read when the person's read cursor has passed the comment, and places the
 * cursors so that the comments left unread are ones that told them: the
 * pipeline's unread on a loan and the bell then count the same comments.
 * Pure: no database.
 */

export interface DemoPostedComment {
  id: string;
  loanId: string;
  parentId?: string | null | undefined;
  authorId: string;
  visibility: 'shared' | 'internal';
  mentions: string[];
  createdAt: Date;
  deletedAt?: Date | null | undefined;
}

export interface DemoNotice {
  userId: string;
  commentId: string;
  kind: NotificationKind;
}

/** How someone stands on a loan: its team, a borrower on it, or nobody (undefined). */
export type DemoAudienceOf = (loanId: string, userId: string) => 'team' | 'borrowers' | undefined;

/** Everyone each comment told, in the order of `comments` (which must be in posting order). */
export function demoNotices(comments: readonly DemoPostedComment[], audienceOf: DemoAudienceOf): DemoNotice[] {
  const threadAuthors = new Map<string, string[]>();
  const notices: DemoNotice[] = [];
  for (const row of comments) {
    const threadId = row.parentId ?? row.id;
    const thread = [...(threadAuthors.get(threadId) ?? []), row.authorId];
    threadAuthors.set(threadId, thread);
    const mentioned = new Set(row.mentions);
    const candidates = [...new Set([...thread, ...mentioned])].filter((id) => id !== row.authorId);
    for (const userId of candidates) {
      const audience = audienceOf(row.loanId, userId);
      if (!(audience === 'team' || (audience === 'borrowers' && row.visibility === 'shared'))) continue;
      notices.push({ userId, commentId: row.id, kind: mentioned.has(userId) ? 'mention' : 'comment' });
    }
  }
  return notices;
}

/** The inbox row a notice is, as `queueCommentNotifications` writes it (no comment text: the inbox quotes it when read). */
export function demoNotificationRow(
  notice: DemoNotice,
  row: DemoPostedComment,
  { authorName, street, readAt }: { authorName: string; street: string; readAt: Date | null },
) {
  const title =
    notice.kind === 'mention'
      ? `${authorName} mentioned you on ${street}`
      : row.parentId
        ? `${authorName} replied in a thread on ${street}`
        : `${authorName} commented on ${street}`;
  return {
    userId: notice.userId,
    kind: notice.kind,
    loanId: row.loanId,
    audience: row.visibility === 'internal' ? ('team' as const) : ('shared' as const),
    commentId: row.id,
    data: { title, path: noticePaths.comment(row.loanId, row.id), commentId: row.id },
    createdAt: row.createdAt,
    readAt,
  };
}
