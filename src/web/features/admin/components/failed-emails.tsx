import { useState } from 'react';
import type { FailedJob } from '../../../../shared/schemas/admin';
import { ApiError } from '../../../lib/api-client';
import { Button } from '../../../ui/button';
import { DateTime } from '../../../ui/date-time';
import { LoadFailed } from '../../../ui/load-failed';
import { ColumnHeader, ScrollTable, TableHead } from '../../../ui/scroll-table';
import { Spinner } from '../../../ui/spinner';
import { GENERIC_ERROR, useToast } from '../../../ui/toast';
import { useFailedJobs } from '../api/list-failed-jobs';
import { useRetryJob } from '../api/retry-job';

/**
 * E-mails that failed on every attempt: kept, never dropped (decision 002),
 * shown here with the last error so an admin can fix the cause and retry.
 */
export function FailedEmails() {
  const toast = useToast();
  const failedJobs = useFailedJobs();
  const retryJob = useRetryJob();
  const [retrying, setRetrying] = useState<ReadonlySet<number>>(new Set());

  const loading = failedJobs.isFetching;
  // A list that failed to load again is not shown as if it were current.
  const jobs = failedJobs.isError ? null : (failedJobs.data?.jobs ?? null);

  async function retry(job: FailedJob) {
    setRetrying((current) => new Set(current).add(job.id));
    try {
      await retryJob.mutateAsync(job.id);
      toast({ title: 'Success!', description: job.recipient ? `The e-mail to ${job.recipient} is queued again.` : 'The job is queued again.' });
    } catch (error) {
      const known = error instanceof ApiError && error.status === 404;
      if (!known) console.error('Retrying a job failed:', error);
      // 404: somebody retried it already; the fresh list shows where it stands.
      toast({ title: 'Error', description: known ? 'This e-mail is no longer failed. The list has been refreshed.' : GENERIC_ERROR, variant: 'destructive' });
    } finally {
      setRetrying((current) => {
        const next = new Set(current);
        next.delete(job.id);
        return next;
      });
    }
  }

  return (
    <section aria-labelledby="failed-emails-heading" aria-busy={loading} className="mt-14">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h2 id="failed-emails-heading" className="text-lg font-semibold text-slate-900">
            Failed e-mails
          </h2>
          <p className="mt-1 max-w-2xl text-sm text-slate-600">
            E-mails that could not be sent after every retry. Fix the cause shown in the last error, then retry them.
          </p>
        </div>
        <Button variant="ghost" onClick={() => void failedJobs.refetch()} disabled={loading}>
          {loading ? <Spinner /> : null}
          Refresh
        </Button>
      </div>

      {failedJobs.isError && !loading ? <LoadFailed message="The failed e-mails could not be loaded." /> : null}

      {jobs && jobs.length === 0 ? (
        <div className="mt-4 rounded-2xl border border-dashed border-slate-300 bg-white px-6 py-10 text-center">
          <p className="font-semibold text-slate-900">No failed e-mails</p>
          <p className="mt-1 text-sm text-slate-600">Every e-mail has gone out or is still being tried.</p>
        </div>
      ) : null}

      {jobs && jobs.length > 0 ? (
        <ScrollTable caption="Failed e-mails, most recent first" minWidth="min-w-[52rem]" className="mt-4">
          <TableHead>
            <ColumnHeader>Recipient</ColumnHeader>
            <ColumnHeader>Subject</ColumnHeader>
            <ColumnHeader>Attempts</ColumnHeader>
            <ColumnHeader>Last error</ColumnHeader>
            <ColumnHeader>Failed</ColumnHeader>
            <ColumnHeader>
              <span className="sr-only">Actions</span>
            </ColumnHeader>
          </TableHead>
          <tbody className="divide-y divide-slate-200">
            {jobs.map((job) => (
              <tr key={job.id} className="align-top">
                <th scope="row" className="px-3 py-3 font-semibold break-words text-slate-900">
                  {job.recipient ?? job.queue}
                </th>
                <td className="px-3 py-3 text-slate-700">{job.subject ?? '—'}</td>
                <td className="px-3 py-3 whitespace-nowrap text-slate-700">
                  {job.attempts} of {job.maxAttempts}
                </td>
                <td className="max-w-sm px-3 py-3">
                  <code className="font-mono text-xs break-words whitespace-pre-wrap text-red-800">{job.lastError ?? 'No error recorded'}</code>
                </td>
                <td className="px-3 py-3 whitespace-nowrap text-slate-700">
                  <DateTime iso={job.updatedAt} format="dateTime" />
                </td>
                <td className="px-3 py-3 text-right">
                  <Button size="sm" variant="secondary" disabled={retrying.has(job.id)} onClick={() => retry(job)}>
                    {retrying.has(job.id) ? <Spinner /> : null}
                    Retry
                    <span className="sr-only">: {job.recipient ?? job.queue}</span>
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      ) : null}
    </section>
  );
}
