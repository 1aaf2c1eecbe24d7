import { Link } from 'react-router';
import { paths } from '../lib/paths';
import { useDocumentTitle } from '../lib/use-page-title';

/**
 * An /app address that does not exist, or that this person may not open:
 * the same answer for both, so the app does not tell what is there.
 */
export function AppNotFound() {
  useDocumentTitle('Page not found');
  return (
    <div className="py-16 text-center">
      <h1 className="text-2xl font-bold tracking-tight text-slate-900">Page not found</h1>
      <p className="mt-2 text-slate-600">This page does not exist.</p>
      <Link to={paths.app} className="mt-6 inline-block font-semibold text-navy-700 underline underline-offset-4 hover:text-navy-900">
        Back to Pipeline
      </Link>
    </div>
  );
}
