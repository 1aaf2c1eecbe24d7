import { useId } from 'react';
import { Link } from 'react-router';
import { UpdateProfileSchema } from '../../../shared/schemas/me';
import { useFailureNotice, useMe } from '../../lib/me-context';
import { paths } from '../../lib/paths';
import { useAppForm } from '../../lib/use-app-form';
import { useDocumentTitle } from '../../lib/use-page-title';
import { Button } from '../../ui/button';
import { TextField } from '../../ui/field';
import { Spinner } from '../../ui/spinner';
import { useToast } from '../../ui/toast';
import { useUpdateProfile } from './api/update-profile';
import { NotificationSettings } from './notification-settings';

const ROLE_LABELS = { owner: 'Owner', assistant: 'Assistant' } as const;
const linkClasses = 'font-semibold text-navy-700 underline underline-offset-4 hover:text-navy-900';

/** /app/profile: the person's name (editable), e-mail, team and role, the way to their security settings, and how they hear of each kind of notification. */
export default function ProfilePage() {
  useDocumentTitle('Profile');
  const me = useMe();
  const toast = useToast();
  const notifyFailure = useFailureNotice();
  const accountHeadingId = useId();
  const teamHeadingId = useId();
  const updateProfile = useUpdateProfile();
  const { onSubmit, submitting, field } = useAppForm({
    schema: UpdateProfileSchema,
    // A team member's work phone is shown to the borrowers of the loans assigned to them; others have none.
    defaultValues: me.team ? { name: me.user.name, phone: me.workPhone ?? '' } : { name: me.user.name },
    onSubmit: async (values, { reset }) => {
      // Resolves once the header's menu shows the new name.
      const updated = await updateProfile.mutateAsync(values);
      reset(me.team ? { name: updated.user.name, phone: updated.workPhone ?? '' } : { name: updated.user.name });
      toast({ title: 'Success!', description: 'Your profile has been saved.' });
    },
    onFailure: (failure) => notifyFailure('Saving the profile failed', failure),
  });

  return (
    <div className="max-w-2xl">
      <h1 className="text-2xl font-bold tracking-tight text-slate-900">Profile</h1>
      <p className="mt-2 text-slate-600">How you appear to your team and to the borrowers you work with.</p>

      <section aria-labelledby={accountHeadingId} className="mt-8 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
        <h2 id={accountHeadingId} className="text-lg font-semibold text-slate-900">
          Your details
        </h2>
        <form onSubmit={onSubmit} noValidate aria-labelledby={accountHeadingId} aria-busy={submitting} className="mt-4 space-y-6">
          <TextField label="Name" required autoComplete="name" {...field('name')} />
          {me.team ? (
            <TextField
              label="Work phone"
              type="tel"
              autoComplete="tel"
              maxLength={40}
              placeholder="(512) 555-0100"
              hint="Borrowers see it, with your e-mail, on the loans assigned to you. Leave it empty to show only your e-mail."
              {...field('phone')}
            />
          ) : null}
          <TextField
            label="E-mail"
            name="email"
            type="email"
            readOnly
            value={me.user.email}
            hint="You sign in with this address. It cannot be changed here; ask your platform admin if it must change."
          />
          <Button type="submit" disabled={submitting}>
            {submitting ? <Spinner /> : null}
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

      {me.mustEnrolMfa ? null : <NotificationSettings />}
    </div>
  );
}
