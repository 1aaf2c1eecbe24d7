import { useCallback, useEffect, useId, useState } from 'react';
import { AUDIT_ACTION_LABELS, AUDIT_ACTIONS, type AuditAction } from '../../../../shared/domain/audit-actions';
import type { AuditEvent } from '../../../../shared/schemas/audit';
import { ApiError } from '../../../lib/api-client';
import { Button } from '../../../ui/button';
import { DateTime } from '../../../ui/date-time';
import { Spinner } from '../../../ui/spinner';
import { useAccessErrorHandler, useFailureNotice } from '../../app-shell/me-context';
import type { AuditPageQuery } from '../api/audit-query';
import { listPlatformAudit } from '../api/list-platform-audit';
import { listTeamAudit } from '../api/list-team-audit';
import { shortUserAgent } from './user-agent';
import { ColumnHeader, ScrollTable, TableHead } from '../../app-shell/scroll-table';

type Loaded = { key: string } & ({ state: 'ready'; events: AuditEvent[]; nextBefore: number | null } | { state: 'failed' } | { state: 'gone' });

const label = (action: string) => AUDIT_ACTION_LABELS[action as AuditAction] ?? action;
const plural = (count: number) => `${count.toLocaleString('en-US')} ${count === 1 ? 'event' : 'events'}`;

/**
 * An audit log, newest first: what happened, who did it, to whom, from
 * where. Filter by action; older events load a page at a time. A team's log
 * (`teamId`, for its owners) or, with teamId null, the platform's (for
 * platform admins). The page decides what a 404 means (`onNotFound`).
 */
export function AuditLog({ teamId, onNotFound }: { teamId: string | null; onNotFound?: () => void }) {
  const load = useCallback(
    (query: AuditPageQuery, signal?: AbortSignal) => (teamId ? listTeamAudit(teamId, query, signal) : listPlatformAudit(query, signal)),
    [teamId],
  );
  const handleAccessError = useAccessErrorHandler();
  const notifyFailure = useFailureNotice();
  const filterId = useId();
  const [action, setAction] = useState<AuditAction | ''>('');
  const [reloads, setReloads] = useState(0);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [loadingOlder, setLoadingOlder] = useState(false);

  // What the events on screen were loaded for: while it differs from the current view, a newer page is on its way.
  const key = `${teamId ?? 'platform'}|${action}#${reloads}`;
  useEffect(() => {
    const controller = new AbortController();
    load({ action: action || undefined }, controller.signal).then(
      (page) => setLoaded({ key, state: 'ready', events: page.events, nextBefore: page.nextBefore }),
      (error: unknown) => {
        if (controller.signal.aborted || handleAccessError(error)) return;
        if (error instanceof ApiError && error.status === 404) {
          setLoaded({ key, state: 'gone' });
          onNotFound?.();
          return;
        }
        console.error('Loading the audit log failed:', error);
        setLoaded({ key, state: 'failed' });
      },
    );
    return () => controller.abort();
  }, [load, action, key, handleAccessError, onNotFound]);

  const loading = loaded?.key !== key;
  const ready = loaded?.state === 'ready' ? loaded : null;

  async function loadOlder() {
    if (!ready?.nextBefore || loadingOlder) return;
    setLoadingOlder(true);
    try {
      const page = await load({ before: ready.nextBefore, action: action || undefined });
      // A filter chosen meanwhile has its own first page: these older events belong to the old view.
      setLoaded((current) =>
        current?.key === ready.key && current.state === 'ready' ? { ...current, events: [...current.events, ...page.events], nextBefore: page.nextBefore } : current,
      );
    } catch (error) {
      notifyFailure('Loading older audit events failed', error);
    } finally {
      setLoadingOlder(false);
    }
  }

  if (loaded?.state === 'gone') return null;

  return (
    <section aria-label="Events" className="mt-8">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div className="sm:w-72">
          <label htmlFor={filterId} className="block text-sm font-medium text-slate-800">
            Action
          </label>
          <select
            id={filterId}
            value={action}
            onChange={(event) => setAction(event.target.value as AuditAction | '')}
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
        <Button variant="ghost" onClick={() => setReloads((n) => n + 1)} disabled={loading} className="self-start sm:self-auto">
          {loading ? <Spinner /> : null}
          Refresh
        </Button>
      </div>

      <p role="status" className="mt-4 flex min-h-6 items-center gap-2 text-sm text-slate-700">
        {loading ? <Spinner /> : null}
        {ready && ready.events.length > 0 ? <span>Showing {plural(ready.events.length)}</span> : null}
      </p>

      {loaded?.state === 'failed' && !loading ? (
        <div role="alert" className="mt-4 flex flex-wrap items-center gap-4 rounded-lg border border-red-200 bg-red-50 px-3 py-3 text-sm text-red-800">
          <p className="font-semibold">The audit log could not be loaded.</p>
          <Button variant="secondary" onClick={() => setReloads((n) => n + 1)}>
            Try again
          </Button>
        </div>
      ) : null}

      {ready && ready.events.length === 0 ? (
        <div className="mt-3 rounded-2xl border border-dashed border-slate-300 bg-white px-6 py-10 text-center">
          <p className="font-semibold text-slate-900">{action ? 'No events of this kind' : 'No events yet'}</p>
          <p className="mt-1 text-sm text-slate-600">
            {action ? 'Nothing like this has happened yet. Choose another action, or all of them.' : 'Sign-ins, invitations and changes will be recorded here as they happen.'}
          </p>
        </div>
      ) : null}

      {ready && ready.events.length > 0 ? (
        <>
          <ScrollTable caption="Audit log, newest first" minWidth="min-w-[64rem]" loading={loading}>
            <TableHead>
              {['When', 'What', 'Who', 'About whom', 'From where', 'Details'].map((heading) => (
                <ColumnHeader key={heading}>{heading}</ColumnHeader>
              ))}
            </TableHead>
            <tbody className="divide-y divide-slate-200">
              {ready.events.map((event) => (
                <AuditRow key={event.id} event={event} />
              ))}
            </tbody>
          </ScrollTable>
          {ready.nextBefore ? (
            <div className="mt-4 flex justify-center">
              <Button variant="secondary" onClick={() => void loadOlder()} disabled={loadingOlder || loading}>
                {loadingOlder ? <Spinner /> : null}
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
      <td className="px-3 py-3 break-words text-slate-700">{event.actorEmail ?? <None />}</td>
      <td className="px-3 py-3 break-words text-slate-700">{event.subjectEmail ?? <None />}</td>
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
          <None />
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
          <None />
        )}
      </td>
    </tr>
  );
}

function None() {
  return (
    <>
      <span aria-hidden="true" className="text-slate-500">
        —
      </span>
      <span className="sr-only">None</span>
    </>
  );
}
