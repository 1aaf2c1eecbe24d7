import { useEffect } from 'react';
import { Link, useLocation } from 'react-router';
import { paths } from '../../lib/paths';
import { usePageTitle } from '../../lib/use-page-title';

export default function NotFoundPage() {
  const location = useLocation();
  usePageTitle('notFound');
  useEffect(() => {
    console.error('404 Error: User attempted to access non-existent route:', location.pathname);
  }, [location.pathname]);
  return (
    <main className="flex min-h-screen items-center justify-center bg-slate-50 px-6">
      <div className="text-center">
        <h1 className="text-7xl font-extrabold tracking-tight text-navy-900">404</h1>
        <p className="mt-4 text-xl text-slate-700">Oops! Page not found</p>
        <Link to={paths.home} className="mt-8 inline-block font-semibold text-navy-700 underline underline-offset-4 hover:text-navy-900">
          Return to Home
        </Link>
      </div>
    </main>
  );
}
