import { useId, useState, type FormEvent } from 'react';
import { NOTIFICATION_KIND_LABELS, type NotificationChannel, type NotificationKind } from '../../../shared/domain/notifications';
import type { NotificationPreference } from '../../../shared/schemas/notifications';
import { useFailureNotice } from '../../lib/me-context';
import { Button } from '../../ui/button';
import { LoadFailed } from '../../ui/load-failed';
import { Spinner } from '../../ui/spinner';
import { useToast } from '../../ui/toast';
import { useNotificationPreferences, useUpdateNotificationPreferences } from './api/notification-preferences';

/**
 * Per kind of notification: in the app only, or by e-mail too. Everything
 * lands in the inbox either way; invitations are always e-mailed, since their
 * link is only in the mail.
 */
export function NotificationSettings() {
  const headingId = useId();
  const preferences = useNotificationPreferences();
  return (
    <section aria-labelledby={headingId} className="mt-8 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
      <h2 id={headingId} className="text-lg font-semibold text-slate-900">
        {/* Not "Notifications": the toasts' region has that name. */}
        Notification e-mails
      </h2>
      <p className="mt-1 text-sm text-slate-600">Everything shows in your notifications in the app. Choose what also comes by e-mail.</p>
      {preferences.isPending ? <Spinner className="mt-4 size-5" /> : null}
      {preferences.isError ? <LoadFailed message="Your notification settings could not be loaded." onRetry={() => void preferences.refetch()} /> : null}
      {preferences.data ? <SettingsForm key={JSON.stringify(preferences.data)} labelledBy={headingId} initial={preferences.data.preferences} /> : null}
    </section>
  );
}

function SettingsForm({ initial, labelledBy }: { initial: NotificationPreference[]; labelledBy: string }) {
  const [choices, setChoices] = useState<Record<NotificationKind, NotificationChannel>>(
    () => Object.fromEntries(initial.map((p) => [p.kind, p.channel])) as Record<NotificationKind, NotificationChannel>,
  );
  const save = useUpdateNotificationPreferences();
  const toast = useToast();
  const notifyFailure = useFailureNotice();
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const preferences = initial.filter((p) => !p.fixed).map((p) => ({ kind: p.kind, channel: choices[p.kind] }));
    save.mutate(
      { preferences },
      {
        onSuccess: () => toast({ title: 'Success!', description: 'Your notification settings have been saved.' }),
        onError: (error) => notifyFailure('Saving the notification settings failed', error),
      },
    );
  };
  return (
    <form onSubmit={onSubmit} aria-labelledby={labelledBy} aria-busy={save.isPending} className="mt-4">
      <ul className="divide-y divide-slate-200">
        {initial.map((p) => (
          <li key={p.kind}>
            <fieldset className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between">
              <legend className="float-left text-sm font-medium text-slate-800 sm:w-64">{NOTIFICATION_KIND_LABELS[p.kind]}</legend>
              {p.fixed ? (
                <p className="text-sm text-slate-600">Always by e-mail: the link is only in the mail.</p>
              ) : (
                <div className="flex flex-wrap gap-x-5 gap-y-2">
                  {(['in_app', 'email'] as const).map((channel) => (
                    <label key={channel} className="inline-flex min-h-10 items-center gap-2 text-sm text-slate-800">
                      <input
                        type="radio"
                        name={`channel-${p.kind}`}
                        value={channel}
                        checked={choices[p.kind] === channel}
                        onChange={() => setChoices((current) => ({ ...current, [p.kind]: channel }))}
                        className="size-4 accent-navy-700"
                      />
                      {channel === 'in_app' ? 'In the app only' : 'E-mail too'}
                    </label>
                  ))}
                </div>
              )}
            </fieldset>
          </li>
        ))}
      </ul>
      <Button type="submit" className="mt-4" disabled={save.isPending}>
        {save.isPending ? <Spinner /> : null}
        Save notification settings
      </Button>
    </form>
  );
}
