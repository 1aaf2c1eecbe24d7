import { Link } from 'react-router';
import { paths } from '../../lib/paths';

/**
 * A team page the server answered 404 for: the person left the team, was
 * removed, or is no longer one of its owners. The shell re-reads who they
 * are meanwhile and, when the team is gone, says so in its own words.
 */
export function TeamUnavailable() {
  return (
    <div className="py-16 text-center">
      <h1 className="text-2xl font-bold tracking-tight text-slate-900">This page is not available</h1>
      <p className="mx-auto mt-2 max-w-md text-slate-600">
        You may no longer be a member of this team, or no longer one of its owners. If you think this is a mistake, ask one of the team&apos;s owners.
      </p>
      <Link to={paths.app} className="mt-6 inline-block font-semibold text-navy-700 underline underline-offset-4 hover:text-navy-900">
        Back to Pipeline
      </Link>
    </div>
  );
}
