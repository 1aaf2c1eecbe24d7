import { useId, type CSSProperties, type ReactNode } from 'react';
import { Link } from 'react-router';
import { BORROWER_STAGE_MEANING, type BorrowerLoanView } from '../../../../shared/domain/borrower-view';
import { formatPropertyAddress, LOAN_PURPOSE_LABELS, PROPERTY_TYPE_LABELS } from '../../../../shared/domain/loan-fields';
import { isExitStage, STAGE_LABELS } from '../../../../shared/domain/loan-stages';
import { formatCents, formatPercent } from '../../../../shared/money';
import { formatCalendarDate } from '../../../lib/dates';
import { paths } from '../../../lib/paths';
import { useLiveLoan } from '../../../lib/live/live-events';
import { useDocumentTitle } from '../../../lib/use-page-title';
import { Chip } from '../../../ui/chip';
import { DateTime } from '../../../ui/date-time';
import { ActivityFeed } from '../components/activity-feed';
import { AlsoViewing } from '../components/also-viewing';
import { DiscussionPanel } from '../components/discussion/discussion-panel';
import { LoanProgress, LoanTimeline } from '../components/loan-timeline';
import { formatMonths, formatPrepayment, formatYears } from '../format';
import { BorrowerChecklist } from './borrower-checklist';

/** Borrowers see names as the server gives them on each update. */
const NO_NAMES: ReadonlyMap<string, string> = new Map();

function Card({ title, children }: { title: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
      <h2 id={headingId} className="text-lg font-semibold text-slate-900">
        {title}
      </h2>
      <div className="mt-4">{children}</div>
    </section>
  );
}

function Facts({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <dl className="divide-y divide-slate-100 text-sm">
      {rows.map(([label, value]) => (
        <div key={label} className="flex items-baseline justify-between gap-4 py-2">
          <dt className="text-slate-600">{label}</dt>
          <dd className="text-right font-medium text-slate-900">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * /app/loans/:loanId for a borrower or co-borrower: their loan in their
 * broker's branding, designed for a phone first. Only what
 * toBorrowerLoanView lets through reaches this page.
 */
export function BorrowerLoanPage({ loan }: { loan: BorrowerLoanView }) {
  useDocumentTitle(`Your loan — ${loan.propertyStreet}`);
  const exited = isExitStage(loan.stage);
  // What the team and the other borrowers do reaches this page as it happens (decision 020).
  const viewers = useLiveLoan(loan.id);
  return (
    <div className="mx-auto max-w-2xl space-y-5" style={{ '--team-accent': loan.team.accentColor } as CSSProperties}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <Link to={paths.myLoans} className="text-sm font-semibold text-navy-700 underline-offset-4 hover:underline">
          ← My loans
        </Link>
        <AlsoViewing viewers={viewers} />
      </div>
      <header className="overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm">
        <div aria-hidden="true" className="h-1.5 bg-(--team-accent)" />
        <div className="p-5">
          <div className="flex items-center gap-3">
            {loan.team.logoUrl ? <img src={loan.team.logoUrl} alt="" className="h-8 w-auto max-w-32 object-contain" /> : null}
            <p className="text-sm font-semibold text-slate-700">{loan.team.name}</p>
          </div>
          <h1 className="mt-3 text-2xl font-bold tracking-tight break-words text-slate-900">{formatPropertyAddress(loan)}</h1>
          <p className="mt-1 text-slate-700">
            {LOAN_PURPOSE_LABELS[loan.purpose]} · {PROPERTY_TYPE_LABELS[loan.propertyType]}
          </p>
          <div className="mt-3 flex flex-wrap items-center gap-3">
            <p className="text-xl font-bold text-navy-900 tabular-nums">{formatCents(loan.loanAmountCents)}</p>
            <Chip tone={exited ? 'red' : loan.stage === 'funded' ? 'green' : 'navy'}>{STAGE_LABELS[loan.stage]}</Chip>
          </div>
        </div>
      </header>

      <Card title="Where your loan is">
        <p className="mb-4 rounded-lg bg-slate-50 px-3 py-2 text-sm text-slate-800" data-testid="stage-meaning">
          <span className="font-semibold">{STAGE_LABELS[loan.stage]}:</span> {BORROWER_STAGE_MEANING[loan.stage]}
        </p>
        <LoanProgress progress={loan.progress} />
        <div className="mt-5">
          <LoanTimeline stage={loan.stage} leftFromStage={loan.leftFromStage} daysInStage={loan.daysInStage} />
        </div>
        {loan.targetClosingDate ? <p className="mt-4 text-sm text-slate-700">Target closing: {formatCalendarDate(loan.targetClosingDate, 'long')}</p> : null}
      </Card>

      <Card title="Your documents">
        <BorrowerChecklist loanId={loan.id} />
      </Card>

      <Card title="Discussion">
        <DiscussionPanel loanId={loan.id} viewer="borrower" />
      </Card>

      <Card title="Stage dates">
        <ol className="space-y-2 text-sm" aria-label="When your loan reached each stage">
          {[...loan.stageHistory].reverse().map((step, index) => (
            <li key={`${step.at}-${index}`} className="flex items-baseline justify-between gap-4 border-l-2 border-slate-200 pl-3">
              <span className="font-medium text-slate-900">{STAGE_LABELS[step.to]}</span>
              <span className="text-slate-600">
                <DateTime iso={step.at} />
              </span>
            </li>
          ))}
        </ol>
      </Card>

      <Card title="Your loan">
        <Facts
          rows={[
            ['Borrower', loan.entityName ? `${loan.borrowerName} (${loan.entityName})` : loan.borrowerName],
            ['Loan amount', formatCents(loan.loanAmountCents)],
            ['Note rate', formatPercent(loan.noteRatePercent)],
            ['Term', formatYears(loan.termYears)],
            ['Amortization', formatYears(loan.amortizationYears)],
            ['Interest-only', loan.interestOnly && loan.interestOnlyMonths !== null ? `Yes, ${formatMonths(loan.interestOnlyMonths)}` : 'No'],
            ['Prepayment penalty', formatPrepayment(loan.prepaymentKind, loan.prepaymentYears)],
          ]}
        />
      </Card>

      <Card title="Your contact">
        {loan.contact ? (
          <div className="text-sm">
            <p className="font-semibold text-slate-900">{loan.contact.name}</p>
            <p className="mt-1">
              <a href={`mailto:${loan.contact.email}`} className="font-medium break-all text-navy-700 underline underline-offset-4">
                {loan.contact.email}
              </a>
            </p>
            {loan.contact.phone ? (
              <p className="mt-1">
                <a href={`tel:${loan.contact.phone.replace(/[^+0-9]/g, '')}`} className="font-medium text-navy-700 underline underline-offset-4">
                  {loan.contact.phone}
                </a>
              </p>
            ) : null}
          </div>
        ) : (
          <p className="text-sm text-slate-600">{loan.team.name} will assign someone to your loan soon.</p>
        )}
      </Card>

      <Card title="Updates">
        <ActivityFeed loanId={loan.id} people={NO_NAMES} />
      </Card>
    </div>
  );
}
