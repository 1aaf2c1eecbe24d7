import '../../lib/zod-config';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { RequestPasswordResetSchema } from '../../../shared/schemas/password-reset';
import { ApiError } from '../../lib/api-client';
import { paths } from '../../lib/paths';
import { useDocumentTitle } from '../../lib/use-page-title';
import { AuthCardLayout } from '../../ui/auth-card-layout';
import { Button } from '../../ui/button';
import { TextField } from '../../ui/field';
import { LogoMark } from '../../ui/logo';
import { Spinner } from '../../ui/spinner';
import { useErrorNotice } from '../../ui/toast';
import { requestPasswordReset } from './api/request-password-reset';

export default function ForgotPasswordPage() {
  const notifyError = useErrorNotice();
  const [status, setStatus] = useState<'idle' | 'sending' | 'sent'>('idle');
  const [error, setError] = useState<string | undefined>();

  useDocumentTitle('Reset your password');

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = RequestPasswordResetSchema.safeParse({ email: new FormData(event.currentTarget).get('email') });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    setError(undefined);
    setStatus('sending');
    try {
      await requestPasswordReset(parsed.data.email);
      setStatus('sent');
    } catch (caught) {
      setStatus('idle');
      if (caught instanceof ApiError && caught.status === 429) setError('Too many requests for this address. Try again later.');
      else {
        notifyError('Password reset request failed', caught);
      }
    }
  }

  return (
    <AuthCardLayout>
      <div className="flex flex-col items-center text-center">
        <LogoMark className="size-10" />
        <h1 className="mt-4 text-2xl font-bold tracking-tight text-slate-900">Reset your password</h1>
      </div>
      {status === 'sent' ? (
        <p role="status" className="mt-8 rounded-lg border border-accent-100 bg-accent-50 px-4 py-3 text-sm text-accent-700">
          If an account exists for that address, we&apos;ve sent it a link to choose a new password. The link works once, for one hour.
        </p>
      ) : (
        <form className="mt-8 space-y-5" onSubmit={onSubmit} aria-label="Reset your password" noValidate>
          <p className="text-sm text-slate-600">Enter the e-mail address of your account and we&apos;ll send you a link to choose a new password.</p>
          <TextField label="Email" name="email" type="email" autoComplete="email" required error={error} />
          <Button type="submit" size="lg" className="w-full" disabled={status === 'sending'}>
            {status === 'sending' ? <Spinner /> : null}
            Send reset link
          </Button>
        </form>
      )}
      <p className="mt-6 text-center text-sm text-slate-600">
        <Link to={paths.signIn} className="font-semibold text-navy-700 hover:text-navy-900 hover:underline">
          Back to Sign In
        </Link>
      </p>
    </AuthCardLayout>
  );
}
