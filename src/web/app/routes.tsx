import { Suspense } from 'react';
import { matchPath, Route, Routes } from 'react-router';
import { paths } from '../lib/paths';
import { lazyPage } from './lazy-page';
import { MarkHydrated, RootLayout } from './root-layout';
import { RouteErrorBoundary } from './route-error-boundary';

// Every page is its own chunk, so a visitor of `/` downloads only the landing
// page. Declarative routes rather than a data router: the public pages have no
// loaders, and this keeps about 17 KB of gzipped JavaScript off every page.
const pages = [
  { path: paths.home, Page: lazyPage(() => import('../features/marketing/landing-page')) },
  { path: paths.signIn, Page: lazyPage(() => import('../features/auth/signin-page')) },
  { path: paths.joinWaitlist, Page: lazyPage(() => import('../features/waitlist/join-waitlist-page')) },
  { path: paths.dscrCalculator, Page: lazyPage(() => import('../features/calculator/dscr-calculator-page')) },
  { path: paths.forgotPassword, Page: lazyPage(() => import('../features/auth/forgot-password-page')) },
  { path: paths.resetPassword, Page: lazyPage(() => import('../features/auth/reset-password-page')) },
  { path: paths.invite, Page: lazyPage(() => import('../features/invitations/accept-invitation-page')) },
  { path: paths.upload, Page: lazyPage(() => import('../features/upload-link/upload-link-page')) },
  { path: paths.unsubscribe, Page: lazyPage(() => import('../features/unsubscribe/unsubscribe-page')) },
  // The signed-in app: its shell maps its own routes (app-routes.ts) and holds its server state.
  { path: `${paths.app}/*`, Page: lazyPage(() => import('./shell/app-shell-page')) },
];
const NotFoundPage = lazyPage(() => import('../features/errors/not-found-page'));

/** Loads the chunk of the page at `pathname` (entry-client awaits it before hydrating). */
export function preloadPage(pathname: string): Promise<void> {
  const match = pages.find(({ path }) => matchPath({ path, end: true }, pathname));
  return (match?.Page ?? NotFoundPage).preload();
}

export function AppRoutes() {
  return (
    <RootLayout>
      <RouteErrorBoundary>
        <Suspense fallback={null}>
          <Routes>
            {pages.map(({ path, Page }) => (
              <Route key={path} path={path} element={<Page />} />
            ))}
            <Route path="*" element={<NotFoundPage />} />
          </Routes>
          <MarkHydrated />
        </Suspense>
      </RouteErrorBoundary>
    </RootLayout>
  );
}
