import { useState } from 'react';
import type { CommentThreadView, CommentView } from '../../../../../shared/schemas/comments';
import { Button } from '../../../../ui/button';
import { usePostComment } from '../../api/post-comment';
import { CommentCard } from './comment-card';
import { CommentComposer } from './comment-composer';

/**
 * A thread: its first comment, its replies (one level), and a reply
 * composer that stays open with its text while the discussion refetches
 * (the thread is keyed by its first comment's id).
 */
export function CommentThread({
  loanId,
  thread,
  isUnread,
  itemLabels,
  anchored = true,
}: {
  loanId: string;
  thread: CommentThreadView;
  isUnread: (comment: CommentView) => boolean;
  itemLabels: ReadonlyMap<string, string>;
  /** The loan's discussion anchors its comments (`#comment-…`); an item's thread shows them again without. */
  anchored?: boolean;
}) {
  const [replying, setReplying] = useState(false);
  const postComment = usePostComment(loanId);
  const internal = thread.visibility === 'internal';
  const canReply = thread.deletedAt === null;
  return (
    <li
      className={`rounded-xl border p-2 sm:p-3 ${internal ? 'border-amber-300 bg-amber-50/60' : 'border-slate-200 bg-white'}`}
      aria-label={`${internal ? 'Internal thread' : 'Thread'} started by ${thread.author?.name || 'a former participant'}`}
    >
      <CommentCard
        loanId={loanId}
        comment={thread}
        unread={isUnread(thread)}
        anchored={anchored}
        itemLabel={thread.itemId ? (itemLabels.get(thread.itemId) ?? null) : null}
      />
      {thread.replies.length > 0 ? (
        <ol className="mt-1 ml-3 space-y-1 border-l border-slate-200 pl-2 sm:ml-5 sm:pl-3" aria-label="Replies">
          {thread.replies.map((reply) => (
            <li key={reply.id}>
              <CommentCard loanId={loanId} comment={reply} unread={isUnread(reply)} headingLevel={4} anchored={anchored} />
            </li>
          ))}
        </ol>
      ) : null}
      {canReply ? (
        <div className="mt-2 ml-3 sm:ml-5">
          {replying ? (
            <CommentComposer
              loanId={loanId}
              label={`Reply to ${thread.author?.name || 'this thread'}`}
              submitLabel={() => 'Reply'}
              visibility={thread.visibility}
              autoFocus
              onSubmit={(value) => postComment.mutateAsync({ body: value.body, mentions: value.mentions, parentId: thread.id })}
              onCancel={() => setReplying(false)}
            />
          ) : (
            <Button variant="ghost" size="sm" onClick={() => setReplying(true)}>
              Reply<span className="sr-only"> to {thread.author?.name || 'this thread'}</span>
            </Button>
          )}
        </div>
      ) : null}
    </li>
  );
}
