import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import '../../lib/zod-config';
import { UpdateProfileSchema } from '../../../shared/schemas/me';
import { toFieldIssues } from '../../../shared/schemas/validation';
import { ApiError } from '../../lib/api-client';
import { paths } from '../../lib/paths';
import { useDocumentTitle } from '../../lib/use-page-title';
import { Button } from '../../ui/button';
import { TextField } from '../../ui/field';
import { Spinner } from '../../ui/spinner';
import { useToast } from '../../ui/toast';
import { useFailureNotice, useMe } from '../app-shell/me-context';
import { updateProfile } from './api/update-profile';

const ROLE_LABELS = { owner: 'Owner', assistant: 'Assistant' } as const;
const linkClasses = 'font-semibold text-navy-700 underline underline-offset-4 hover:text-navy-900';

/** /app/profile: the person's name (editable), e-mail, team and role, and the way to their security settings. */
export default function ProfilePage() {
  useDocumentTitle('Profile');
  const { me, refreshMe } = useMe();
  const toast = useToast();
  const notifyFailure = useFailureNotice();
  const accountHeadingId = useId();
  const teamHeadingId = useId();
  const [name, setName] = useState(me.user.name);
  const [error, setError] = useState<string | undefined>();
  const [saving, setSaving] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (saving) return;
    const parsed = UpdateProfileSchema.safeParse({ name });
    if (!parsed.success) {
      setError(toFieldIssues(parsed.error)[0]?.message);
      return;
    }
    setError(undefined);
    setSaving(true);
    try {
      const updated = await updateProfile(parsed.data);
      setName(updated.user.name);
      // The header's menu shows the new name at once.
      await refreshMe();
      toast({ title: 'Success!', description: 'Your profile has been saved.' });
    } catch (failure) {
      const issue = failure instanceof ApiError ? failure.fieldErrors.find((f) => f.field === 'name') : undefined;
      if (issue) setError(issue.message);
      notifyFailure('Saving the profile failed', failure);
    } finally {
      setSaving(false);
    }
  }

  return (
    <div className="max-w-2xl">
      <h1 className="text-2xl font-bold tracking-tight text-slate-900">Profile</h1>
      <p className="mt-2 text-slate-600">How you appear to your team and to the borrowers you work with.</p>

      <section aria-labelledby={accountHeadingId} className="mt-8 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
        <h2 id={accountHeadingId} className="text-lg font-semibold text-slate-900">
          Your details
        </h2>
        <form onSubmit={onSubmit} noValidate aria-labelledby={accountHeadingId} aria-busy={saving} className="mt-4 space-y-6">
          <TextField
            label="Name"
            name="name"
            required
            autoComplete="name"
            value={name}
            onChange={(event) => {
              setName(event.target.value);
              if (error) setError(undefined);
            }}
            error={error}
          />
          <TextField
            label="E-mail"
            name="email"
            type="email"
            readOnly
            value={me.user.email}
            hint="You sign in with this address. It cannot be changed here; ask your platform admin if it must change."
          />
          <Button type="submit" disabled={saving}>
            {saving ? <Spinner /> : null}
            Save profile
          </Button>
        </form>
      </section>

      <section aria-labelledby={teamHeadingId} className="mt-8 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
        <h2 id={teamHeadingId} className="text-lg font-semibold text-slate-900">
          Team and access
        </h2>
        <dl className="mt-4 grid gap-x-6 gap-y-3 text-sm sm:grid-cols-[12rem_1fr]">
          <dt className="font-medium text-slate-800">Team</dt>
          <dd className="text-slate-700">
            {me.team ? (
              <Link to={paths.team} className={linkClasses}>
                {me.team.name}
              </Link>
            ) : me.broker ? (
              <>
                None yet.{' '}
                <Link to={paths.teamNew} className={linkClasses}>
                  Create your team
                </Link>
              </>
            ) : (
              'None'
            )}
          </dd>
          {me.team ? (
            <>
              <dt className="font-medium text-slate-800">Role</dt>
              <dd className="text-slate-700">{ROLE_LABELS[me.team.role]}</dd>
            </>
          ) : null}
          {me.platformAdmin ? (
            <>
              <dt className="font-medium text-slate-800">Platform</dt>
              <dd className="text-slate-700">Platform admin</dd>
            </>
          ) : null}
          <dt className="font-medium text-slate-800">Two-step verification</dt>
          <dd className="text-slate-700">
            {me.mfaEnrolled ? 'On' : 'Not set up'}.{' '}
            <Link to={paths.security} className={linkClasses}>
              Security settings
            </Link>
          </dd>
        </dl>
      </section>
    </div>
  );
}
