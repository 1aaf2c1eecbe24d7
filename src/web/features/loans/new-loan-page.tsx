import { useMemo } from 'react';
import { Link, useNavigate } from 'react-router';
import type { LoanInput } from '../../../shared/schemas/loans';
import type { TeamView } from '../../../shared/schemas/teams';
import { useMembers } from '../../lib/api/list-members';
import { useFailureNotice, useMe } from '../../lib/me-context';
import { paths } from '../../lib/paths';
import { useDocumentTitle } from '../../lib/use-page-title';
import { LoadFailed } from '../../ui/load-failed';
import { PageLoading } from '../../ui/page-loading';
import { Redirect } from '../../ui/redirect';
import { useToast } from '../../ui/toast';
import { useCreateLoan } from './api/create-loan';
import { LoanForm } from './components/loan-form';
import { newLoanValues } from './loan-form-values';

/** /app/loans/new (owners and assistants): the loan form, judged live against the team's DSCR bands. */
export default function NewLoanPage() {
  useDocumentTitle('New loan');
  const { team, user } = useMe();
  if (!team) return <Redirect to={paths.app} />;
  return <NewLoan team={team} userId={user.id} />;
}

function NewLoan({ team, userId }: { team: TeamView; userId: string }) {
  const toast = useToast();
  const notifyFailure = useFailureNotice();
  const navigate = useNavigate();
  const members = useMembers(team.id);
  const createLoan = useCreateLoan(team.id);
  // The person opening the file is its assignee unless they choose someone else.
  const initial = useMemo(() => newLoanValues(userId), [userId]);

  async function create(input: LoanInput) {
    const loan = await createLoan.mutateAsync(input);
    toast({ title: 'Success!', description: `The loan file for ${loan.borrowerName} is open at Lead.` });
    await navigate(paths.loanHref(loan.id));
  }

  return (
    <div>
      <p>
        <Link to={paths.loans} className="text-sm font-semibold text-navy-700 underline-offset-4 hover:underline">
          ← Pipeline
        </Link>
      </p>
      <h1 className="mt-3 text-2xl font-bold tracking-tight text-slate-900">New loan</h1>
      <p className="mt-2 max-w-2xl text-slate-600">
        Fields marked <span className="text-red-700">*</span> are required; everything can be changed later, and every change is recorded.
      </p>
      <div className="mt-8">
        {members.isPending ? (
          <PageLoading />
        ) : members.isError ? (
          <LoadFailed message="Your team’s members could not be loaded." onRetry={() => void members.refetch()} />
        ) : (
          <LoanForm
            label="New loan"
            initial={initial}
            thresholds={team.dscrThresholds}
            assignees={members.data.members.map((member) => ({ id: member.userId, name: member.name }))}
            submitLabel="Create loan"
            onSubmit={create}
            onFailure={(error) => notifyFailure('Creating the loan failed', error)}
          />
        )}
      </div>
    </div>
  );
}
