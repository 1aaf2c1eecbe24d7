import { plural } from '../lib/plural';

/**
 * How many comments of a loan the person has not read, beside the loan in a
 * list (the pipeline, My loans); nothing when there are none. It reads as
 * "3 unread comments" to a screen reader, and shows "3 unread".
 */
export function UnreadBadge({ count, className = '' }: { count: number; className?: string }) {
  if (count <= 0) return null;
  return (
    <span className={`inline-flex items-center rounded-full bg-navy-700 px-2 py-0.5 text-xs font-semibold whitespace-nowrap text-white ${className}`}>
      <span aria-hidden="true">{count.toLocaleString('en-US')} unread</span>
      <span className="sr-only">{plural(count, 'unread comment', 'unread comments')}</span>
    </span>
  );
}
