import '../../lib/zod-config';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { ResetPasswordSchema } from '../../../shared/schemas/password-reset';
import { ApiError } from '../../lib/api-client';
import { paths } from '../../lib/paths';
import { useDocumentTitle } from '../../lib/use-page-title';
import { AuthCardLayout } from '../../ui/auth-card-layout';
import { Button } from '../../ui/button';
import { LogoMark } from '../../ui/logo';
import { NewPasswordField } from '../../ui/new-password-field';
import { Spinner } from '../../ui/spinner';
import { useErrorNotice } from '../../ui/toast';
import { resetPassword } from './api/reset-password';

/** The link from the reset e-mail (/reset-password#<token>): choose a new password. */
export default function ResetPasswordPage() {
  const navigate = useNavigate();
  const notifyError = useErrorNotice();
  const [token] = useState(() => decodeURIComponent(window.location.hash.slice(1)));
  const [error, setError] = useState<string | undefined>();
  const [invalid, setInvalid] = useState(!token);
  const [submitting, setSubmitting] = useState(false);

  useDocumentTitle('Choose a new password');

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = ResetPasswordSchema.safeParse({ token, newPassword: new FormData(event.currentTarget).get('newPassword') });
    if (!parsed.success) {
      setError(parsed.error.issues.find((i) => i.path[0] === 'newPassword')?.message);
      return;
    }
    setError(undefined);
    setSubmitting(true);
    try {
      await resetPassword(parsed.data);
      navigate(paths.signIn, { replace: true, state: { notice: 'Your password has been changed. Sign in with your new password.' } });
    } catch (caught) {
      setSubmitting(false);
      const field = caught instanceof ApiError ? caught.fieldErrors.find((f) => f.field === 'newPassword') : undefined;
      if (field) setError(field.message);
      else if (caught instanceof ApiError && caught.status === 400) setInvalid(true);
      else {
        notifyError('Password reset failed', caught);
      }
    }
  }

  return (
    <AuthCardLayout>
      <div className="flex flex-col items-center text-center">
        <LogoMark className="size-10" />
        <h1 className="mt-4 text-2xl font-bold tracking-tight text-slate-900">Choose a new password</h1>
      </div>
      {invalid ? (
        <div role="alert" className="mt-8 rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
          <p className="font-semibold">This reset link is not valid or has expired.</p>
          <p className="mt-1">
            <a href={paths.forgotPassword} className="font-semibold underline underline-offset-2">
              Ask for a new link
            </a>
            ; each one works once, for one hour.
          </p>
        </div>
      ) : (
        <form className="mt-8 space-y-5" onSubmit={onSubmit} aria-label="Choose a new password" aria-busy={submitting}>
          <NewPasswordField label="New password" name="newPassword" hint="At least 12 characters. Choosing it signs you out everywhere else." error={error} />
          <Button type="submit" size="lg" className="w-full" disabled={submitting}>
            {submitting ? <Spinner /> : null}
            Change password
          </Button>
        </form>
      )}
    </AuthCardLayout>
  );
}
