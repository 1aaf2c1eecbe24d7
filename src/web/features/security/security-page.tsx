import '../../lib/zod-config';
import { useState, type FormEvent, type ReactNode } from 'react';
import { requiresMfa } from '../../../shared/domain/access';
import { PasswordSchema } from '../../../shared/schemas/password';
import { ApiError } from '../../lib/api-client';
import { paths } from '../../lib/paths';
import { useDocumentTitle } from '../../lib/use-page-title';
import { Button, ButtonLink } from '../../ui/button';
import { TextField } from '../../ui/field';
import { NewPasswordField } from '../../ui/new-password-field';
import { Spinner } from '../../ui/spinner';
import { useErrorNotice, useToast } from '../../ui/toast';
import { useMe } from '../app-shell/me-context';
import { changePassword, disableTwoFactor, regenerateBackupCodes } from './api/two-factor';
import { BackupCodes } from './components/backup-codes';

function Card({ title, children }: { title: string; children: ReactNode }) {
  const id = `card-${title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <section aria-labelledby={id} className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
      <h2 id={id} className="text-lg font-semibold text-slate-900">
        {title}
      </h2>
      <div className="mt-3">{children}</div>
    </section>
  );
}

/** A small form that asks for one thing and reports field errors next to it. */
function useSubmit<T>(run: (form: FormData) => Promise<T>, onDone: (result: T) => void, messages: { failed: string; wrongPassword?: string; passwordField?: string }) {
  const notifyError = useErrorNotice();
  const [submitting, setSubmitting] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting) return;
    const form = event.currentTarget;
    setSubmitting(true);
    setErrors({});
    try {
      onDone(await run(new FormData(form)));
      form.reset();
    } catch (caught) {
      if (caught instanceof ApiError && caught.fieldErrors.length > 0) setErrors(Object.fromEntries(caught.fieldErrors.map((issue) => [issue.field, issue.message])));
      else if (caught instanceof ApiError && caught.status === 400 && messages.wrongPassword) setErrors({ [messages.passwordField ?? 'password']: messages.wrongPassword });
      else if (caught instanceof ApiError && caught.status === 429) setErrors({ [messages.passwordField ?? 'password']: 'Too many attempts. Wait a minute, then try again.' });
      else notifyError(messages.failed, caught);
    } finally {
      setSubmitting(false);
    }
  }
  return { submitting, errors, onSubmit };
}

/** The person's security: two-step verification, backup codes, and their password. */
export default function SecurityPage() {
  useDocumentTitle('Security');
  const { me, refreshMe } = useMe();
  const toast = useToast();
  const [newCodes, setNewCodes] = useState<string[] | null>(null);
  // Owners, assistants, brokers and platform admins must keep two-step verification on.
  const required = requiresMfa(me);

  const codes = useSubmit(
    (form) => regenerateBackupCodes(String(form.get('password') ?? '')),
    (result) => {
      setNewCodes(result.backupCodes);
      toast({ title: 'New backup codes', description: 'Your old backup codes no longer work.' });
    },
    { failed: 'Making new backup codes failed', wrongPassword: 'That is not your password.' },
  );

  const disable = useSubmit(
    (form) => disableTwoFactor(String(form.get('password') ?? '')),
    () => {
      void refreshMe();
      toast({ title: 'Two-step verification is off' });
    },
    { failed: 'Turning off two-step verification failed', wrongPassword: 'That is not your password.' },
  );

  const password = useSubmit(
    async (form) => {
      const newPassword = String(form.get('newPassword') ?? '');
      const checked = PasswordSchema.safeParse(newPassword);
      if (!checked.success) throw new ApiError(400, 'validation_failed', 'Invalid field: newPassword', [{ field: 'newPassword', message: checked.error.issues[0]?.message ?? 'Choose another password' }]);
      return changePassword({ currentPassword: String(form.get('currentPassword') ?? ''), newPassword });
    },
    () => toast({ title: 'Password changed', description: 'Your other sessions were signed out.' }),
    { failed: 'Changing the password failed', wrongPassword: 'That is not your current password.', passwordField: 'currentPassword' },
  );

  return (
    <div className="mx-auto max-w-2xl space-y-6">
      <h1 className="text-2xl font-bold tracking-tight text-slate-900">Security</h1>

      <Card title="Two-step verification">
        {me.mfaEnrolled ? (
          <p className="text-sm text-slate-700">
            <span className="mr-2 inline-flex rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-semibold text-emerald-900">On</span>
            Each sign-in asks for a code from your authenticator app.
          </p>
        ) : (
          <div className="space-y-3">
            <p className="text-sm text-slate-700">
              <span className="mr-2 inline-flex rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900">Off</span>
              Add a code from an authenticator app to every sign-in.
            </p>
            <ButtonLink to={paths.securitySetup}>Set up two-step verification</ButtonLink>
          </div>
        )}
      </Card>

      {me.mfaEnrolled ? (
        <Card title="Backup codes">
          <p className="text-sm text-slate-700">Lost some, or used most? Make ten new ones; the old ones stop working.</p>
          {newCodes ? (
            <div className="mt-4">
              <BackupCodes codes={newCodes} accountEmail={me.user.email} />
            </div>
          ) : (
            <form className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-start" onSubmit={codes.onSubmit} aria-label="New backup codes" aria-busy={codes.submitting}>
              <TextField label="Password" name="password" type="password" autoComplete="current-password" required error={codes.errors.password} className="sm:w-72" />
              <Button type="submit" variant="secondary" className="sm:mt-7" disabled={codes.submitting}>
                {codes.submitting ? <Spinner /> : null}
                Make new backup codes
              </Button>
            </form>
          )}
        </Card>
      ) : null}

      {me.mfaEnrolled && !required ? (
        <Card title="Turn off two-step verification">
          <form className="flex flex-col gap-3 sm:flex-row sm:items-start" onSubmit={disable.onSubmit} aria-label="Turn off two-step verification" aria-busy={disable.submitting}>
            <TextField label="Password" name="password" type="password" autoComplete="current-password" required error={disable.errors.password} className="sm:w-72" />
            <Button type="submit" variant="secondary" className="sm:mt-7" disabled={disable.submitting}>
              Turn off
            </Button>
          </form>
        </Card>
      ) : null}
      {me.mfaEnrolled && required ? (
        <p className="text-sm text-slate-600">
          {me.broker || me.team
            ? "Two-step verification stays on for brokers and their teams: loan files hold borrowers' financial records."
            : "Two-step verification stays on for platform admins: the admin console holds people's personal data and the audit log."}
        </p>
      ) : null}

      <Card title="Password">
        <form className="space-y-4" onSubmit={password.onSubmit} aria-label="Change password" aria-busy={password.submitting}>
          <TextField label="Current password" name="currentPassword" type="password" autoComplete="current-password" required error={password.errors.currentPassword} />
          <NewPasswordField label="New password" name="newPassword" hint="At least 12 characters. A few unrelated words make a strong, memorable password." error={password.errors.newPassword} />
          <Button type="submit" disabled={password.submitting}>
            {password.submitting ? <Spinner /> : null}
            Change password
          </Button>
        </form>
      </Card>
    </div>
  );
}
