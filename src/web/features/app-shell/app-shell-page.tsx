import { useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { SESSION_CHECK_INTERVAL_MS } from '../../../shared/constants';
import type { Me } from '../../../shared/schemas/me';
import { ApiError } from '../../lib/api-client';
import { paths } from '../../lib/paths';
import { usePublicConfig } from '../../lib/public-config';
import { Button } from '../../ui/button';
import { LogoMark } from '../../ui/logo';
import { Spinner } from '../../ui/spinner';
import { useToast } from '../../ui/toast';
import { signOut } from '../auth/api/sign-out';
import { getMe } from './api/get-me';

const SESSION_ENDED = 'Your session has ended. Please sign in again.';

/**
 * The signed-in app at /app: who is signed in, the navigation, sign-out. It
 * checks the session every 30 seconds (seed §9); each check also lets the
 * server slide the session's expiry, and an ended session goes to /signin.
 */
export default function AppShellPage() {
  const { brandName } = usePublicConfig();
  const navigate = useNavigate();
  const toast = useToast();
  const [me, setMe] = useState<Me | null>(null);

  const toSignIn = useCallback((notice?: string) => navigate(paths.signIn, { replace: true, state: notice ? { notice } : null }), [navigate]);

  useEffect(() => {
    document.title = `Pipeline — ${brandName}`;
    let stopped = false;
    const check = (first: boolean) =>
      getMe().then(
        (result) => !stopped && setMe(result),
        (error: unknown) => {
          if (stopped) return;
          if (error instanceof ApiError && error.status === 401) toSignIn(first ? 'Please sign in to continue.' : SESSION_ENDED);
          // A network blip is not a signed-out session: the next check decides.
        },
      );
    void check(true);
    const timer = setInterval(() => void check(false), SESSION_CHECK_INTERVAL_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [brandName, toSignIn]);

  async function onSignOut() {
    try {
      await signOut();
      toSignIn('You have signed out.');
    } catch (error) {
      console.error('Sign-out failed:', error);
      toast({ title: 'Error', description: 'Something went wrong. Please try again.', variant: 'destructive' });
    }
  }

  if (!me) {
    return (
      <main className="flex min-h-screen items-center justify-center text-slate-600" aria-busy="true">
        <Spinner className="size-6" />
        <span className="sr-only">Loading</span>
      </main>
    );
  }

  return (
    <div className="min-h-screen bg-slate-50">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4 sm:px-6">
          <div className="flex items-center gap-6">
            <span className="flex items-center gap-2">
              <LogoMark />
              <span className="text-lg font-bold tracking-tight text-navy-900">{brandName}</span>
            </span>
            <nav aria-label="App">
              <a href={paths.app} aria-current="page" className="rounded-md px-3 py-2 text-sm font-semibold text-navy-900">
                Pipeline
              </a>
            </nav>
          </div>
          <div className="flex items-center gap-3">
            <span className="hidden text-right text-sm sm:block">
              <span className="block font-semibold text-slate-900">{me.user.name}</span>
              <span className="block text-slate-600">{me.platformAdmin ? 'Platform admin' : me.user.email}</span>
            </span>
            <Button variant="secondary" onClick={onSignOut}>
              Sign out
            </Button>
          </div>
        </div>
      </header>
      <main className="mx-auto max-w-6xl px-4 py-10 sm:px-6">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">Pipeline</h1>
        <section aria-labelledby="first-run" className="mt-8 rounded-2xl border border-dashed border-slate-300 bg-white p-10 text-center">
          <h2 id="first-run" className="text-lg font-semibold text-slate-900">
            No loan files yet
          </h2>
          <p className="mx-auto mt-2 max-w-md text-slate-600">
            Every open loan file of your team will show here, with its stage, progress and outstanding documents.
          </p>
        </section>
      </main>
    </div>
  );
}
