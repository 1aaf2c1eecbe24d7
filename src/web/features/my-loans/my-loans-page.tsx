import type { CSSProperties } from 'react';
import { Link } from 'react-router';
import { BORROWER_STAGE_MEANING, type MyLoanCard } from '../../../shared/domain/borrower-view';
import { isExitStage, STAGE_LABELS } from '../../../shared/domain/loan-stages';
import { formatWholeDollars } from '../../../shared/money';
import { PARTICIPANT_ROLE_LABELS } from '../../../shared/schemas/participants';
import { paths } from '../../lib/paths';
import { plural } from '../../lib/plural';
import { useDocumentTitle } from '../../lib/use-page-title';
import { Chip } from '../../ui/chip';
import { LoadFailed } from '../../ui/load-failed';
import { Spinner } from '../../ui/spinner';
import { UnreadBadge } from '../../ui/unread-badge';
import { useMyLoans } from './api/list-my-loans';

/**
 * "My loans" at /app for a borrower or co-borrower: one card per loan, each
 * in its own team's branding (a borrower may follow loans with several
 * brokers). Designed for a phone first: one column, the whole card a link.
 */
export default function MyLoansPage() {
  useDocumentTitle('My loans');
  const loans = useMyLoans();
  return (
    <div className="mx-auto max-w-2xl">
      <h1 className="text-2xl font-bold tracking-tight text-slate-900">My loans</h1>
      <p className="mt-1 text-slate-700">Where each of your loans stands, and whom to contact.</p>
      {loans.isPending ? (
        <p className="mt-8 flex justify-center" aria-busy="true">
          <Spinner className="size-6" />
          <span className="sr-only">Loading your loans</span>
        </p>
      ) : loans.isError ? (
        <div className="mt-8">
          <LoadFailed message="Your loans could not be loaded." onRetry={() => void loans.refetch()} />
        </div>
      ) : loans.data.loans.length === 0 ? (
        <section aria-labelledby="no-loans" className="mt-8 rounded-2xl border border-dashed border-slate-300 bg-white p-8 text-center">
          <h2 id="no-loans" className="text-lg font-semibold text-slate-900">
            No loans to follow
          </h2>
          <p className="mt-2 text-slate-600">When your broker invites you to a loan, it shows here.</p>
        </section>
      ) : (
        <ul className="mt-6 space-y-4" aria-label="Your loans">
          {loans.data.loans.map((loan) => (
            <li key={loan.id}>
              <LoanCard loan={loan} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function LoanCard({ loan }: { loan: MyLoanCard }) {
  const exited = isExitStage(loan.stage);
  const place = `${loan.propertyCity}, ${loan.propertyState} ${loan.propertyZip}`;
  return (
    <Link
      to={paths.loanHref(loan.id)}
      className="block overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm transition-shadow hover:shadow-md focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-navy-700"
      style={{ '--team-accent': loan.team.accentColor } as CSSProperties}
    >
      <div aria-hidden="true" className="h-1.5 bg-(--team-accent)" />
      <div className="p-5">
        <div className="flex items-center gap-3">
          {loan.team.logoUrl ? <img src={loan.team.logoUrl} alt="" className="h-7 w-auto max-w-28 object-contain" /> : null}
          <p className="text-sm font-semibold text-slate-700">{loan.team.name}</p>
          <p className="ml-auto flex items-center gap-2 text-xs text-slate-600">
            <UnreadBadge count={loan.unreadComments} />
            {PARTICIPANT_ROLE_LABELS[loan.role]}
          </p>
        </div>
        <h2 className="mt-3 text-lg font-bold break-words text-slate-900">
          {loan.propertyUnit ? `${loan.propertyStreet}, ${loan.propertyUnit}` : loan.propertyStreet}
        </h2>
        <p className="text-sm text-slate-700">{place}</p>
        <div className="mt-3 flex flex-wrap items-center gap-3">
          <p className="text-lg font-bold text-navy-900 tabular-nums">{formatWholeDollars(loan.loanAmountCents)}</p>
          <Chip tone={exited ? 'red' : loan.stage === 'funded' ? 'green' : 'navy'}>{STAGE_LABELS[loan.stage]}</Chip>
        </div>
        <p className="mt-2 text-sm text-slate-700">{BORROWER_STAGE_MEANING[loan.stage]}</p>
        <div className="mt-4">
          <div aria-hidden="true" className="h-2 overflow-hidden rounded-full bg-slate-100">
            <div className="h-full rounded-full bg-navy-700" style={{ width: `${loan.progress}%` }} />
          </div>
          <p className="mt-1.5 flex justify-between text-xs text-slate-600">
            <span>{loan.progress}% complete</span>
            <span>
              {plural(loan.daysInStage, 'day', 'days')} at {STAGE_LABELS[loan.stage]}
            </span>
          </p>
        </div>
      </div>
    </Link>
  );
}
