import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { CommentListView, CommentView } from '../../../../../shared/schemas/comments';
import { useMe } from '../../../../lib/me-context';
import { Button } from '../../../../ui/button';
import { LoadFailed } from '../../../../ui/load-failed';
import { Spinner } from '../../../../ui/spinner';
import { useChecklist } from '../../api/get-checklist';
import { useComments } from '../../api/list-comments';
import { usePostComment } from '../../api/post-comment';
import { useMarkRead } from '../../api/read-cursor';
import { CommentComposer } from './comment-composer';
import { CommentThread } from './comment-thread';
import { useHashTarget } from '../hash-target';

/** Whether the tab is in front of the person (`document.visibilityState`), kept up to date. */
function usePageVisible(): boolean {
  const [visible, setVisible] = useState(() => document.visibilityState === 'visible');
  useEffect(() => {
    const update = () => setVisible(document.visibilityState === 'visible');
    document.addEventListener('visibilitychange', update);
    return () => document.removeEventListener('visibilitychange', update);
  }, []);
  return visible;
}

/** Whether the element is on screen now (IntersectionObserver). */
function useOnScreen(): [(element: Element | null) => void, boolean] {
  const [onScreen, setOnScreen] = useState(false);
  const observer = useRef<IntersectionObserver | null>(null);
  const ref = useCallback((element: Element | null) => {
    observer.current?.disconnect();
    if (!element) return;
    observer.current = new IntersectionObserver(([entry]) => setOnScreen(entry?.isIntersecting ?? false));
    observer.current.observe(element);
  }, []);
  useEffect(() => () => observer.current?.disconnect(), []);
  return [ref, onScreen];
}

/**
 * The loan's discussion, for the team and for borrowers (the API gives each
 * what they may see): threads oldest first with the composer after the
 * newest, older threads a page at a time, unread markers and "Jump to first
 * unread".
 *
 * The read cursor moves forward (PUT) only while the tab is visible and the
 * end of the discussion, after the newest comment, is on screen: then the
 * person has had everything in front of them. It moves to the newest
 * position the list was read at, never to one it was not. The "New" markers
 * keep the cursor the page opened with, so what arrived since the last visit
 * stays marked while it is read.
 */
export function DiscussionPanel({ loanId, viewer }: { loanId: string; viewer: 'team' | 'borrower' }) {
  const me = useMe();
  const comments = useComments(loanId);
  const checklist = useChecklist(loanId);
  const postComment = usePostComment(loanId);
  const markRead = useMarkRead(loanId);
  const pageVisible = usePageVisible();
  const [endRef, endOnScreen] = useOnScreen();
  // The comment "Jump to first unread" is on its way to (a ref: reaching it is no new render), and each press.
  const jumpTo = useRef<string | null>(null);
  const [jumpPressed, setJumpPressed] = useState(0);
  const sent = useRef(0);

  const newest: CommentListView | undefined = comments.data?.pages[0];
  // The cursor as the page first read it: what was new then stays marked "New".
  const [markerCursor, setMarkerCursor] = useState<number | null>(null);
  if (markerCursor === null && newest) setMarkerCursor(newest.cursor);

  const itemLabels = useMemo(() => new Map((checklist.data?.items ?? []).map((item) => [item.id, item.label])), [checklist.data]);
  const threads = useMemo(() => [...(comments.data?.pages ?? [])].reverse().flatMap((page) => page.threads), [comments.data]);
  const isUnread = useCallback(
    (comment: CommentView) => markerCursor !== null && comment.cursor > markerCursor && comment.deletedAt === null && comment.author?.id !== me.user.id,
    [markerCursor, me.user.id],
  );

  const latest = newest?.latestCursor ?? 0;
  const cursor = newest?.cursor ?? 0;
  const { mutate: moveCursor } = markRead;
  useEffect(() => {
    if (!pageVisible || !endOnScreen || latest <= cursor || latest <= sent.current) return;
    sent.current = latest;
    moveCursor(latest);
  }, [pageVisible, endOnScreen, latest, cursor, moveCursor]);

  // A notification's link (#comment-<id>) lands as "Jump to first unread" does, older pages read until it is there.
  const linked = useHashTarget('comment');
  const linkTaken = useRef<string | null>(null);

  // "Jump to first unread": older pages are read until the comment is there, then it is scrolled to and focused.
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = comments;
  useEffect(() => {
    if (linked && linkTaken.current !== linked && threads.length > 0) {
      linkTaken.current = linked;
      jumpTo.current = linked;
    }
    if (!jumpTo.current) return;
    const element = document.getElementById(`comment-${jumpTo.current}`);
    if (element) {
      element.scrollIntoView({ block: 'center' });
      element.focus({ preventScroll: true });
      jumpTo.current = null;
    } else if (hasNextPage && !isFetchingNextPage) {
      void fetchNextPage();
    } else if (!hasNextPage) {
      jumpTo.current = null;
    }
  }, [linked, jumpPressed, threads, hasNextPage, isFetchingNextPage, fetchNextPage]);

  if (comments.isPending) {
    return (
      <p className="flex justify-center py-6" aria-busy="true">
        <Spinner />
        <span className="sr-only">Loading the discussion</span>
      </p>
    );
  }
  if (comments.isError) return <LoadFailed message="The discussion could not be loaded." onRetry={() => void comments.refetch()} />;

  const unread = newest?.unread ?? { count: 0, firstUnreadId: null };

  return (
    <div>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-slate-700" aria-live="polite">
          {unread.count > 0 ? `${unread.count} unread ${unread.count === 1 ? 'comment' : 'comments'}` : threads.length > 0 ? 'You are all caught up.' : ''}
        </p>
        {unread.count > 0 && unread.firstUnreadId ? (
          <Button
            variant="secondary"
            size="sm"
            onClick={() => {
              jumpTo.current = unread.firstUnreadId;
              setJumpPressed((n) => n + 1);
            }}
          >
            Jump to first unread
          </Button>
        ) : null}
      </div>

      {comments.hasNextPage ? (
        <Button variant="ghost" size="sm" className="mt-2" onClick={() => void comments.fetchNextPage()} disabled={comments.isFetchingNextPage}>
          {comments.isFetchingNextPage ? <Spinner /> : null}
          Show older comments
        </Button>
      ) : null}

      {threads.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">
          {viewer === 'borrower' ? 'No messages yet. Ask your team anything here.' : 'No comments yet. Start the conversation.'}
        </p>
      ) : (
        <ol className="mt-3 space-y-3" aria-label="Comments">
          {threads.map((thread) => (
            <CommentThread key={thread.id} loanId={loanId} thread={thread} isUnread={isUnread} itemLabels={itemLabels} />
          ))}
        </ol>
      )}
      {/* The end of the discussion: on screen (with the tab visible), everything above has been in front of the reader. */}
      <div ref={endRef} className="h-px" aria-hidden="true" />

      <div className="mt-4">
        <CommentComposer
          loanId={loanId}
          label={viewer === 'team' ? 'New comment' : 'New message to your team'}
          submitLabel={(visibility) => (visibility === 'internal' ? 'Post internal note' : 'Post comment')}
          visibility="shared"
          chooseVisibility={viewer === 'team'}
          onSubmit={(value) =>
            postComment.mutateAsync({ body: value.body, mentions: value.mentions, ...(viewer === 'team' ? { visibility: value.visibility } : {}) })
          }
        />
      </div>
    </div>
  );
}
