import { useId } from 'react';
import { useNavigate } from 'react-router';
import { NOTIFICATION_KIND_LABELS } from '../../../shared/domain/notifications';
import type { NotificationView } from '../../../shared/schemas/notifications';
import { useFailureNotice } from '../../lib/me-context';
import { plural } from '../../lib/plural';
import { useDocumentTitle } from '../../lib/use-page-title';
import { Button } from '../../ui/button';
import { DateTime } from '../../ui/date-time';
import { LoadFailed } from '../../ui/load-failed';
import { PageLoading } from '../../ui/page-loading';
import { Spinner } from '../../ui/spinner';
import { useNotifications } from './api/list-notifications';
import { useMarkAllRead, useMarkRead } from './api/mark-read';

/**
 * /app/inbox: the person's notifications, newest first. Each row opens what it
 * is about (the loan, the item, the comment) and is read from then on; "Mark
 * all read" clears the bell. How each kind reaches them by e-mail is set on
 * their profile.
 */
export default function InboxPage() {
  useDocumentTitle('Notifications');
  const headingId = useId();
  const list = useNotifications();
  const markAll = useMarkAllRead();
  const notifyFailure = useFailureNotice();
  const rows = list.data?.pages.flatMap((page) => page.notifications) ?? [];
  const unread = list.data?.pages[0]?.unread ?? 0;

  return (
    <div className="max-w-3xl">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 id={headingId} className="text-2xl font-bold tracking-tight text-slate-900">
            Notifications
          </h1>
          <p className="mt-2 text-slate-600" aria-live="polite">
            {list.isSuccess ? (unread ? `${plural(unread, 'unread notification', 'unread notifications')}.` : 'You are all caught up.') : null}
          </p>
        </div>
        <Button
          variant="secondary"
          disabled={unread === 0 || markAll.isPending}
          onClick={() => markAll.mutate(undefined, { onError: (error) => notifyFailure('Marking your notifications read failed', error) })}
        >
          {markAll.isPending ? <Spinner /> : null}
          Mark all read
        </Button>
      </div>

      {list.isPending ? <PageLoading /> : null}
      {list.isError ? <LoadFailed message="Your notifications could not be loaded." onRetry={() => void list.refetch()} /> : null}
      {list.isSuccess && rows.length === 0 ? <p className="mt-8 rounded-2xl border border-slate-200 bg-white p-6 text-slate-600">Nothing here yet.</p> : null}
      {rows.length > 0 ? (
        <ul aria-labelledby={headingId} className="mt-6 divide-y divide-slate-200 overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm">
          {rows.map((row) => (
            <InboxRow key={row.id} row={row} />
          ))}
        </ul>
      ) : null}
      {list.hasNextPage ? (
        <div className="mt-4 flex justify-center">
          <Button variant="secondary" disabled={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
            {list.isFetchingNextPage ? <Spinner /> : null}
            Show older
          </Button>
        </div>
      ) : null}
    </div>
  );
}

function InboxRow({ row }: { row: NotificationView }) {
  const navigate = useNavigate();
  const markRead = useMarkRead();
  const unread = row.readAt === null;
  // Opening a row reads it; the link still goes where it points if marking fails.
  const open = (event: React.MouseEvent<HTMLAnchorElement>) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) {
      if (unread) markRead.mutate(row.id);
      return;
    }
    event.preventDefault();
    const go = () => void navigate(row.path);
    if (unread) markRead.mutate(row.id, { onSettled: go });
    else go();
  };
  return (
    <li className={unread ? 'bg-navy-50/60' : undefined}>
      <a
        href={row.path}
        onClick={open}
        className="flex gap-3 px-4 py-4 hover:bg-slate-50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-navy-600 sm:px-6"
      >
        <span aria-hidden="true" className={`mt-2 size-2 shrink-0 rounded-full ${unread ? 'bg-navy-700' : 'bg-transparent'}`} />
        <span className="min-w-0 flex-1">
          <span className={`block text-slate-900 ${unread ? 'font-semibold' : ''}`}>
            {unread ? <span className="sr-only">Unread: </span> : null}
            {row.title}
          </span>
          {row.body ? <span className="mt-1 block truncate text-sm text-slate-700">{row.body}</span> : null}
          <span className="mt-1 block text-xs text-slate-600">
            {NOTIFICATION_KIND_LABELS[row.kind]} · <DateTime iso={row.createdAt} format="dateTime" />
          </span>
        </span>
      </a>
    </li>
  );
}
