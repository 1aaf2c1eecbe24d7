import { useQueryClient } from '@tanstack/react-query';
import { useId, useMemo, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { formatPropertyAddress, LOAN_PURPOSE_LABELS, PROPERTY_TYPE_LABELS } from '../../../shared/domain/loan-fields';
import { isExitStage, STAGE_LABELS } from '../../../shared/domain/loan-stages';
import { formatWholeDollars } from '../../../shared/money';
import type { LoanDetail, LoanInput } from '../../../shared/schemas/loans';
import { ApiError } from '../../lib/api-client';
import { useMembers } from '../../lib/api/list-members';
import { useFailureNotice, useMe } from '../../lib/me-context';
import { paths } from '../../lib/paths';
import { useLiveLoan } from '../../lib/live/live-events';
import { useDocumentTitle } from '../../lib/use-page-title';
import { Button } from '../../ui/button';
import { Chip } from '../../ui/chip';
import { DateTime } from '../../ui/date-time';
import { useToast } from '../../ui/toast';
import { loanQueryOptions } from './api/get-loan';
import { useUpdateLoan } from './api/update-loan';
import { ActivityFeed } from './components/activity-feed';
import { AlsoViewing } from './components/also-viewing';
import { ChecklistPanel } from './components/checklist-panel';
import { DiscussionPanel } from './components/discussion/discussion-panel';
import { DscrFigures } from './components/dscr-figures';
import { LenderPackageLink } from './components/lender-package-link';
import { LoanActions } from './components/loan-actions';
import { LoanDetails } from './components/loan-details';
import { LoanForm } from './components/loan-form';
import { LoanProgress, LoanTimeline } from './components/loan-timeline';
import { MoveStage } from './components/move-stage';
import { ParticipantsPanel } from './components/participants-panel';
import { RemindersPanel } from './components/reminders-panel';
import { StageHistory } from './components/stage-history';
import { changedLoanFields, formValuesOf } from './loan-form-values';

function Card({ title, action, children, className = '' }: { title: string; action?: ReactNode; children: ReactNode; className?: string }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className={`rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6 ${className}`}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id={headingId} className="text-lg font-semibold text-slate-900">
          {title}
        </h2>
        {action}
      </div>
      <div className="mt-4">{children}</div>
    </section>
  );
}

/** /app/loans/:loanId for the team: the loan file with its timeline, stage moves, DSCR, details, history and activity. */
export function TeamLoanPage({ loan }: { loan: LoanDetail }) {
  useDocumentTitle(`${loan.borrowerName} — ${loan.propertyStreet}`);
  const me = useMe();
  const members = useMembers(loan.teamId);
  // The loan as it was when editing began: changes arriving live (decision 020) must not restart a form someone is typing in.
  const [editingFrom, setEditingFrom] = useState<LoanDetail | null>(null);
  const people = useMemo(() => new Map((members.data?.members ?? []).map((member) => [member.userId, member.name])), [members.data]);
  const exited = isExitStage(loan.stage);
  // Changes by anyone on the loan reach this page as they happen (decision 020).
  const viewers = useLiveLoan(loan.id);

  return (
    <div>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <Link to={paths.loans} className="text-sm font-semibold text-navy-700 underline-offset-4 hover:underline">
          ← Pipeline
        </Link>
        <AlsoViewing viewers={viewers} />
      </div>
      <header className="mt-3 flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <p className="text-sm font-semibold text-navy-700">
            {LOAN_PURPOSE_LABELS[loan.purpose]} · {PROPERTY_TYPE_LABELS[loan.propertyType]}
          </p>
          <h1 className="mt-1 text-2xl font-bold tracking-tight break-words text-slate-900">{loan.borrowerName}</h1>
          {loan.entityName ? <p className="text-slate-700">{loan.entityName}</p> : null}
          <p className="mt-1 break-words text-slate-700">{formatPropertyAddress(loan)}</p>
        </div>
        <div className="flex flex-col items-start gap-2 sm:items-end">
          <p className="text-2xl font-bold text-navy-900 tabular-nums">{formatWholeDollars(loan.loanAmountCents)}</p>
          <Chip tone={exited ? 'red' : loan.stage === 'funded' ? 'green' : 'navy'}>{STAGE_LABELS[loan.stage]}</Chip>
          <p className="text-sm text-slate-600">Assignee: {loan.assignee?.name ?? 'nobody yet'}</p>
        </div>
      </header>

      {loan.archivedAt ? (
        <div role="status" className="mt-6 rounded-xl border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900">
          <p className="font-semibold">
            This loan was archived on <DateTime iso={loan.archivedAt} />.
          </p>
          <p>It is off the pipeline and can’t move stages until it is restored.</p>
        </div>
      ) : null}

      <div className="mt-6 grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem] lg:items-start">
        <div className="min-w-0 space-y-6">
          <Card title="Timeline">
            <LoanProgress progress={loan.progress} />
            <div className="mt-5 grid gap-6 md:grid-cols-2">
              <LoanTimeline stage={loan.stage} leftFromStage={loan.leftFromStage} daysInStage={loan.daysInStage} />
              <MoveStage key={`${loan.stage}-${loan.version}`} loan={loan} />
            </div>
          </Card>

          <Card title="Document checklist" action={<LenderPackageLink loanId={loan.id} />}>
            <ChecklistPanel loanId={loan.id} />
          </Card>

          <Card title="Discussion">
            <DiscussionPanel loanId={loan.id} viewer="team" />
          </Card>

          {editingFrom ? (
            <section aria-label="Edit the loan">
              <h2 className="sr-only">Edit the loan</h2>
              <EditLoan
                key={editingFrom.version}
                loan={editingFrom}
                assignees={(members.data?.members ?? []).map((member) => ({ id: member.userId, name: member.name }))}
                onDone={() => setEditingFrom(null)}
                onReload={setEditingFrom}
              />
            </section>
          ) : (
            <Card
              title="Loan file"
              action={
                <Button variant="secondary" onClick={() => setEditingFrom(loan)} disabled={members.isPending}>
                  Edit loan
                </Button>
              }
            >
              <LoanDetails loan={loan} />
            </Card>
          )}

          <Card title="Activity">
            <ActivityFeed loanId={loan.id} people={people} />
          </Card>
        </div>

        <div className="min-w-0 space-y-6">
          <Card title="DSCR analysis">
            <DscrFigures analysis={loan.dscr} thresholds={loan.thresholds} />
          </Card>
          <ParticipantsPanel loanId={loan.id} />
          <Card title="Reminders">
            <RemindersPanel loanId={loan.id} />
          </Card>
          <Card title="Stage history">
            <StageHistory history={loan.stageHistory} />
          </Card>
          <Card title="Loan actions">
            <LoanActions loan={loan} canDelete={me.team?.role === 'owner'} />
          </Card>
        </div>
      </div>
    </div>
  );
}

/**
 * The loan form on the loan as editing began: sends only the changed fields with the version it started from;
 * a 409 (someone changed it meanwhile) offers to reload, which starts the form again from the loan as it is now.
 */
function EditLoan({
  loan,
  assignees,
  onDone,
  onReload,
}: {
  loan: LoanDetail;
  assignees: { id: string; name: string }[];
  onDone: () => void;
  onReload: (loan: LoanDetail) => void;
}) {
  const toast = useToast();
  const notifyFailure = useFailureNotice();
  const queryClient = useQueryClient();
  const updateLoan = useUpdateLoan(loan.id);
  const [conflict, setConflict] = useState<string | null>(null);
  const initial = useMemo(() => formValuesOf(loan), [loan]);

  async function save(input: LoanInput) {
    const changes = changedLoanFields(loan, input);
    if (Object.keys(changes).length === 0) {
      toast({ title: 'Nothing to save', description: 'The loan is as saved.' });
      onDone();
      return;
    }
    await updateLoan.mutateAsync({ ...changes, version: loan.version });
    toast({ title: 'Success!', description: 'The loan has been saved.' });
    onDone();
  }

  return (
    <LoanForm
      label="Edit the loan"
      initial={initial}
      thresholds={loan.thresholds}
      assignees={assignees}
      submitLabel="Save changes"
      onSubmit={save}
      onCancel={onDone}
      onFailure={(error) => {
        if (error instanceof ApiError && error.status === 409) setConflict(error.message);
        else notifyFailure('Saving the loan failed', error);
      }}
      notice={
        conflict ? (
          <div role="alert" className="flex flex-wrap items-center gap-3 rounded-lg border border-red-200 bg-red-50 px-3 py-3 text-sm text-red-800">
            <p className="flex-1 font-semibold">{conflict}</p>
            {/* Reading the loan again gives it a new version, and this form starts again from it. */}
            <Button
              variant="secondary"
              onClick={() =>
                void queryClient.fetchQuery({ ...loanQueryOptions(loan.id), staleTime: 0 }).then(
                  (fresh) => onReload(fresh as LoanDetail),
                  (error: unknown) => notifyFailure('Loading the loan failed', error),
                )
              }
            >
              Reload
            </Button>
          </div>
        ) : null
      }
    />
  );
}
