import { useEffect, useMemo, useState } from 'react';
import type { AdminWaitlistEntry, SortDirection, WaitlistSort, WaitlistStatus } from '../../../../shared/schemas/admin';
import { ApiError } from '../../../lib/api-client';
import { plural } from '../../../lib/plural';
import { Button, ExportCsvLink } from '../../../ui/button';
import { Chip } from '../../../ui/chip';
import { DateTime } from '../../../ui/date-time';
import { EmptyCell } from '../../../ui/empty-cell';
import { LoadFailed } from '../../../ui/load-failed';
import { ColumnHeader, ScrollTable, TableHead } from '../../../ui/scroll-table';
import { Spinner } from '../../../ui/spinner';
import { GENERIC_ERROR, useToast } from '../../../ui/toast';
import { waitlistCsvUrl } from '../api/export-waitlist-csv';
import { useInviteBroker } from '../api/invite-broker';
import { useWaitlist } from '../api/list-waitlist';
import { SortHeader } from '../../../ui/sort-header';

/** Typing pauses this long before the list is searched again. */
const SEARCH_DEBOUNCE_MS = 300;

const SORT_LABELS: Record<WaitlistSort, string> = { fullName: 'Name', email: 'Email', company: 'Company', createdAt: 'Signed up', status: 'Status' };
/** A new sort column starts where people expect it: newest sign-ups first, names and the rest A to Z. */
const FIRST_DIRECTION: Record<WaitlistSort, SortDirection> = { createdAt: 'desc', fullName: 'asc', email: 'asc', company: 'asc', status: 'asc' };

const fieldClasses =
  'mt-1.5 block h-11 w-full rounded-lg border border-slate-300 bg-white px-3 text-base text-slate-900 shadow-sm placeholder:text-slate-500 focus:border-navy-600 focus:outline-2 focus:outline-offset-0 focus:outline-navy-600 sm:text-sm';

/** The waitlist: search, status filter, sortable table, CSV export of the same view, and "Invite as broker" per entry. */
export function WaitlistPanel() {
  const toast = useToast();
  const [search, setSearch] = useState('');
  const [q, setQ] = useState('');
  const [sort, setSort] = useState<WaitlistSort>('createdAt');
  const [dir, setDir] = useState<SortDirection>('desc');
  const [status, setStatus] = useState<WaitlistStatus | ''>('');
  const [inviting, setInviting] = useState<ReadonlySet<string>>(new Set());
  const inviteBroker = useInviteBroker();

  useEffect(() => {
    const timer = setTimeout(() => setQ(search.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [search]);

  const query = useMemo(() => ({ q: q || undefined, sort, dir, status: status || undefined }), [q, sort, dir, status]);
  const waitlist = useWaitlist(query);
  // While a newer view is on its way, the last one stays in view, dimmed.
  const loading = waitlist.isFetching;
  const result = waitlist.isError ? null : (waitlist.data ?? null);

  function onSort(column: WaitlistSort) {
    if (column === sort) {
      setDir(dir === 'asc' ? 'desc' : 'asc');
    } else {
      setSort(column);
      setDir(FIRST_DIRECTION[column]);
    }
  }

  async function invite(entry: AdminWaitlistEntry) {
    setInviting((current) => new Set(current).add(entry.id));
    try {
      const { entry: updated } = await inviteBroker.mutateAsync(entry.id);
      toast({ title: 'Success!', description: `Invitation sent to ${updated.email}.` });
    } catch (error) {
      const known = error instanceof ApiError && error.status >= 400 && error.status < 500;
      if (!known) console.error('Inviting a broker failed:', error);
      toast({ title: 'Error', description: known ? error.message : GENERIC_ERROR, variant: 'destructive' });
    } finally {
      setInviting((current) => {
        const next = new Set(current);
        next.delete(entry.id);
        return next;
      });
    }
  }

  const filtered = Boolean(query.q || query.status);
  const sortText = `sorted by ${SORT_LABELS[sort]}, ${dir === 'asc' ? 'ascending' : 'descending'}`;

  return (
    <section aria-labelledby="waitlist-heading" className="mt-8">
      <h2 id="waitlist-heading" className="sr-only">
        Entries
      </h2>
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end">
        <div className="sm:w-80">
          <label htmlFor="waitlist-search" className="block text-sm font-medium text-slate-800">
            Search
          </label>
          <input
            id="waitlist-search"
            type="search"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            maxLength={200}
            placeholder="Name, e-mail, company or phone"
            autoComplete="off"
            className={fieldClasses}
          />
        </div>
        <div className="sm:w-44">
          <label htmlFor="waitlist-status" className="block text-sm font-medium text-slate-800">
            Status
          </label>
          <select id="waitlist-status" value={status} onChange={(event) => setStatus(event.target.value as WaitlistStatus | '')} className={fieldClasses}>
            <option value="">All statuses</option>
            <option value="new">New</option>
            <option value="invited">Invited</option>
          </select>
        </div>
        <ExportCsvLink href={waitlistCsvUrl(query)} className="h-11 sm:ml-auto" />
      </div>

      <p role="status" className="mt-4 flex min-h-6 items-center gap-2 text-sm text-slate-700">
        {loading ? <Spinner /> : null}
        {result ? (
          result.truncated ? (
            <span>
              Showing the first {plural(result.entries.length, 'entry', 'entries')} of {result.total.toLocaleString('en-US')}. Narrow the search, or export CSV
              for all of them.
            </span>
          ) : (
            <span>{plural(result.total, filtered ? 'matching entry' : 'entry', filtered ? 'matching entries' : 'entries')}</span>
          )
        ) : null}
      </p>

      {waitlist.isError && !loading ? <LoadFailed message="The waitlist could not be loaded." onRetry={() => void waitlist.refetch()} /> : null}

      {result ? (
        <ScrollTable caption={`Waitlist entries, ${sortText}`} minWidth="min-w-[60rem]" loading={loading}>
          <TableHead>
            <SortHeader label={SORT_LABELS.fullName} column="fullName" sort={sort} dir={dir} onSort={onSort} />
            <SortHeader label={SORT_LABELS.email} column="email" sort={sort} dir={dir} onSort={onSort} />
            <ColumnHeader>Phone</ColumnHeader>
            <SortHeader label={SORT_LABELS.company} column="company" sort={sort} dir={dir} onSort={onSort} />
            <SortHeader label={SORT_LABELS.createdAt} column="createdAt" sort={sort} dir={dir} onSort={onSort} />
            <SortHeader label={SORT_LABELS.status} column="status" sort={sort} dir={dir} onSort={onSort} />
            <ColumnHeader>
              <span className="sr-only">Actions</span>
            </ColumnHeader>
          </TableHead>
          <tbody className="divide-y divide-slate-200">
            {result.entries.map((entry) => (
              <WaitlistRow key={entry.id} entry={entry} sending={inviting.has(entry.id)} onInvite={invite} />
            ))}
            {result.entries.length === 0 ? (
              <tr>
                <td colSpan={7} className="px-4 py-12 text-center text-slate-600">
                  {filtered ? 'No entries match this search.' : 'Nobody has joined the waitlist yet.'}
                </td>
              </tr>
            ) : null}
          </tbody>
        </ScrollTable>
      ) : null}
    </section>
  );
}

function WaitlistRow({ entry, sending, onInvite }: { entry: AdminWaitlistEntry; sending: boolean; onInvite: (entry: AdminWaitlistEntry) => void }) {
  const invited = entry.status === 'invited';
  return (
    <tr className="align-middle">
      <th scope="row" className="min-w-32 px-3 py-3 font-semibold text-slate-900">
        {entry.fullName}
        {entry.submissions > 1 ? <span className="block text-xs font-normal text-slate-600">Signed up {entry.submissions} times</span> : null}
      </th>
      <td className="px-3 py-3">
        <a href={`mailto:${entry.email}`} className="text-navy-700 underline-offset-4 hover:underline">
          {entry.email}
        </a>
      </td>
      <td className="px-3 py-3 whitespace-nowrap text-slate-700">{entry.phone ?? <EmptyCell />}</td>
      <td className="min-w-32 px-3 py-3 text-slate-700">{entry.company ?? <EmptyCell />}</td>
      <td className="px-3 py-3 whitespace-nowrap text-slate-700">
        <DateTime iso={entry.createdAt} />
      </td>
      <td className="px-3 py-3 whitespace-nowrap">
        {invited ? (
          <>
            <Chip tone="green">Invited</Chip>
            {entry.invitedAt ? (
              <span className="mt-0.5 block text-xs text-slate-600">
                <DateTime iso={entry.invitedAt} />
              </span>
            ) : null}
          </>
        ) : (
          <Chip tone="navy">New</Chip>
        )}
      </td>
      <td className="px-3 py-3 text-right whitespace-nowrap">
        <Button size="sm" variant={invited ? 'secondary' : 'primary'} disabled={sending} onClick={() => onInvite(entry)}>
          {sending ? <Spinner /> : null}
          {invited ? 'Invite again' : 'Invite as broker'}
          <span className="sr-only">: {entry.fullName}</span>
        </Button>
      </td>
    </tr>
  );
}
