import { useEffect, useId, useState } from 'react';
import { REMINDER_POLICY, type NextLoanReminder, type NoReminderReason } from '../../../../shared/domain/reminders';
import { formatCalendarDate } from '../../../lib/dates';
import { useFailureNotice } from '../../../lib/me-context';
import { plural } from '../../../lib/plural';
import { Button } from '../../../ui/button';
import { DateTime } from '../../../ui/date-time';
import { Spinner } from '../../../ui/spinner';
import { useToast } from '../../../ui/toast';
import { useReminders, useSendReminderNow, useSetReminders } from '../api/reminders';

const NO_REMINDER: Record<NoReminderReason, string> = {
  off: 'None: automatic reminders are off',
  closed: 'None: the loan is closed',
  nothing_owed: 'None: the borrowers owe nothing now',
  no_borrower: 'None: no borrower has joined the loan yet',
  all_sent: `None: every owed document has had its ${REMINDER_POLICY.maxPerItem} reminders`,
};

/** When the next scheduled reminder goes, in the team's zone (never a day already past), or why none will. */
function nextReminderText(next: NextLoanReminder, today: string, timeZone: string): string {
  if (next.kind === 'none') return NO_REMINDER[next.why];
  if (next.soon) return 'Today, within 15 minutes';
  const day = next.on === today ? 'Today' : formatCalendarDate(next.on);
  return `${day}, from ${REMINDER_POLICY.openHour}:00 (${timeZone})`;
}

/** Today's date in `timeZone`, YYYY-MM-DD. */
const todayIn = (timeZone: string) => new Intl.DateTimeFormat('en-CA', { timeZone }).format(new Date());

/**
 * The loan's reminders (team only): the switch for the scheduled reminders,
 * when the last one went and when the next will (or why none will), and "Send reminder now", which the server allows
 * once a minute (a double click sends one) and a few times in any 24 hours
 * per loan (REMINDERS_SENT_NOW_PER_DAY): once they are used up, the button
 * is disabled and says when the next can go.
 */
export function RemindersPanel({ loanId }: { loanId: string }) {
  const toast = useToast();
  const notifyFailure = useFailureNotice();
  const labelId = useId();
  const hintId = useId();
  const reminders = useReminders(loanId);
  const setReminders = useSetReminders(loanId);
  const sendNow = useSendReminderNow(loanId);
  const limitId = useId();
  const nextAt = reminders.data?.sendNow.nextAt ?? null;
  const { refetch } = reminders;
  // The view says `nextAt` only while the limit holds; when that moment passes, the button comes back and the view is asked again.
  const [lifted, setLifted] = useState<string | null>(null);
  useEffect(() => {
    if (!nextAt) return;
    const wait = Date.parse(nextAt) - Date.now();
    if (wait > 2 ** 31 - 1) return;
    const timer = setTimeout(
      () => {
        setLifted(nextAt);
        void refetch();
      },
      Math.max(0, wait),
    );
    return () => clearTimeout(timer);
  }, [nextAt, refetch]);

  if (reminders.isPending) return <Spinner />;
  if (reminders.isError) return <p className="text-sm text-slate-600">The reminders could not be loaded.</p>;
  const view = reminders.data;
  const enabled = setReminders.isPending && setReminders.variables !== undefined ? setReminders.variables : view.enabled;
  // While a switch is on its way, the answer's `next` is not in yet: off reads as off at once.
  const next: NextLoanReminder = enabled ? view.next : { kind: 'none', why: 'off' };
  const limited = nextAt !== null && nextAt !== lifted;

  const toggle = () =>
    setReminders.mutate(!enabled, {
      onSuccess: (saved) => toast({ title: 'Success!', description: saved.enabled ? 'Reminders are on for this loan.' : 'Reminders are off for this loan.' }),
      onError: (error) => notifyFailure('Changing the reminders failed', error),
    });
  const send = () =>
    sendNow.mutate(undefined, {
      onSuccess: (sent) =>
        toast({
          title: 'Success!',
          description: `Reminder sent to ${plural(sent.people, 'person', 'people')} about ${plural(sent.items, 'document', 'documents')}.`,
        }),
      onError: (error) => notifyFailure('Sending the reminder failed', error),
    });

  return (
    <div className="space-y-4 text-sm text-slate-700">
      <div className="flex items-center justify-between gap-4">
        <div>
          <p id={labelId} className="font-medium text-slate-900">
            Automatic reminders
          </p>
          <p id={hintId} className="text-slate-600">
            Weekdays {REMINDER_POLICY.openHour}:00–{REMINDER_POLICY.closeHour}:00 ({view.timeZone}), at most {REMINDER_POLICY.maxPerItem} per document.
          </p>
        </div>
        <button
          type="button"
          role="switch"
          aria-checked={enabled}
          aria-labelledby={labelId}
          aria-describedby={hintId}
          disabled={setReminders.isPending}
          onClick={toggle}
          className={`relative inline-flex h-7 w-12 shrink-0 items-center rounded-full border-2 border-transparent transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-navy-700 disabled:opacity-60 ${enabled ? 'bg-navy-700' : 'bg-slate-400'}`}
        >
          <span
            aria-hidden="true"
            className={`inline-block size-6 rounded-full bg-white shadow transition-transform ${enabled ? 'translate-x-5' : 'translate-x-0'}`}
          />
        </button>
      </div>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
        <dt className="text-slate-600">Last reminder</dt>
        <dd>{view.lastRemindedAt ? <DateTime iso={view.lastRemindedAt} format="dateTime" /> : 'None yet'}</dd>
        <dt className="text-slate-600">Owed by borrowers</dt>
        <dd>{plural(view.owed.length, 'document', 'documents')}</dd>
        <dt className="text-slate-600">Next reminder</dt>
        <dd>{nextReminderText(next, todayIn(view.timeZone), view.timeZone)}</dd>
      </dl>
      <Button
        variant="secondary"
        size="sm"
        onClick={send}
        disabled={sendNow.isPending || view.owed.length === 0 || view.recipients === 0 || limited}
        aria-describedby={limited ? limitId : undefined}
      >
        {sendNow.isPending ? <Spinner /> : null}
        Send reminder now
      </Button>
      {limited ? (
        <p id={limitId} className="text-slate-600">
          Reminder limit reached: {plural(view.sendNow.perDay, 'reminder', 'reminders')} sent by hand in the last 24 hours. The next can be sent from{' '}
          <DateTime iso={nextAt} format="dateTime" />.
        </p>
      ) : null}
      {view.owed.length > 0 && view.recipients === 0 ? <p className="text-slate-600">Invite a borrower to send reminders.</p> : null}
    </div>
  );
}
