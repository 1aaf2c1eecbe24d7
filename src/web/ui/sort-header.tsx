type SortDirection = 'asc' | 'desc';

/**
 * A column header that sorts the table: a button inside the <th>, and
 * aria-sort on the one column the table is sorted by.
 */
export function SortHeader<Column extends string>({
  label,
  column,
  sort,
  dir,
  onSort,
  wrap = false,
}: {
  label: string;
  column: Column;
  sort: Column;
  dir: SortDirection;
  onSort: (column: Column) => void;
  /** Lets a two-word label take two lines, so a table of many columns fits its screen. */
  wrap?: boolean;
}) {
  const active = sort === column;
  return (
    <th
      scope="col"
      aria-sort={active ? (dir === 'asc' ? 'ascending' : 'descending') : undefined}
      className={`py-3 align-bottom font-semibold ${wrap ? 'px-2' : 'px-3'}`}
    >
      <button
        type="button"
        onClick={() => onSort(column)}
        className={`-mx-1 inline-flex items-center gap-1 rounded px-1 py-0.5 text-left hover:text-slate-900 ${wrap ? '' : 'whitespace-nowrap'} ${
          active ? 'text-slate-900' : 'text-slate-700'
        }`}
      >
        {label}
        <SortIcon state={active ? dir : null} />
      </button>
    </th>
  );
}

function SortIcon({ state }: { state: SortDirection | null }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" className={`size-4 ${state ? 'text-navy-700' : 'text-slate-400'}`} fill="currentColor">
      {state !== 'desc' ? <path d="M10 4.5 6 9h8l-4-4.5Z" /> : null}
      {state !== 'asc' ? <path d="M10 15.5 14 11H6l4 4.5Z" /> : null}
    </svg>
  );
}
