import './app.css';
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { matchPath, Route, Routes, useLocation, useNavigate } from 'react-router';
import { SESSION_CHECK_INTERVAL_MS, sessionNeedsRefresh } from '../../../shared/constants';
import type { Me } from '../../../shared/schemas/me';
import { ApiError } from '../../lib/api-client';
import { paths } from '../../lib/paths';
import { Spinner } from '../../ui/spinner';
import { useErrorNotice, useToast } from '../../ui/toast';
import { signOut } from '../auth/api/sign-out';
import { getMe } from './api/get-me';
import { refreshSession } from './api/refresh-session';
import { AppHeader } from './app-header';
import { AppNotFound } from './app-not-found';
import { AreaLayout } from './area-layout';
import { MeProvider } from './me-context';
import { NoLongerMember } from './no-longer-member';
import { PageLoading } from './page-loading';
import { PipelinePage } from './pipeline-page';
import { Redirect } from './redirect';

// Each page is its own chunk: nobody downloads the admin console or the team's settings they cannot open.
const AdminWaitlistPage = lazy(() => import('../admin/admin-waitlist-page'));
const AdminAuditPage = lazy(() => import('../audit/admin-audit-page'));
const CreateTeamPage = lazy(() => import('../team/create-team-page'));
const TeamMembersPage = lazy(() => import('../team/team-members-page'));
const TeamBrandingPage = lazy(() => import('../team/team-branding-page'));
const TeamAuditPage = lazy(() => import('../team/team-audit-page'));
const ProfilePage = lazy(() => import('../profile/profile-page'));
const SecurityPage = lazy(() => import('../security/security-page'));
const SecuritySetupPage = lazy(() => import('../security/security-setup-page'));

/** A route path below `parent`, from the paths registry: `child(paths.app, paths.teamNew)` is 'team/new'. */
const child = (parent: string, path: string) => path.slice(parent.length + 1);
/** The route of an area and every page below it. */
const area = (parent: string, path: string) => `${child(parent, path)}/*`;

const SESSION_ENDED = 'Your session has ended. Please sign in again.';

/**
 * The signed-in app at /app/*: who is signed in, the navigation, sign-out, and
 * the page at the address (team pages for the team's people, admin pages for
 * platform admins). It checks the session every 30 seconds (seed §9) and
 * refreshes it when it is about to end; an ended session goes to /signin.
 * Until an authenticator is enrolled where one is required, every page but
 * its set-up redirects there.
 */
export default function AppShellPage() {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const toast = useToast();
  const notifyError = useErrorNotice();
  const [me, setMe] = useState<Me | null>(null);
  // The team this person was removed from while using the app, to say so on its pages.
  const [formerTeam, setFormerTeam] = useState<string | null>(null);
  const shown = useRef<Me | null>(null);
  // Reads of /api/me may overlap (the timer, a page's refreshMe): an older answer never replaces a newer one.
  const requested = useRef(0);
  const applied = useRef(0);
  const active = useRef(true);

  const toSignIn = useCallback((notice?: string) => navigate(paths.signIn, { replace: true, state: notice ? { notice } : null }), [navigate]);

  const readMe = useCallback(async (): Promise<Me> => {
    const sequence = ++requested.current;
    let next = await getMe();
    if (sessionNeedsRefresh(new Date(next.sessionExpiresAt), new Date())) {
      // better-auth slides the session and sets its cookie again; /api/me then tells the new end.
      await refreshSession();
      next = await getMe();
    }
    if (active.current && sequence > applied.current) {
      applied.current = sequence;
      const previousTeam = shown.current?.team;
      if (previousTeam && !next.team) {
        setFormerTeam(previousTeam.name);
        toast({ title: 'Team access ended', description: `You are no longer a member of ${previousTeam.name}.` });
      } else if (next.team) {
        setFormerTeam(null);
      }
      shown.current = next;
      setMe(next);
    }
    return next;
  }, [toast]);

  /** A 401 means the session has ended; anything else (a network blip) is left to the next check. */
  const onReadFailure = useCallback(
    (error: unknown, first: boolean) => {
      if (!active.current) return;
      if (error instanceof ApiError && error.status === 401) toSignIn(first ? 'Please sign in to continue.' : SESSION_ENDED);
    },
    [toSignIn],
  );

  useEffect(() => {
    active.current = true;
    const check = (first: boolean) => readMe().catch((error: unknown) => onReadFailure(error, first));
    void check(true);
    const timer = setInterval(() => void check(false), SESSION_CHECK_INTERVAL_MS);
    return () => {
      active.current = false;
      clearInterval(timer);
    };
  }, [readMe, onReadFailure]);

  const refreshMe = useCallback(async () => {
    try {
      return await readMe();
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 401)) console.error('Reading the signed-in person failed:', error);
      onReadFailure(error, false);
      return null;
    }
  }, [readMe, onReadFailure]);

  const handleAccessError = useCallback(
    (error: unknown) => {
      if (!(error instanceof ApiError) || error.status !== 401) return false;
      if (error.code === 'mfa_required') {
        void refreshMe();
        navigate(paths.securitySetup);
      } else {
        toSignIn(SESSION_ENDED);
      }
      return true;
    },
    [navigate, refreshMe, toSignIn],
  );

  const onSignOut = useCallback(async () => {
    try {
      await signOut();
      toSignIn('You have signed out.');
    } catch (error) {
      notifyError('Sign-out failed', error);
    }
  }, [notifyError, toSignIn]);

  if (!me) {
    return (
      <main className="flex min-h-screen items-center justify-center text-slate-600" aria-busy="true">
        <Spinner className="size-6" />
        <span className="sr-only">Loading</span>
      </main>
    );
  }

  const owner = me.team?.role === 'owner';
  const gated = me.mustEnrolMfa && !matchPath(paths.securitySetup, pathname);
  const teamLinks = [
    { to: paths.team, label: 'Members', end: true },
    ...(owner
      ? [
          { to: paths.teamBranding, label: 'Branding' },
          { to: paths.teamAudit, label: 'Audit log' },
        ]
      : []),
  ];
  const adminLinks = [
    { to: paths.adminWaitlist, label: 'Waitlist' },
    { to: paths.adminAudit, label: 'Audit log' },
  ];

  return (
    <MeProvider me={me} refreshMe={refreshMe} handleAccessError={handleAccessError}>
      <div className="min-h-screen bg-slate-50">
        <AppHeader me={me} onSignOut={() => void onSignOut()} />
        <main className="mx-auto max-w-6xl px-4 py-10 sm:px-6">
          {gated ? (
            // Team data and the admin console stay closed until an authenticator is enrolled (the server answers 401 mfa_required).
            <Redirect to={paths.securitySetup} />
          ) : (
            <Suspense fallback={<PageLoading />}>
              {/* Areas hold descendant <Routes> rather than nested routes with an <Outlet>: the public pages' chunk stays as it is. */}
              <Routes>
                <Route index element={<PipelinePage />} />
                <Route path={child(paths.app, paths.teamNew)} element={me.broker ? <CreateTeamPage /> : <AppNotFound />} />
                <Route
                  path={area(paths.app, paths.team)}
                  element={
                    me.team ? (
                      <AreaLayout label="Team" links={teamLinks}>
                        <Routes>
                          <Route index element={<TeamMembersPage />} />
                          <Route path={child(paths.team, paths.teamBranding)} element={owner ? <TeamBrandingPage /> : <AppNotFound />} />
                          <Route path={child(paths.team, paths.teamAudit)} element={owner ? <TeamAuditPage /> : <AppNotFound />} />
                          <Route path="*" element={<AppNotFound />} />
                        </Routes>
                      </AreaLayout>
                    ) : formerTeam ? (
                      <NoLongerMember teamName={formerTeam} />
                    ) : (
                      <AppNotFound />
                    )
                  }
                />
                <Route
                  path={area(paths.app, paths.admin)}
                  element={
                    me.platformAdmin ? (
                      <AreaLayout label="Admin" links={adminLinks}>
                        <Routes>
                          <Route index element={<Redirect to={paths.adminWaitlist} />} />
                          <Route path={child(paths.admin, paths.adminWaitlist)} element={<AdminWaitlistPage />} />
                          <Route path={child(paths.admin, paths.adminAudit)} element={<AdminAuditPage />} />
                          <Route path="*" element={<AppNotFound />} />
                        </Routes>
                      </AreaLayout>
                    ) : (
                      <AppNotFound />
                    )
                  }
                />
                <Route path={child(paths.app, paths.profile)} element={<ProfilePage />} />
                <Route path={child(paths.app, paths.security)} element={<SecurityPage />} />
                <Route path={child(paths.app, paths.securitySetup)} element={<SecuritySetupPage />} />
                <Route path="*" element={<AppNotFound />} />
              </Routes>
            </Suspense>
          )}
        </main>
      </div>
    </MeProvider>
  );
}
