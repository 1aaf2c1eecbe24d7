import { Link, useNavigate } from 'react-router';
import { CreateTeamSchema, TEAM_NAME_MAX } from '../../../shared/schemas/teams';
import { useFailureNotice, useMe } from '../../lib/me-context';
import { paths } from '../../lib/paths';
import { useAppForm } from '../../lib/use-app-form';
import { useDocumentTitle } from '../../lib/use-page-title';
import { Button } from '../../ui/button';
import { TextField } from '../../ui/field';
import { Spinner } from '../../ui/spinner';
import { useToast } from '../../ui/toast';
import { useCreateTeam } from './api/create-team';

/** /app/team/new: a broker founds their team, becomes its owner, and goes on to its branding. */
export default function CreateTeamPage() {
  useDocumentTitle('Create your team');
  const me = useMe();
  const navigate = useNavigate();
  const toast = useToast();
  const notifyFailure = useFailureNotice();
  const createTeam = useCreateTeam();
  const { form, onSubmit, submitting, field } = useAppForm({
    schema: CreateTeamSchema,
    defaultValues: { name: '' },
    onSubmit: async (values) => {
      const team = await createTeam.mutateAsync(values);
      toast({ title: 'Success!', description: `${team.name} has been created. Now make it yours: add your logo and colour.` });
      navigate(paths.teamBranding);
    },
    onFailure: (failure) => notifyFailure('Creating the team failed', failure),
  });
  // Busy from the request until the branding page opens, so the form never flashes back.
  const busy = submitting || form.formState.isSubmitSuccessful;

  if (me.team && !busy) {
    return (
      <div className="mx-auto max-w-xl">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">Create your team</h1>
        <p className="mt-4 rounded-lg border border-slate-200 bg-white px-4 py-3 text-slate-700">
          You already belong to <strong className="font-semibold text-slate-900">{me.team.name}</strong>. A person works in one team at a time.{' '}
          <Link to={paths.team} className="font-semibold text-navy-700 underline underline-offset-4 hover:text-navy-900">
            Go to your team
          </Link>
        </p>
      </div>
    );
  }

  return (
    <div className="mx-auto max-w-xl">
      <h1 className="text-2xl font-bold tracking-tight text-slate-900">Create your team</h1>
      <p className="mt-2 text-slate-600">
        Your team holds your loan files and the assistants who work them with you. Borrowers see its name and logo on every e-mail and page you share.
      </p>
      <form
        onSubmit={onSubmit}
        noValidate
        aria-label="Create your team"
        aria-busy={busy}
        className="mt-8 space-y-6 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
      >
        <TextField
          label="Team name"
          required
          autoComplete="organization"
          maxLength={TEAM_NAME_MAX}
          placeholder="Harbor Lending"
          hint="Usually your brokerage's name. You can change it later."
          {...field('name')}
        />
        <Button type="submit" disabled={busy}>
          {busy ? <Spinner /> : null}
          Create team
        </Button>
      </form>
    </div>
  );
}
