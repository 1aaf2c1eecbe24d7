import { useId, type ReactNode } from 'react';

/**
 * A data table of the signed-in app: a keyboard-scrollable region that holds
 * the table on narrow screens (the page itself never scrolls sideways), named
 * by the table's caption, and dimmed while `loading`. `minWidth` is a Tailwind
 * class written out by the caller (e.g. 'min-w-[48rem]'), so the stylesheet
 * of the caller's chunk has it. With `stickyHead`, on a screen wide enough
 * for the whole table (1,440 px and up) the region stops clipping and the
 * header row stays in view while the page scrolls.
 */
export function ScrollTable({
  caption,
  minWidth,
  loading,
  stickyHead = false,
  className = 'mt-3',
  children,
}: {
  caption: string;
  minWidth: string;
  loading?: boolean;
  stickyHead?: boolean;
  className?: string;
  children: ReactNode;
}) {
  const captionId = useId();
  return (
    <div
      role="region"
      aria-labelledby={captionId}
      tabIndex={0}
      className={`relative overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm ${stickyHead ? 'min-[1440px]:overflow-visible' : ''} ${className}`}
    >
      <table
        aria-busy={loading}
        className={`w-full ${minWidth} text-left text-sm transition-opacity ${loading ? 'opacity-60' : ''} ${
          stickyHead
            ? 'min-[1440px]:[&_thead_th]:sticky min-[1440px]:[&_thead_th]:top-0 min-[1440px]:[&_thead_th]:z-10 min-[1440px]:[&_thead_th]:bg-slate-50'
            : ''
        }`}
      >
        <caption id={captionId} className="sr-only">
          {caption}
        </caption>
        {children}
      </table>
    </div>
  );
}

/** The header row of a ScrollTable. */
export function TableHead({ children }: { children: ReactNode }) {
  return (
    <thead className="border-b border-slate-200 bg-slate-50 text-slate-700">
      <tr>{children}</tr>
    </thead>
  );
}

/** A column's heading (for an actions column, screen-reader-only text). */
export function ColumnHeader({ children }: { children: ReactNode }) {
  return (
    <th scope="col" className="px-3 py-3 font-semibold">
      {children}
    </th>
  );
}
