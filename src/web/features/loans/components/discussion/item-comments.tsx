import { useId, useState } from 'react';
import { LoadFailed } from '../../../../ui/load-failed';
import { Spinner } from '../../../../ui/spinner';
import { useComments } from '../../api/list-comments';
import { usePostComment } from '../../api/post-comment';
import { CommentComposer } from './comment-composer';
import { CommentThread } from './comment-thread';

const NO_LABELS: ReadonlyMap<string, string> = new Map();
const NEVER_UNREAD = () => false;

/** How many comments an item has, as the reader sees them (from the discussion's `itemCounts`). */
export function useItemCommentCount(loanId: string, itemId: string): number {
  const comments = useComments(loanId);
  return comments.data?.pages[0]?.itemCounts[itemId] ?? 0;
}

/**
 * A checklist item's comments: a toggle showing how many there are, which
 * opens the item's threads and a composer whose comments are about the item.
 * An internal item takes internal comments only.
 */
export function ItemComments({
  loanId,
  itemId,
  itemLabel,
  viewer,
  internalItem = false,
}: {
  loanId: string;
  itemId: string;
  itemLabel: string;
  viewer: 'team' | 'borrower';
  internalItem?: boolean;
}) {
  const [open, setOpen] = useState(false);
  const count = useItemCommentCount(loanId, itemId);
  const regionId = useId();
  return (
    <div>
      <button
        type="button"
        aria-expanded={open}
        aria-controls={regionId}
        onClick={() => setOpen(!open)}
        className="inline-flex items-center gap-1.5 rounded-md px-2 py-1 text-sm font-medium text-navy-700 hover:bg-navy-50 focus-visible:outline-2 focus-visible:outline-navy-600"
      >
        <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4" fill="currentColor">
          <path d="M3.5 4.75A1.75 1.75 0 0 1 5.25 3h9.5a1.75 1.75 0 0 1 1.75 1.75v7.5A1.75 1.75 0 0 1 14.75 14H9l-3.6 2.7A.75.75 0 0 1 4.2 16.1V14h.05A1.75 1.75 0 0 1 3.5 12.25v-7.5Z" />
        </svg>
        Comments ({count})<span className="sr-only"> on {itemLabel}</span>
      </button>
      {open ? (
        <div id={regionId} role="region" aria-label={`Comments on ${itemLabel}`} className="mt-2">
          <ItemThreads loanId={loanId} itemId={itemId} itemLabel={itemLabel} viewer={viewer} internalItem={internalItem} />
        </div>
      ) : null}
    </div>
  );
}

function ItemThreads({
  loanId,
  itemId,
  itemLabel,
  viewer,
  internalItem,
}: {
  loanId: string;
  itemId: string;
  itemLabel: string;
  viewer: 'team' | 'borrower';
  internalItem: boolean;
}) {
  const comments = useComments(loanId, itemId);
  const postComment = usePostComment(loanId);
  if (comments.isPending) {
    return (
      <p className="flex justify-center py-3" aria-busy="true">
        <Spinner />
        <span className="sr-only">Loading the comments</span>
      </p>
    );
  }
  if (comments.isError) return <LoadFailed message="The comments could not be loaded." onRetry={() => void comments.refetch()} />;
  const threads = [...comments.data.pages].reverse().flatMap((page) => page.threads);
  return (
    <div className="space-y-2">
      {threads.length > 0 ? (
        <ol className="space-y-2" aria-label={`Comments on ${itemLabel}`}>
          {threads.map((thread) => (
            <CommentThread key={thread.id} loanId={loanId} thread={thread} isUnread={NEVER_UNREAD} itemLabels={NO_LABELS} anchored={false} />
          ))}
        </ol>
      ) : null}
      <CommentComposer
        loanId={loanId}
        label={`Comment on ${itemLabel}`}
        submitLabel={(visibility) => (visibility === 'internal' ? 'Post internal note' : 'Post comment')}
        visibility={internalItem ? 'internal' : 'shared'}
        chooseVisibility={viewer === 'team' && !internalItem}
        onSubmit={(value) =>
          postComment.mutateAsync({ body: value.body, mentions: value.mentions, itemId, ...(viewer === 'team' ? { visibility: value.visibility } : {}) })
        }
      />
    </div>
  );
}
