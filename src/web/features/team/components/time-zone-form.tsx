import { useId, useMemo } from 'react';
import { z } from 'zod';
import { timeZoneChoices } from '../../../../shared/domain/reminders';
import { TimeZoneSchema } from '../../../../shared/schemas/reminders';
import type { TeamView } from '../../../../shared/schemas/teams';
import { useFailureNotice } from '../../../lib/me-context';
import { useAppForm } from '../../../lib/use-app-form';
import { Button } from '../../../ui/button';
import { SelectField } from '../../../ui/field';
import { Spinner } from '../../../ui/spinner';
import { useToast } from '../../../ui/toast';
import { useUpdateTeam } from '../api/update-team';

const TimeZoneFormSchema = z.object({ timeZone: TimeZoneSchema });

/**
 * The team's time zone (owners): reminders for owed documents go on its
 * weekdays during its office hours, never at night or on weekends there.
 */
export function TimeZoneForm({ team }: { team: TeamView }) {
  const toast = useToast();
  const notifyFailure = useFailureNotice();
  const headingId = useId();
  const updateTeam = useUpdateTeam(team.id);
  const zones = useMemo(() => {
    const all = timeZoneChoices();
    return all.includes(team.timeZone) ? all : [team.timeZone, ...all];
  }, [team.timeZone]);
  const { onSubmit, submitting, field } = useAppForm({
    schema: TimeZoneFormSchema,
    defaultValues: { timeZone: team.timeZone },
    onSubmit: async (values, { reset }) => {
      const saved = await updateTeam.mutateAsync(values);
      reset({ timeZone: saved.timeZone });
      toast({ title: 'Success!', description: `Your time zone is now ${saved.timeZone}.` });
    },
    onFailure: (failure) => notifyFailure('Saving the time zone failed', failure),
  });

  return (
    <section aria-labelledby={headingId} className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
      <h2 id={headingId} className="text-lg font-semibold text-slate-900">
        Time zone
      </h2>
      <p className="mt-1 text-sm text-slate-600">Reminders for owed documents go out on weekdays between 8:00 and 18:00 in this time zone.</p>
      <form onSubmit={onSubmit} noValidate aria-labelledby={headingId} aria-busy={submitting} className="mt-5 space-y-5">
        <SelectField label="Team time zone" required {...field('timeZone')}>
          {zones.map((zone) => (
            <option key={zone} value={zone}>
              {zone.replace(/_/g, ' ')}
            </option>
          ))}
        </SelectField>
        <Button type="submit" disabled={submitting}>
          {submitting ? <Spinner /> : null}
          Save time zone
        </Button>
      </form>
    </section>
  );
}
