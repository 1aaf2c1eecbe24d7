import { Link } from 'react-router';
import { paths } from '../lib/paths';

function BackToHome() {
  return (
    <Link to={paths.home} className="inline-flex items-center gap-1.5 rounded-md text-sm font-medium text-slate-700 hover:text-navy-900">
      <svg aria-hidden="true" viewBox="0 0 20 20" fill="currentColor" className="size-4">
        <path
          fillRule="evenodd"
          d="M17 10a.75.75 0 0 1-.75.75H5.612l4.158 3.96a.75.75 0 1 1-1.04 1.08l-5.5-5.25a.75.75 0 0 1 0-1.08l5.5-5.25a.75.75 0 1 1 1.04 1.08L5.612 9.25H16.25A.75.75 0 0 1 17 10Z"
          clipRule="evenodd"
        />
      </svg>
      Back to Home
    </Link>
  );
}

/**
 * The centred card layout shared by the sign-in and waitlist pages. The
 * waitlist's success screen hides the top link: its own button is the only
 * way out (seed §4).
 */
export function AuthCardLayout({ children, backLink = true }: { children: React.ReactNode; backLink?: boolean }) {
  return (
    <div className="min-h-screen bg-gradient-to-b from-navy-50 to-white px-4 py-8 sm:py-12">
      <div className="mx-auto w-full max-w-md">
        {backLink ? (
          <header>
            <BackToHome />
          </header>
        ) : null}
        <main className="mt-6 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">{children}</main>
      </div>
    </div>
  );
}
