import { lazy, Suspense } from 'react';
import { Route, Routes } from 'react-router';
import { RootLayout } from './root-layout';
import { RouteErrorBoundary } from './route-error-boundary';

// Every page is its own chunk, so a visitor of `/` downloads only the landing
// page. Declarative routes rather than a data router: the public pages have no
// loaders, and this keeps about 17 KB of gzipped JavaScript off every page.
const LandingPage = lazy(() => import('../features/marketing/landing-page'));
const SignInPage = lazy(() => import('../features/auth/signin-page'));
const JoinWaitlistPage = lazy(() => import('../features/waitlist/join-waitlist-page'));
const NotFoundPage = lazy(() => import('../features/errors/not-found-page'));

export function AppRoutes() {
  return (
    <RootLayout>
      <RouteErrorBoundary>
        <Suspense fallback={null}>
          <Routes>
            <Route index element={<LandingPage />} />
            <Route path="signin" element={<SignInPage />} />
            <Route path="join-waitlist" element={<JoinWaitlistPage />} />
            <Route path="*" element={<NotFoundPage />} />
          </Routes>
        </Suspense>
      </RouteErrorBoundary>
    </RootLayout>
  );
}
