import { useId } from 'react';
import { z } from 'zod';
import { UpdateTeamSchema, type TeamView } from '../../../../shared/schemas/teams';
import { useFailureNotice } from '../../../lib/me-context';
import { useAppForm } from '../../../lib/use-app-form';
import { Button } from '../../../ui/button';
import { TextField } from '../../../ui/field';
import { Spinner } from '../../../ui/spinner';
import { useToast } from '../../../ui/toast';
import { useUpdateTeam } from '../api/update-team';

/** The thresholds as typed ("1.25"), read as numbers and checked by the API's own schema. */
const DscrBandsSchema = z
  .object({ dscrStrong: z.string(), dscrEligible: z.string() })
  .transform((values): { dscrStrong?: number; dscrEligible?: number } => ({
    dscrStrong: values.dscrStrong.trim() === '' ? Number.NaN : Number(values.dscrStrong.trim()),
    dscrEligible: values.dscrEligible.trim() === '' ? Number.NaN : Number(values.dscrEligible.trim()),
  }))
  .pipe(UpdateTeamSchema);

/**
 * The team's DSCR bands (owners): every loan's ratio is Strong at or above
 * the first, Eligible at or above the second, No-ratio below. Loans are
 * judged against the new bands as soon as they are saved.
 */
export function DscrBandsForm({ team }: { team: TeamView }) {
  const toast = useToast();
  const notifyFailure = useFailureNotice();
  const headingId = useId();
  const updateTeam = useUpdateTeam(team.id);
  const { onSubmit, submitting, field } = useAppForm({
    schema: DscrBandsSchema,
    defaultValues: { dscrStrong: team.dscrThresholds.strong.toFixed(2), dscrEligible: team.dscrThresholds.eligible.toFixed(2) },
    onSubmit: async (values, { reset }) => {
      const saved = await updateTeam.mutateAsync(values);
      reset({ dscrStrong: saved.dscrThresholds.strong.toFixed(2), dscrEligible: saved.dscrThresholds.eligible.toFixed(2) });
      toast({ title: 'Success!', description: 'Your DSCR bands have been saved.' });
    },
    onFailure: (failure) => notifyFailure('Saving the DSCR bands failed', failure),
  });

  return (
    <section aria-labelledby={headingId} className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
      <h2 id={headingId} className="text-lg font-semibold text-slate-900">
        DSCR bands
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        How every loan’s ratio is labelled: Strong at or above the first, Eligible at or above the second, No-ratio below. The loan page’s max loan and rent
        needed aim at Eligible.
      </p>
      <form onSubmit={onSubmit} noValidate aria-labelledby={headingId} aria-busy={submitting} className="mt-5 space-y-5">
        <div className="grid gap-5 sm:grid-cols-2">
          <TextField label="Strong at or above" required inputMode="decimal" autoComplete="off" {...field('dscrStrong')} hint="For example 1.25" />
          <TextField label="Eligible at or above" required inputMode="decimal" autoComplete="off" {...field('dscrEligible')} hint="For example 1.00" />
        </div>
        <Button type="submit" disabled={submitting}>
          {submitting ? <Spinner /> : null}
          Save DSCR bands
        </Button>
      </form>
    </section>
  );
}
