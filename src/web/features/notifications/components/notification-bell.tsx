import { Link, useLocation } from 'react-router';
import { paths } from '../../../lib/paths';
import { useUnreadCount } from '../api/unread-count';

/** What the bell says to assistive technology: "Notifications, 3 unread". */
export const bellLabel = (unread: number | undefined) => (unread ? `Notifications, ${unread} unread` : 'Notifications');

/**
 * The header's bell: a link to the inbox, its unread count as a badge (and in
 * its name). The count is the server's, read again whenever the inbox changes.
 */
export function NotificationBell() {
  const { data } = useUnreadCount();
  const { pathname } = useLocation();
  const unread = data?.unread ?? 0;
  const current = pathname === paths.inbox;
  return (
    <Link
      to={paths.inbox}
      aria-label={bellLabel(unread)}
      aria-current={current ? 'page' : undefined}
      className={`relative inline-flex size-10 items-center justify-center rounded-full text-slate-700 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-navy-600 ${current ? 'bg-navy-50 text-navy-900' : ''}`}
    >
      <svg aria-hidden="true" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.8" className="size-6">
        <path
          strokeLinecap="round"
          strokeLinejoin="round"
          d="M14.9 17.1a23.8 23.8 0 0 0 5.5-1.3 8.9 8.9 0 0 1-2.3-6V9a6 6 0 0 0-12 0v.8a8.9 8.9 0 0 1-2.3 6 23.8 23.8 0 0 0 5.5 1.3m5.6 0a24.3 24.3 0 0 1-5.6 0m5.6 0a3 3 0 1 1-5.6 0"
        />
      </svg>
      {unread > 0 ? (
        <span
          aria-hidden="true"
          data-testid="unread-badge"
          className="absolute -top-0.5 -right-0.5 min-w-5 rounded-full bg-red-700 px-1 text-center text-xs leading-5 font-bold text-white"
        >
          {unread > 99 ? '99+' : unread}
        </span>
      ) : null}
    </Link>
  );
}
