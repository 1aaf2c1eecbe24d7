import { useMe } from '../../lib/me-context';
import { paths } from '../../lib/paths';
import { useDocumentTitle } from '../../lib/use-page-title';
import { ButtonLink } from '../../ui/button';
import { Redirect } from '../../ui/redirect';

/**
 * /app, where every sign-in lands: a team member goes on to the pipeline
 * (/app/loans), a borrower or co-borrower to "My loans" (/app/my-loans); a
 * broker who has not founded their team yet is sent to do that first.
 * Everyone else (platform admins) sees what is theirs here; kept small so
 * those pages can take it over.
 */
export default function AppHome() {
  const me = useMe();
  if (me.team) return <Redirect to={paths.loans} />;
  if (me.participantLoans > 0) return <Redirect to={paths.myLoans} />;
  return <NoTeamHome needsTeam={me.broker} />;
}

function NoTeamHome({ needsTeam }: { needsTeam: boolean }) {
  useDocumentTitle('Pipeline');
  return (
    <>
      <h1 className="text-2xl font-bold tracking-tight text-slate-900">Pipeline</h1>
      {needsTeam ? (
        <section aria-labelledby="first-run" className="mt-8 rounded-2xl border border-slate-200 bg-white p-10 text-center shadow-sm">
          <h2 id="first-run" className="text-lg font-semibold text-slate-900">
            Start by creating your team
          </h2>
          <p className="mx-auto mt-2 max-w-md text-slate-600">
            Your team holds your loan files, your branding and the assistants you invite. You can change its name and look later.
          </p>
          <ButtonLink to={paths.teamNew} className="mt-6">
            Create your team
          </ButtonLink>
        </section>
      ) : (
        <section aria-labelledby="first-run" className="mt-8 rounded-2xl border border-dashed border-slate-300 bg-white p-10 text-center">
          <h2 id="first-run" className="text-lg font-semibold text-slate-900">
            No loan files yet
          </h2>
          <p className="mx-auto mt-2 max-w-md text-slate-600">
            Every open loan file of your team will show here, with its stage, progress and outstanding documents.
          </p>
        </section>
      )}
    </>
  );
}
