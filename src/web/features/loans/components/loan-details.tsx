import type { ReactNode } from 'react';
import { LOAN_PURPOSE_LABELS, PROPERTY_TYPE_LABELS, formatPropertyAddress } from '../../../../shared/domain/loan-fields';
import { formatCents, formatPercent } from '../../../../shared/money';
import type { LoanDetail } from '../../../../shared/schemas/loans';
import { formatCalendarDate } from '../../../lib/dates';
import { formatMonths, formatPrepayment, formatYears } from '../format';

function Group({ title, rows }: { title: string; rows: [string, ReactNode][] }) {
  return (
    <div>
      <h3 className="text-sm font-semibold text-slate-900">{title}</h3>
      <dl className="mt-2 divide-y divide-slate-100 text-sm">
        {rows.map(([label, value]) => (
          <div key={label} className="grid grid-cols-[minmax(0,11rem)_minmax(0,1fr)] gap-3 py-2">
            <dt className="text-slate-600">{label}</dt>
            <dd className="break-words text-slate-900">{value ?? '—'}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

/** Every field of the loan file, read-only, grouped as the form groups them. */
export function LoanDetails({ loan }: { loan: LoanDetail }) {
  const income: [string, ReactNode][] =
    loan.propertyType === 'two_to_four'
      ? (loan.unitRentsCents ?? []).map((cents, index) => [`Unit ${index + 1} monthly rent`, formatCents(cents)])
      : loan.propertyType === 'short_term_rental'
        ? [
            ['Annual rental revenue', loan.strAnnualRevenueCents !== null ? formatCents(loan.strAnnualRevenueCents) : null],
            ['Expense factor', formatPercent(loan.strExpensePercent ?? 20)],
          ]
        : [['Gross monthly rent', loan.monthlyRentCents !== null ? formatCents(loan.monthlyRentCents) : null]];
  return (
    <div className="grid gap-6 md:grid-cols-2">
      <Group
        title="Borrower"
        rows={[
          ['Name', loan.borrowerName],
          ['E-mail', loan.borrowerEmail],
          ['Phone', loan.borrowerPhone],
          ['Borrowing entity', loan.entityName],
        ]}
      />
      <Group
        title="Property"
        rows={[
          ['Address', formatPropertyAddress(loan)],
          ['Type', PROPERTY_TYPE_LABELS[loan.propertyType]],
          ...(loan.unitCount !== null ? [['Units', String(loan.unitCount)] as [string, ReactNode]] : []),
        ]}
      />
      <Group
        title="Loan"
        rows={[
          ['Purpose', LOAN_PURPOSE_LABELS[loan.purpose]],
          [loan.purpose === 'purchase' ? 'Purchase price' : 'Estimated value', formatCents(loan.valueCents)],
          ['Loan amount', formatCents(loan.loanAmountCents)],
          ['Note rate', formatPercent(loan.noteRatePercent)],
          ['Term', formatYears(loan.termYears)],
          ['Amortization', formatYears(loan.amortizationYears)],
          ['Interest-only', loan.interestOnly && loan.interestOnlyMonths !== null ? `Yes, ${formatMonths(loan.interestOnlyMonths)}` : 'No'],
          ['Prepayment penalty', formatPrepayment(loan.prepaymentKind, loan.prepaymentYears)],
        ]}
      />
      <Group
        title="Income and expenses"
        rows={[
          ...income,
          ['Annual property taxes', formatCents(loan.annualTaxesCents)],
          ['Annual insurance', formatCents(loan.annualInsuranceCents)],
          ['Monthly HOA', formatCents(loan.monthlyHoaCents)],
          ['Annual flood insurance', formatCents(loan.annualFloodInsuranceCents)],
        ]}
      />
      <Group
        title="Closing and team"
        rows={[
          ['Target closing date', loan.targetClosingDate ? formatCalendarDate(loan.targetClosingDate, 'long') : null],
          ['Assignee', loan.assignee?.name ?? 'Nobody yet'],
          ['Lender', loan.lenderName],
          ['Lender loan number', loan.lenderLoanNumber],
        ]}
      />
      <Group title="Internal notes" rows={[['Team only', loan.internalNotes ? <span className="whitespace-pre-line">{loan.internalNotes}</span> : null]]} />
    </div>
  );
}
