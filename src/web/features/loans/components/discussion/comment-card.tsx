import { useId, useState } from 'react';
import type { CommentView } from '../../../../../shared/schemas/comments';
import { formatMoment, formatRelativeMoment } from '../../../../lib/dates';
import { useFailureNotice } from '../../../../lib/me-context';
import { Button } from '../../../../ui/button';
import { ConfirmDialog } from '../../../../ui/confirm-dialog';
import { useDeleteComment } from '../../api/delete-comment';
import { useEditComment } from '../../api/edit-comment';
import { CommentComposer } from './comment-composer';
import { commentTokens } from './comment-text';

/** The text of a comment: plain text with its links (http/https only) and @mentions; never HTML. */
export function CommentBody({ comment }: { comment: CommentView }) {
  const tokens = commentTokens(
    comment.body,
    comment.mentions.map((mention) => mention.name),
  );
  return (
    <p className="mt-1 text-sm whitespace-pre-wrap text-slate-900 [overflow-wrap:anywhere]">
      {tokens.map((token, index) =>
        token.kind === 'link' ? (
          <a
            key={index}
            href={token.href}
            target="_blank"
            rel="noopener noreferrer nofollow"
            className="font-medium text-navy-700 underline underline-offset-2"
          >
            {token.text}
          </a>
        ) : token.kind === 'mention' ? (
          <span key={index} className="rounded bg-navy-50 px-0.5 font-semibold text-navy-800">
            {token.text}
          </span>
        ) : (
          <span key={index}>{token.text}</span>
        ),
      )}
    </p>
  );
}

export function RelativeTime({ iso }: { iso: string }) {
  return (
    <time dateTime={iso} title={formatMoment(iso, 'dateTime')}>
      {formatRelativeMoment(iso)}
    </time>
  );
}

/**
 * One comment: who wrote it and when, whether it is internal, new to the
 * reader, edited or deleted, and its author's Edit and Delete (an owner's
 * Delete too). `id="comment-…"` is where "Jump to first unread" and a
 * notification's link land: only the loan's discussion carries it
 * (`anchored`), since an item's open thread shows the same comment again
 * and an id is the page's once.
 */
export function CommentCard({
  loanId,
  comment,
  unread,
  itemLabel,
  headingLevel = 3,
  anchored = true,
}: {
  loanId: string;
  comment: CommentView;
  unread: boolean;
  itemLabel?: string | null;
  headingLevel?: 3 | 4;
  anchored?: boolean;
}) {
  const headingId = useId();
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const editComment = useEditComment(loanId);
  const deleteComment = useDeleteComment(loanId);
  const notifyFailure = useFailureNotice();
  const deleted = comment.deletedAt !== null;
  const Heading = headingLevel === 3 ? 'h3' : 'h4';
  const author = comment.author?.name || 'A former participant';

  return (
    <article
      id={anchored ? `comment-${comment.id}` : undefined}
      tabIndex={-1}
      aria-labelledby={headingId}
      data-unread={unread || undefined}
      className={`rounded-lg py-2 pr-2 pl-3 focus:outline-2 focus:outline-navy-600 ${unread ? 'border-l-4 border-navy-600 bg-navy-50/40' : 'border-l-4 border-transparent'}`}
    >
      <div className="flex flex-wrap items-baseline gap-x-2 gap-y-1">
        <Heading id={headingId} className="text-sm font-semibold text-slate-900">
          {deleted ? <span className="sr-only">Deleted comment by </span> : null}
          {author}
        </Heading>
        {comment.author?.side === 'team' ? <span className="text-xs text-slate-600">Team</span> : null}
        <span className="text-xs text-slate-600">
          <RelativeTime iso={comment.createdAt} />
        </span>
        {comment.visibility === 'internal' && comment.parentId === null ? (
          <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900 ring-1 ring-amber-300 ring-inset">Internal</span>
        ) : null}
        {itemLabel ? (
          <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-700 ring-1 ring-slate-200 ring-inset">About: {itemLabel}</span>
        ) : null}
        {unread ? <span className="rounded-full bg-navy-700 px-2 py-0.5 text-xs font-semibold text-white">New</span> : null}
        {comment.editedAt && !deleted ? (
          <span className="text-xs text-slate-600 italic">
            <span title={`Edited ${formatMoment(comment.editedAt, 'dateTime')}`}>edited</span>
          </span>
        ) : null}
      </div>

      {deleted ? (
        <p className="mt-1 text-sm text-slate-600 italic">This comment was deleted.</p>
      ) : editing ? (
        <div className="mt-2">
          <CommentComposer
            loanId={loanId}
            label="Edit your comment"
            submitLabel={() => 'Save'}
            visibility={comment.visibility}
            initial={{ body: comment.body, mentions: comment.mentions }}
            autoFocus
            onSubmit={async ({ body, mentions }) => {
              await editComment.mutateAsync({ commentId: comment.id, body, mentions });
              setEditing(false);
            }}
            onCancel={() => setEditing(false)}
          />
        </div>
      ) : (
        <CommentBody comment={comment} />
      )}

      {!deleted && !editing && (comment.canEdit || comment.canDelete) ? (
        <div className="mt-1 flex gap-1">
          {comment.canEdit ? (
            <Button
              variant="ghost"
              size="sm"
              onClick={() => setEditing(true)}
              aria-label={`Edit your comment from ${formatMoment(comment.createdAt, 'dateTime')}`}
            >
              Edit
            </Button>
          ) : null}
          {comment.canDelete ? (
            <Button
              variant="ghost"
              size="sm"
              onClick={() => setConfirming(true)}
              aria-label={`Delete the comment by ${author} from ${formatMoment(comment.createdAt, 'dateTime')}`}
            >
              Delete
            </Button>
          ) : null}
        </div>
      ) : null}

      <ConfirmDialog
        open={confirming}
        title="Delete this comment?"
        confirmLabel="Delete comment"
        busy={deleteComment.isPending}
        onClose={() => setConfirming(false)}
        onConfirm={() =>
          deleteComment.mutate(comment.id, {
            onSuccess: () => setConfirming(false),
            onError: (error) => notifyFailure('Deleting the comment failed', error),
          })
        }
      >
        Its text is removed for everyone on the loan; replies to it stay.
      </ConfirmDialog>
    </article>
  );
}
