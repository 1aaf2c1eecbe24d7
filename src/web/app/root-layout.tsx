import { useEffect, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { ToastProvider } from '../ui/toast';

/** Scrolls to the top on a new page, or to the anchor when the link names one. */
function ScrollOnNavigate() {
  const { pathname, hash } = useLocation();
  useEffect(() => {
    if (hash) {
      document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView();
    } else {
      window.scrollTo(0, 0);
    }
  }, [pathname, hash]);
  return null;
}

/**
 * Marks the document once the app has hydrated (or rendered) the page: tests
 * and tools wait for it, and the public pages' loader sends a form held
 * before it (scripts/prerender.mjs). It goes inside the pages' Suspense
 * boundary (routes.tsx): React hydrates a boundary after the root, so a mark
 * outside it would come before the page's own handlers are attached.
 */
export function MarkHydrated() {
  useEffect(() => {
    document.documentElement.dataset.hydrated = 'true';
  }, []);
  return null;
}

export function RootLayout({ children }: { children: ReactNode }) {
  return (
    <ToastProvider>
      <ScrollOnNavigate />
      {children}
    </ToastProvider>
  );
}
