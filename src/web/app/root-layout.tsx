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

/** Marks the document once the app has hydrated (or rendered): tests and tools wait for it. */
function MarkHydrated() {
  useEffect(() => {
    document.documentElement.dataset.hydrated = 'true';
  }, []);
  return null;
}

export function RootLayout({ children }: { children: ReactNode }) {
  return (
    <ToastProvider>
      <ScrollOnNavigate />
      <MarkHydrated />
      {children}
    </ToastProvider>
  );
}
