import { useId, useState } from 'react';
import { useWatch } from 'react-hook-form';
import { TEAM_NAME_MAX, UpdateTeamSchema, type TeamView, type UpdateTeam } from '../../../shared/schemas/teams';
import { useFailureNotice, useMe } from '../../lib/me-context';
import { useAppForm } from '../../lib/use-app-form';
import { useDocumentTitle } from '../../lib/use-page-title';
import { Button } from '../../ui/button';
import { TextField } from '../../ui/field';
import { Spinner } from '../../ui/spinner';
import { useToast } from '../../ui/toast';
import { useUpdateTeam } from './api/update-team';
import { BrandPreview } from './components/brand-preview';
import { DscrBandsForm } from './components/dscr-bands-form';
import { LogoPanel } from './components/logo-panel';
import { TimeZoneForm } from './components/time-zone-form';
import { TeamUnavailable } from './team-unavailable';

const HEX_COLOUR = /^#[0-9a-fA-F]{6}$/;

/** /app/team/branding (owners): the team's name, accent colour and logo, with a live preview. */
export default function TeamBrandingPage() {
  useDocumentTitle('Branding — Team');
  const me = useMe();
  if (!me.team) return <TeamUnavailable />;
  // A new form per team: another team's values never linger.
  return <Branding key={me.team.id} team={me.team} />;
}

function Branding({ team }: { team: TeamView }) {
  const toast = useToast();
  const notifyFailure = useFailureNotice();
  const pickerId = useId();
  const updateTeam = useUpdateTeam(team.id);
  // The logo file chosen but not uploaded yet, shown in the preview.
  const [logoPreview, setLogoPreview] = useState<string | null>(null);
  const { form, onSubmit, submitting, field } = useAppForm({
    schema: UpdateTeamSchema,
    defaultValues: { name: team.name, accentColor: team.accentColor },
    onSubmit: async (values, { reset }) => {
      const changes: UpdateTeam = {
        ...(values.name !== team.name ? { name: values.name } : {}),
        ...(values.accentColor !== team.accentColor ? { accentColor: values.accentColor } : {}),
      };
      if (Object.keys(changes).length === 0) {
        toast({ title: 'Nothing to save', description: 'The name and accent colour are as saved.' });
        return;
      }
      // Resolves once the header shows the new branding.
      const saved = await updateTeam.mutateAsync(changes);
      reset({ name: saved.name, accentColor: saved.accentColor });
      toast({ title: 'Success!', description: 'Your branding has been saved.' });
    },
    onFailure: (failure) => notifyFailure('Saving the branding failed', failure),
  });
  const [name = '', accent = ''] = useWatch({ control: form.control, name: ['name', 'accentColor'] });

  const validAccent = HEX_COLOUR.test(accent.trim()) ? accent.trim().toLowerCase() : null;
  const previewAccent = validAccent ?? team.accentColor;

  function pickAccent(value: string) {
    form.setValue('accentColor', value, { shouldDirty: true });
    form.clearErrors('accentColor');
  }

  return (
    <>
      <p className="text-sm font-semibold text-navy-700">{team.name}</p>
      <h1 className="mt-1 text-2xl font-bold tracking-tight text-slate-900">Branding</h1>
      <p className="mt-2 max-w-2xl text-slate-600">
        Your team&apos;s name, colour and logo head the app for your team and every e-mail you, your assistants and your borrowers receive.
      </p>

      <div className="mt-8 grid gap-8 lg:grid-cols-[minmax(0,1fr)_minmax(0,24rem)] lg:items-start">
        <div className="min-w-0 space-y-8">
          <form
            onSubmit={onSubmit}
            noValidate
            aria-label="Name and colour"
            aria-busy={submitting}
            className="space-y-6 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
          >
            <TextField label="Team name" required autoComplete="organization" maxLength={TEAM_NAME_MAX} {...field('name')} />
            <div className="flex items-start gap-3">
              <div className="shrink-0">
                <label htmlFor={pickerId} className="block text-sm font-medium text-slate-800">
                  Colour picker
                </label>
                <input
                  id={pickerId}
                  type="color"
                  value={previewAccent}
                  onChange={(event) => pickAccent(event.target.value)}
                  className="mt-1.5 block h-11 w-16 cursor-pointer rounded-lg border border-slate-300 bg-white p-1"
                />
              </div>
              <TextField
                label="Accent colour"
                required
                autoComplete="off"
                spellCheck={false}
                maxLength={7}
                placeholder="#1d4ed8"
                {...field('accentColor')}
                hint="A hex colour like #1d4ed8. It shows as a stripe above your team's pages and e-mails."
                className="min-w-0 flex-1"
              />
            </div>
            <Button type="submit" disabled={submitting}>
              {submitting ? <Spinner /> : null}
              Save branding
            </Button>
          </form>

          <LogoPanel team={team} onPreview={setLogoPreview} />

          <DscrBandsForm team={team} />

          <TimeZoneForm team={team} />
        </div>

        <div className="lg:sticky lg:top-6">
          <BrandPreview name={name} accentColor={previewAccent} logoSrc={logoPreview ?? team.logoUrl} />
        </div>
      </div>
    </>
  );
}
