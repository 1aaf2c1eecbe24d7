import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import '../../lib/zod-config';
import { CreateTeamSchema, TEAM_NAME_MAX } from '../../../shared/schemas/teams';
import { toFieldIssues } from '../../../shared/schemas/validation';
import { ApiError } from '../../lib/api-client';
import { paths } from '../../lib/paths';
import { useDocumentTitle } from '../../lib/use-page-title';
import { Button } from '../../ui/button';
import { TextField } from '../../ui/field';
import { Spinner } from '../../ui/spinner';
import { useToast } from '../../ui/toast';
import { useFailureNotice, useMe } from '../app-shell/me-context';
import { createTeam } from './api/create-team';

/** /app/team/new: a broker founds their team, becomes its owner, and goes on to its branding. */
export default function CreateTeamPage() {
  useDocumentTitle('Create your team');
  const { me, refreshMe } = useMe();
  const navigate = useNavigate();
  const toast = useToast();
  const notifyFailure = useFailureNotice();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | undefined>();
  // Stays true from the request until the branding page opens, so the form never flashes back.
  const [submitting, setSubmitting] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting) return;
    const parsed = CreateTeamSchema.safeParse({ name });
    if (!parsed.success) {
      setError(toFieldIssues(parsed.error)[0]?.message);
      return;
    }
    setError(undefined);
    setSubmitting(true);
    try {
      const team = await createTeam(parsed.data);
      await refreshMe();
      toast({ title: 'Success!', description: `${team.name} has been created. Now make it yours: add your logo and colour.` });
      navigate(paths.teamBranding);
    } catch (failure) {
      setSubmitting(false);
      if (failure instanceof ApiError) {
        const issue = failure.fieldErrors.find((f) => f.field === 'name');
        if (issue) setError(issue.message);
        // Already in a team (another tab founded it): the app should show it.
        if (failure.code === 'conflict') void refreshMe();
      }
      notifyFailure('Creating the team failed', failure);
    }
  }

  if (me.team && !submitting) {
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
      <form onSubmit={onSubmit} noValidate aria-label="Create your team" aria-busy={submitting} className="mt-8 space-y-6 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
        <TextField
          label="Team name"
          name="name"
          required
          autoComplete="organization"
          maxLength={TEAM_NAME_MAX}
          placeholder="Harbor Lending"
          hint="Usually your brokerage's name. You can change it later."
          value={name}
          onChange={(event) => {
            setName(event.target.value);
            if (error) setError(undefined);
          }}
          error={error}
        />
        <Button type="submit" disabled={submitting}>
          {submitting ? <Spinner /> : null}
          Create team
        </Button>
      </form>
    </div>
  );
}
