// First: zod must be told it may not probe `eval` (our CSP) before any shared schema of a page runs.
import '../../lib/zod-config';
import './app.css';
import { hashKey, QueryClientProvider, useQueryClient, type Query } from '@tanstack/react-query';
import { Suspense, useCallback, useEffect, useState } from 'react';
import { matchPath, Route, Routes, useLocation, useNavigate } from 'react-router';
import type { Me } from '../../../shared/schemas/me';
import { ApiError } from '../../lib/api-client';
import { meQueryOptions, useMeQuery } from '../../lib/api/get-me';
import { allows, isArea, type AppArea, type AppPage } from '../../lib/app-route';
import { LiveEventsProvider } from '../../lib/live/live-events';
import { MeProvider } from '../../lib/me-context';
import { paths } from '../../lib/paths';
import { createQueryClient, TEAM_SCOPE } from '../../lib/query-client';
import { AppNotFound } from '../../ui/app-not-found';
import { PageLoading } from '../../ui/page-loading';
import { Redirect } from '../../ui/redirect';
import { Spinner } from '../../ui/spinner';
import { useErrorNotice, useToast } from '../../ui/toast';
import { appRoutes } from '../app-routes';
import { signOut } from './api/sign-out';
import { AppHeader } from './app-header';
import { AreaLayout } from './area-layout';
import { areaTabs, entryPoint, frameWidth } from './navigation';

const SESSION_ENDED = 'Your session has ended. Please sign in again.';

const isStatus = (error: unknown, status: number): error is ApiError => error instanceof ApiError && error.status === status;

/**
 * The signed-in app at /app/*, in its own chunk with its own server state
 * (TanStack Query): the public pages never load either.
 */
export default function AppShellPage() {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <SignedInApp />
    </QueryClientProvider>
  );
}

/**
 * Who is signed in, the navigation, sign-out, and the page at the address:
 * the features' routes (app/app-routes.ts), each page or area behind its
 * guard. The session is checked every 30 seconds (meQueryOptions); an ended
 * session goes to /signin. Until an authenticator is enrolled where one is
 * required, every page but its set-up redirects there.
 */
function SignedInApp() {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const toast = useToast();
  const notifyError = useErrorNotice();
  const queryClient = useQueryClient();
  const { data: me } = useMeQuery();
  // The team this person was removed from while using the app, to say so on its pages.
  const [formerTeam, setFormerTeam] = useState<string | null>(null);

  const toSignIn = useCallback((notice?: string) => navigate(paths.signIn, { replace: true, state: notice ? { notice } : null }), [navigate]);

  const handleAccessError = useCallback(
    (error: unknown) => {
      if (!isStatus(error, 401)) return false;
      if (error.code === 'mfa_required') {
        void queryClient.invalidateQueries({ queryKey: meQueryOptions().queryKey });
        navigate(paths.securitySetup);
      } else {
        toSignIn(SESSION_ENDED);
      }
      return true;
    },
    [navigate, queryClient, toSignIn],
  );

  /** A failed read of a page: session problems are the shell's; the page shows the failure itself. */
  const onReadFailure = useCallback(
    (error: unknown, query: Query) => {
      if (handleAccessError(error)) return;
      if (isStatus(error, 404)) {
        // Removed from the team, or no longer its owner (decision 007): read who this is again, and the pages follow.
        if (query.queryKey[0] === TEAM_SCOPE) void queryClient.invalidateQueries({ queryKey: meQueryOptions().queryKey });
        return;
      }
      console.error(`${query.meta?.failure ?? 'Loading failed'}:`, error);
    },
    [handleAccessError, queryClient],
  );

  // Every answer once, whichever component asked: the session check, the team this person is in, the pages' reads.
  useEffect(() => {
    const meHash = hashKey(meQueryOptions().queryKey);
    let shown = queryClient.getQueryData(meQueryOptions().queryKey);
    return queryClient.getQueryCache().subscribe((event) => {
      if (event.type !== 'updated') return;
      const { query, action } = event;
      if (query.queryHash !== meHash) {
        if (action.type === 'error') onReadFailure(action.error, query);
        return;
      }
      if (action.type === 'success') {
        const next = query.state.data as Me;
        if (shown?.team && !next.team) {
          setFormerTeam(shown.team.name);
          toast({ title: 'Team access ended', description: `You are no longer a member of ${shown.team.name}.` });
        } else if (next.team) {
          setFormerTeam(null);
        }
        shown = next;
      } else if (action.type === 'error' && isStatus(action.error, 401)) {
        // The session has ended; anything else (a network blip) is left to the next check.
        toSignIn(shown ? SESSION_ENDED : 'Please sign in to continue.');
      }
    });
  }, [queryClient, onReadFailure, toSignIn, toast]);

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

  const gated = me.mustEnrolMfa && !matchPath(paths.securitySetup, pathname);
  const width = frameWidth(appRoutes, pathname);

  return (
    <MeProvider me={me} formerTeam={formerTeam} handleAccessError={handleAccessError}>
      {/* One live stream per tab, for the loans the page shows (decision 020). */}
      <LiveEventsProvider>
        <div className="min-h-screen bg-slate-50">
          {/* The first stop of the Tab key: past the header's links to the page itself. */}
          <a
            href="#main"
            className="sr-only rounded-md bg-white px-3 py-2 text-sm font-semibold text-navy-800 shadow-lg focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:outline-2 focus:outline-navy-600"
          >
            Skip to content
          </a>
          <AppHeader me={me} width={width} onSignOut={() => void onSignOut()} />
          <main id="main" tabIndex={-1} className={`mx-auto px-4 py-6 focus:outline-none sm:px-6 sm:py-8 ${width}`}>
            {gated ? (
              // Team data and the admin console stay closed until an authenticator is enrolled (the server answers 401 mfa_required).
              <Redirect to={paths.securitySetup} />
            ) : (
              <Suspense fallback={<PageLoading />}>
                {/* Areas hold descendant <Routes> rather than nested routes with an <Outlet>: the public pages' chunk stays as it is. */}
                <Routes>
                  {appRoutes.map((route) => (isArea(route) ? areaRoute(route, me) : pageRoute(paths.app, route, me)))}
                  <Route path="*" element={<AppNotFound />} />
                </Routes>
              </Suspense>
            )}
          </main>
        </div>
      </LiveEventsProvider>
    </MeProvider>
  );
}

/** A route path below `parent`: 'team/new' for /app/team/new below /app. */
const below = (parent: string, path: string) => path.slice(parent.length + 1);

/** A page's route below `parent` (the index route when it is at `parent` itself); the not-found page for someone its guard turns away. */
function pageRoute(parent: string, page: AppPage, me: Me) {
  const { path, page: Page } = page;
  const element = allows(page, me) ? <Page /> : <AppNotFound />;
  return path === parent ? <Route key={path} index element={element} /> : <Route key={path} path={below(parent, path)} element={element} />;
}

/** An area's route: its tabs and the route of each of its pages, or what its guard shows instead. */
function areaRoute(area: AppArea, me: Me) {
  const Refused = area.refused ?? AppNotFound;
  const entry = entryPoint(area, me);
  const element = allows(area, me) ? (
    <AreaLayout label={area.label} links={areaTabs(area, me)}>
      <Routes>
        {area.pages.map((page) => pageRoute(area.path, page, me))}
        {entry === area.path ? null : <Route index element={<Redirect to={entry} />} />}
        <Route path="*" element={<AppNotFound />} />
      </Routes>
    </AreaLayout>
  ) : (
    <Refused />
  );
  return <Route key={area.path} path={`${below(paths.app, area.path)}/*`} element={element} />;
}
