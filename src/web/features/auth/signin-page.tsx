import { useState, useSyncExternalStore, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { ApiError } from '../../lib/api-client';
import { paths } from '../../lib/paths';
import { usePageTitle } from '../../lib/use-page-title';
import { Button } from '../../ui/button';
import { TextField } from '../../ui/field';
import { LogoMark } from '../../ui/logo';
import { Spinner } from '../../ui/spinner';
import { useErrorNotice } from '../../ui/toast';
import { signIn } from './api/sign-in';
import { AuthCardLayout } from '../../ui/auth-card-layout';
import { TwoFactorChallenge } from '../../ui/two-factor-challenge';

const noSubscription = () => () => {};

/**
 * The notice another page sent along (`navigate(…, { state: { notice } })`).
 * The prerendered HTML has none, so it appears only after hydration: a
 * reload keeps history state, and reading it during hydration would make the
 * first render differ from the HTML.
 */
function useNavigationNotice(): string | undefined {
  const state = useLocation().state as { notice?: string } | null;
  const hydrated = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  return hydrated ? state?.notice : undefined;
}

/** One message whether the address is unknown or the password wrong: nobody learns who has an account. */
const WRONG_CREDENTIALS = 'The e-mail or password is incorrect.';

export default function SignInPage() {
  usePageTitle('signIn');
  const navigate = useNavigate();
  const notifyError = useErrorNotice();
  const locationNotice = useNavigationNotice();
  const [restartNotice, setRestartNotice] = useState<string | null>(null);
  const notice = restartNotice ?? locationNotice;
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [step, setStep] = useState<'password' | 'code'>('password');

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting) return;
    const form = new FormData(event.currentTarget);
    setSubmitting(true);
    setError(null);
    try {
      const result = await signIn({ email: String(form.get('email')), password: String(form.get('password')) });
      if (result?.twoFactorRedirect) {
        setSubmitting(false);
        setStep('code');
        return;
      }
      navigate(paths.app);
    } catch (caught) {
      setSubmitting(false);
      if (caught instanceof ApiError && (caught.status === 401 || caught.status === 400)) setError(WRONG_CREDENTIALS);
      else if (caught instanceof ApiError && caught.status === 429) setError('Too many attempts. Wait a minute, then try again.');
      // The server says why it refused (e.g. the page was opened at an address other than PUBLIC_URL, and where to open it).
      else if (caught instanceof ApiError && caught.status === 403) setError(caught.message);
      else {
        notifyError('Sign-in failed', caught);
      }
    }
  }

  return (
    <AuthCardLayout>
      <div className="flex flex-col items-center text-center">
        <LogoMark className="size-10" />
        <h1 className="mt-4 text-2xl font-bold tracking-tight text-slate-900">{step === 'password' ? 'Sign In' : 'Two-step verification'}</h1>
        <p className="mt-1 text-sm text-slate-600">Welcome back. Sign in to your loan files.</p>
      </div>
      {notice ? (
        <p role="status" className="mt-6 rounded-lg border border-navy-200 bg-navy-50 px-4 py-3 text-sm text-navy-900">
          {notice}
        </p>
      ) : null}
      {step === 'code' ? (
        <TwoFactorChallenge
          onVerified={() => navigate(paths.app)}
          onRestart={(message) => {
            setRestartNotice(message);
            setStep('password');
          }}
        />
      ) : (
        // POST: without JavaScript the browser never puts the password into the address (a submit before the app is there waits for it).
        <form method="post" className="mt-8 space-y-5" onSubmit={onSubmit} aria-label="Sign In" aria-busy={submitting}>
          <TextField label="Email" name="email" type="email" autoComplete="email" required placeholder="you@example.com" />
          <TextField label="Password" name="password" type="password" autoComplete="current-password" required />
          {error ? (
            <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
              {error}
            </p>
          ) : null}
          <div className="flex justify-end">
            <Link to={paths.forgotPassword} className="text-sm font-medium text-navy-700 hover:text-navy-900 hover:underline">
              Forgot your password?
            </Link>
          </div>
          <Button type="submit" size="lg" className="w-full" disabled={submitting}>
            {submitting ? <Spinner /> : null}
            Sign In
          </Button>
        </form>
      )}
      <p className="mt-6 text-center text-sm text-slate-600">
        Don&apos;t have an account?{' '}
        <Link to={paths.joinWaitlist} className="font-semibold text-navy-700 hover:text-navy-900 hover:underline">
          Join the waitlist
        </Link>
      </p>
    </AuthCardLayout>
  );
}
