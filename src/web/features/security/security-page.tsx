import { useState, type ReactNode } from 'react';
import { z } from 'zod';
import { requiresMfa } from '../../../shared/domain/access';
import { PasswordSchema } from '../../../shared/schemas/password';
import { text } from '../../../shared/schemas/text';
import type { ApiError } from '../../lib/api-client';
import { useFailureNotice, useMe } from '../../lib/me-context';
import { paths } from '../../lib/paths';
import { useAppForm, type FieldExplanation } from '../../lib/use-app-form';
import { useDocumentTitle } from '../../lib/use-page-title';
import { Button, ButtonLink } from '../../ui/button';
import { TextField } from '../../ui/field';
import { NewPasswordField } from '../../ui/new-password-field';
import { Spinner } from '../../ui/spinner';
import { useToast } from '../../ui/toast';
import { useChangePassword } from './api/change-password';
import { useDisableTwoFactor } from './api/disable-two-factor';
import { useRegenerateBackupCodes } from './api/regenerate-backup-codes';
import { BackupCodes } from './components/backup-codes';

/** A change that better-auth allows only with the account's password (better-auth checks it). */
const ConfirmPasswordSchema = z.object({ password: text('Password') });
const ChangePasswordSchema = z.object({ currentPassword: text('Current password'), newPassword: PasswordSchema });

/**
 * better-auth's answers about a password, at its field: the policy refusing
 * the new one (its field error), a wrong password (400), too many attempts.
 */
function passwordAnswer<TValues extends Record<string, string>>(field: FieldExplanation<TValues>['field'], wrong: string) {
  return (error: ApiError): FieldExplanation<TValues> | null => {
    const issue = error.fieldErrors[0];
    if (issue) return { field: issue.field as FieldExplanation<TValues>['field'], message: issue.message };
    if (error.status === 400) return { field, message: wrong };
    if (error.status === 429) return { field, message: 'Too many attempts. Wait a minute, then try again.' };
    return null;
  };
}

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

/** The person's security: two-step verification, backup codes, and their password. */
export default function SecurityPage() {
  useDocumentTitle('Security');
  const me = useMe();
  const toast = useToast();
  const notifyFailure = useFailureNotice();
  const regenerateBackupCodes = useRegenerateBackupCodes();
  const disableTwoFactor = useDisableTwoFactor();
  const changePassword = useChangePassword();
  const [newCodes, setNewCodes] = useState<string[] | null>(null);
  // Owners, assistants, brokers and platform admins must keep two-step verification on.
  const required = requiresMfa(me);

  const codes = useAppForm({
    schema: ConfirmPasswordSchema,
    defaultValues: { password: '' },
    onSubmit: async ({ password }) => {
      const result = await regenerateBackupCodes.mutateAsync(password);
      setNewCodes(result.backupCodes);
      toast({ title: 'New backup codes', description: 'Your old backup codes no longer work.' });
    },
    explain: passwordAnswer('password', 'That is not your password.'),
    onFailure: (failure) => notifyFailure('Making new backup codes failed', failure),
  });

  const disable = useAppForm({
    schema: ConfirmPasswordSchema,
    defaultValues: { password: '' },
    onSubmit: async ({ password }, form) => {
      await disableTwoFactor.mutateAsync(password);
      form.reset();
      toast({ title: 'Two-step verification is off' });
    },
    explain: passwordAnswer('password', 'That is not your password.'),
    onFailure: (failure) => notifyFailure('Turning off two-step verification failed', failure),
  });

  const password = useAppForm({
    schema: ChangePasswordSchema,
    defaultValues: { currentPassword: '', newPassword: '' },
    onSubmit: async (values, form) => {
      await changePassword.mutateAsync(values);
      form.reset();
      toast({ title: 'Password changed', description: 'Your other sessions were signed out.' });
    },
    explain: passwordAnswer('currentPassword', 'That is not your current password.'),
    onFailure: (failure) => notifyFailure('Changing the password failed', failure),
  });

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
            <form
              className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-start"
              onSubmit={codes.onSubmit}
              aria-label="New backup codes"
              aria-busy={codes.submitting}
            >
              <TextField label="Password" type="password" autoComplete="current-password" required {...codes.field('password')} className="sm:w-72" />
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
          <form
            className="flex flex-col gap-3 sm:flex-row sm:items-start"
            onSubmit={disable.onSubmit}
            aria-label="Turn off two-step verification"
            aria-busy={disable.submitting}
          >
            <TextField label="Password" type="password" autoComplete="current-password" required {...disable.field('password')} className="sm:w-72" />
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
          <TextField label="Current password" type="password" autoComplete="current-password" required {...password.field('currentPassword')} />
          <NewPasswordField
            label="New password"
            hint="At least 12 characters. A few unrelated words make a strong, memorable password."
            {...password.field('newPassword')}
          />
          <Button type="submit" disabled={password.submitting}>
            {password.submitting ? <Spinner /> : null}
            Change password
          </Button>
        </form>
      </Card>
    </div>
  );
}
