import { Link } from 'react-router';
import { useFormerTeam } from '../../lib/me-context';
import { paths } from '../../lib/paths';
import { useDocumentTitle } from '../../lib/use-page-title';
import { AppNotFound } from '../../ui/app-not-found';

/**
 * The team's pages to someone without a team: after being removed from it
 * while using the app, they are told so; anyone else gets the not-found page.
 */
export function NoLongerMember() {
  const teamName = useFormerTeam();
  return teamName ? <RemovedFrom teamName={teamName} /> : <AppNotFound />;
}

function RemovedFrom({ teamName }: { teamName: string }) {
  useDocumentTitle('No longer a member');
  return (
    <div className="py-16 text-center">
      <h1 className="text-2xl font-bold tracking-tight text-slate-900">You are no longer a member of this team</h1>
      <p className="mx-auto mt-2 max-w-md text-slate-600">
        You no longer have access to {teamName} and its loan files. If you think this is a mistake, ask one of the team&apos;s owners.
      </p>
      <Link to={paths.app} className="mt-6 inline-block font-semibold text-navy-700 underline underline-offset-4 hover:text-navy-900">
        Back to Pipeline
      </Link>
    </div>
  );
}
