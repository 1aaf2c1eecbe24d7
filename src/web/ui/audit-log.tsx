import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import { useId } from 'react';
import { AUDIT_ACTION_LABELS, AUDIT_ACTIONS, type AuditAction } from '../../shared/domain/audit-actions';
import type { AuditEvent, AuditPage } from '../../shared/schemas/audit';
import { ApiError } from '../lib/api-client';
import { failureDescription } from '../lib/me-context';
import { plural } from '../lib/plural';
import { shortUserAgent } from '../lib/user-agent';
import { Button } from './button';
import { DateTime } from './date-time';
import { EmptyCell } from './empty-cell';
import { LoadFailed } from './load-failed';
import { ColumnHeader, ScrollTable, TableHead } from './scroll-table';
import { Spinner } from './spinner';
import { useToast } from './toast';

const label = (action: string) => AUDIT_ACTION_LABELS[action as AuditAction] ?? action;

/**
 * An audit log, newest first: what happened, who did it, to whom, from
 * where. Filter by action; older events load a page at a time. The page
 * holds the log's query (useTeamAudit, usePlatformAudit) for the `action`
 * chosen here, and decides what a 404 means.
 */
export function AuditLog({
  log,
  action,
  onAction,
}: {
  log: UseInfiniteQueryResult<InfiniteData<AuditPage>>;
  action: AuditAction | undefined;
  onAction: (action: AuditAction | undefined) => void;
}) {
  const toast = useToast();
  const filterId = useId();
  // Loading the first page of a view (a new filter, a refresh); older pages show in their own button.
  const loading = log.isFetching && !log.isFetchingNextPage;
  // A log that failed to load again is not shown as if it were current; a failed older page leaves it as it is.
  const failed = log.isError && !log.isFetchNextPageError;
  const events = failed ? null : (log.data?.pages.flatMap((page) => page.events) ?? null);

  async function loadOlder() {
    if (!log.hasNextPage || log.isFetchingNextPage) return;
    const result = await log.fetchNextPage();
    // The shell has handled a session problem and logged an unexpected failure; the notice says it happened.
    if (result.isFetchNextPageError && !(result.error instanceof ApiError && result.error.status === 401)) {
      toast({ title: 'Error', description: failureDescription(result.error), variant: 'destructive' });
    }
  }

  return (
    <section aria-label="Events" className="mt-8">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div className="sm:w-72">
          <label htmlFor={filterId} className="block text-sm font-medium text-slate-800">
            Action
          </label>
          <select
            id={filterId}
            value={action ?? ''}
            onChange={(event) => onAction((event.target.value as AuditAction | '') || undefined)}
            className="mt-1.5 block h-11 w-full rounded-lg border border-slate-300 bg-white px-3 text-base text-slate-900 shadow-sm focus:border-navy-600 focus:outline-2 focus:outline-offset-0 focus:outline-navy-600 sm:text-sm"
          >
            <option value="">All actions</option>
            {AUDIT_ACTIONS.map((value) => (
              <option key={value} value={value}>
                {AUDIT_ACTION_LABELS[value]}
              </option>
            ))}
          </select>
        </div>
        <Button variant="ghost" onClick={() => void log.refetch()} disabled={loading} className="self-start sm:self-auto">
          {loading ? <Spinner /> : null}
          Refresh
        </Button>
      </div>

      <p role="status" className="mt-4 flex min-h-6 items-center gap-2 text-sm text-slate-700">
        {loading ? <Spinner /> : null}
        {events && events.length > 0 ? <span>Showing {plural(events.length, 'event', 'events')}</span> : null}
      </p>

      {failed && !loading ? <LoadFailed message="The audit log could not be loaded." onRetry={() => void log.refetch()} /> : null}

      {events && events.length === 0 ? (
        <div className="mt-3 rounded-2xl border border-dashed border-slate-300 bg-white px-6 py-10 text-center">
          <p className="font-semibold text-slate-900">{action ? 'No events of this kind' : 'No events yet'}</p>
          <p className="mt-1 text-sm text-slate-600">
            {action
              ? 'Nothing like this has happened yet. Choose another action, or all of them.'
              : 'Sign-ins, invitations and changes will be recorded here as they happen.'}
          </p>
        </div>
      ) : null}

      {events && events.length > 0 ? (
        <>
          <ScrollTable caption="Audit log, newest first" minWidth="min-w-[64rem]" loading={loading}>
            <TableHead>
              {['When', 'What', 'Who', 'About whom', 'From where', 'Details'].map((heading) => (
                <ColumnHeader key={heading}>{heading}</ColumnHeader>
              ))}
            </TableHead>
            <tbody className="divide-y divide-slate-200">
              {events.map((event) => (
                <AuditRow key={event.id} event={event} />
              ))}
            </tbody>
          </ScrollTable>
          {log.hasNextPage ? (
            <div className="mt-4 flex justify-center">
              <Button variant="secondary" onClick={() => void loadOlder()} disabled={log.isFetchingNextPage || loading}>
                {log.isFetchingNextPage ? <Spinner /> : null}
                Load older
              </Button>
            </div>
          ) : (
            <p className="mt-4 text-center text-sm text-slate-600">This is the oldest event{action ? ' of this kind' : ''}.</p>
          )}
        </>
      ) : null}
    </section>
  );
}

function AuditRow({ event }: { event: AuditEvent }) {
  const details = Object.entries(event.data);
  return (
    <tr className="align-top">
      <td className="px-3 py-3 whitespace-nowrap text-slate-700">
        <DateTime iso={event.at} format="precise" />
      </td>
      <th scope="row" className={`px-3 py-3 font-semibold ${event.action === 'sign_in.failed' ? 'text-red-800' : 'text-slate-900'}`}>
        {label(event.action)}
      </th>
      <td className="px-3 py-3 break-words text-slate-700">{event.actorEmail ?? <EmptyCell />}</td>
      <td className="px-3 py-3 break-words text-slate-700">{event.subjectEmail ?? <EmptyCell />}</td>
      <td className="px-3 py-3 text-slate-700">
        {event.ip || event.userAgent ? (
          <>
            {event.ip ? <span className="block font-mono text-xs">{event.ip}</span> : null}
            {event.userAgent ? (
              <span className="block text-xs text-slate-600" title={event.userAgent}>
                {shortUserAgent(event.userAgent)}
              </span>
            ) : null}
          </>
        ) : (
          <EmptyCell />
        )}
      </td>
      <td className="px-3 py-3 text-slate-700">
        {details.length > 0 ? (
          <ul className="space-y-0.5 text-xs">
            {details.map(([name, value]) => (
              <li key={name} className="break-words">
                <span className="font-semibold">{name}:</span> {String(value)}
              </li>
            ))}
          </ul>
        ) : (
          <EmptyCell />
        )}
      </td>
    </tr>
  );
}
