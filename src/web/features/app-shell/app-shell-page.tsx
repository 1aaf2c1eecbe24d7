import './app.css';
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { NavLink, Route, Routes, useNavigate } from 'react-router';
import { SESSION_CHECK_INTERVAL_MS } from '../../../shared/constants';
import type { Me } from '../../../shared/schemas/me';
import { ApiError } from '../../lib/api-client';
import { paths } from '../../lib/paths';
import { usePublicConfig } from '../../lib/public-config';
import { Button } from '../../ui/button';
import { LogoMark } from '../../ui/logo';
import { Spinner } from '../../ui/spinner';
import { useErrorNotice } from '../../ui/toast';
import { signOut } from '../auth/api/sign-out';
import { getMe } from './api/get-me';
import { AppNotFound } from './app-not-found';
import { PipelinePage } from './pipeline-page';

// Only platform admins need the console: its code stays out of everyone else's download.
const AdminWaitlistPage = lazy(() => import('../admin/admin-waitlist-page'));

const navLinkClasses = ({ isActive }: { isActive: boolean }) =>
  `rounded-md px-2 py-2 text-sm font-semibold sm:px-3 ${isActive ? 'bg-navy-50 text-navy-900' : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900'}`;

const SESSION_ENDED = 'Your session has ended. Please sign in again.';

/**
 * The signed-in app at /app/*: who is signed in, the navigation, sign-out, and
 * the page at the address (admin pages for platform admins only). It
 * checks the session every 30 seconds (seed §9); each check also lets the
 * server slide the session's expiry, and an ended session goes to /signin.
 */
export default function AppShellPage() {
  const { brandName } = usePublicConfig();
  const navigate = useNavigate();
  const notifyError = useErrorNotice();
  const [me, setMe] = useState<Me | null>(null);

  const toSignIn = useCallback((notice?: string) => navigate(paths.signIn, { replace: true, state: notice ? { notice } : null }), [navigate]);

  useEffect(() => {
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
  }, [toSignIn]);

  async function onSignOut() {
    try {
      await signOut();
      toSignIn('You have signed out.');
    } catch (error) {
      notifyError('Sign-out failed', error);
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
          <div className="flex items-center gap-3 sm:gap-6">
            <span className="flex items-center gap-2">
              <LogoMark />
              {/* On a phone the mark alone leaves room for the navigation. */}
              <span className="sr-only text-lg font-bold tracking-tight text-navy-900 sm:not-sr-only">{brandName}</span>
            </span>
            <nav aria-label="App" className="flex items-center gap-1">
              <NavLink to={paths.app} end className={navLinkClasses}>
                Pipeline
              </NavLink>
              {me.platformAdmin ? (
                <NavLink to={paths.adminWaitlist} className={navLinkClasses}>
                  Admin
                </NavLink>
              ) : null}
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
        <Suspense
          fallback={
            <p className="flex justify-center py-16 text-slate-600" aria-busy="true">
              <Spinner className="size-6" />
              <span className="sr-only">Loading</span>
            </p>
          }
        >
          <Routes>
            <Route index element={<PipelinePage />} />
            <Route path="admin/waitlist" element={me.platformAdmin ? <AdminWaitlistPage /> : <AppNotFound />} />
            <Route path="*" element={<AppNotFound />} />
          </Routes>
        </Suspense>
      </main>
    </div>
  );
}
