import { useMemo, type ReactNode } from 'react';
import { useWatch } from 'react-hook-form';
import type { DscrThresholds } from '../../../../shared/domain/dscr';
import { analyseLoan } from '../../../../shared/domain/loan-dscr';
import {
  LOAN_PURPOSE_LABELS,
  LOAN_PURPOSES,
  PREPAYMENT_KINDS,
  PREPAYMENT_LABELS,
  PROPERTY_TYPE_LABELS,
  PROPERTY_TYPES,
  US_STATE_CODES,
  US_STATES,
} from '../../../../shared/domain/loan-fields';
import type { LoanInput } from '../../../../shared/schemas/loans';
import type { ApiError } from '../../../lib/api-client';
import { useAppForm, type FieldExplanation } from '../../../lib/use-app-form';
import { Button } from '../../../ui/button';
import { CheckboxField, SelectField, TextAreaField, TextField } from '../../../ui/field';
import { Spinner } from '../../../ui/spinner';
import { liveDscrFields, LoanFormSchema, MAX_UNIT_RENTS, type LoanFormValues } from '../loan-form-values';
import { DscrFigures } from './dscr-figures';
import { FormSection } from './form-section';

export interface Assignee {
  id: string;
  name: string;
}

const money = { inputMode: 'decimal' as const, autoComplete: 'off', spellCheck: false };
const whole = { inputMode: 'numeric' as const, autoComplete: 'off' };

/**
 * The loan file's form, for a new loan and for an edit: every field of the
 * shared schema in sections, money typed in dollars and rates in percents,
 * checked with the API's own schema (LoanFormSchema) so each message shows
 * beside its field, whether the browser or the server found it. Beside it,
 * the DSCR analysis recomputes as the inputs change.
 */
export function LoanForm({
  label,
  initial,
  thresholds,
  assignees,
  submitLabel,
  onSubmit,
  onFailure,
  explain,
  onCancel,
  notice,
}: {
  label: string;
  initial: LoanFormValues;
  thresholds: DscrThresholds;
  assignees: Assignee[];
  submitLabel: string;
  onSubmit: (input: LoanInput) => Promise<void>;
  onFailure: (error: unknown) => void;
  explain?: (error: ApiError) => FieldExplanation<LoanFormValues> | null;
  onCancel?: () => void;
  /** Shown above the buttons: a conflict with someone else's edit. */
  notice?: ReactNode;
}) {
  const {
    form,
    onSubmit: submit,
    submitting,
    field,
  } = useAppForm({
    schema: LoanFormSchema,
    defaultValues: initial,
    onSubmit: (input) => onSubmit(input),
    onFailure,
    ...(explain ? { explain } : {}),
  });
  const values = useWatch({ control: form.control }) as LoanFormValues;
  const live = useMemo(() => {
    const fields = liveDscrFields({ ...initial, ...values });
    return fields ? analyseLoan(fields, thresholds) : null;
  }, [values, initial, thresholds]);

  const type = values.propertyType;
  const unitCount = Number(values.unitCount);
  const rentCount = type === 'two_to_four' && unitCount >= 2 && unitCount <= MAX_UNIT_RENTS ? unitCount : 0;
  const ltv = live?.loanToValuePercent;

  return (
    <form onSubmit={submit} noValidate aria-label={label} aria-busy={submitting} className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem] lg:items-start">
      <div className="min-w-0 space-y-6">
        <FormSection title="Borrower">
          <TextField label="Borrower name" required autoComplete="off" {...field('borrowerName')} />
          <TextField label="Borrower e-mail" type="email" autoComplete="off" {...field('borrowerEmail')} />
          <TextField label="Borrower phone" type="tel" autoComplete="off" placeholder="(512) 555-0100" {...field('borrowerPhone')} />
          <TextField label="Borrowing entity" autoComplete="off" hint="The LLC that takes title, if any." {...field('entityName')} />
        </FormSection>

        <FormSection title="Property">
          <TextField label="Street" required autoComplete="off" className="sm:col-span-2" {...field('propertyStreet')} />
          <TextField label="Unit" autoComplete="off" {...field('propertyUnit')} />
          <TextField label="City" required autoComplete="off" {...field('propertyCity')} />
          <SelectField label="State" required {...field('propertyState')}>
            <option value="">Choose a state</option>
            {US_STATE_CODES.map((code) => (
              <option key={code} value={code}>
                {US_STATES[code]}
              </option>
            ))}
          </SelectField>
          <TextField label="ZIP" required inputMode="numeric" autoComplete="off" maxLength={10} {...field('propertyZip')} />
          <SelectField label="Property type" required {...field('propertyType')}>
            {PROPERTY_TYPES.map((kind) => (
              <option key={kind} value={kind}>
                {PROPERTY_TYPE_LABELS[kind]}
              </option>
            ))}
          </SelectField>
          {type === 'two_to_four' ? (
            <SelectField label="Number of units" required {...field('unitCount')}>
              <option value="">Choose</option>
              {[2, 3, 4].map((n) => (
                <option key={n} value={String(n)}>
                  {n} units
                </option>
              ))}
            </SelectField>
          ) : null}
          {type === 'five_plus' ? <TextField label="Number of units" required {...whole} {...field('unitCount')} /> : null}
        </FormSection>

        <FormSection title="Loan">
          <SelectField label="Purpose" required {...field('purpose')}>
            {LOAN_PURPOSES.map((purpose) => (
              <option key={purpose} value={purpose}>
                {LOAN_PURPOSE_LABELS[purpose]}
              </option>
            ))}
          </SelectField>
          <TextField label={values.purpose === 'purchase' ? 'Purchase price ($)' : 'Estimated value ($)'} required {...money} {...field('valueCents')} />
          <TextField
            label="Loan amount ($)"
            required
            {...money}
            {...field('loanAmountCents')}
            hint={ltv != null ? `LTV ${ltv.toFixed(2)} %` : 'LTV shows once the amount and value are in.'}
          />
          <TextField label="Note rate (%)" required {...money} placeholder="7.25" {...field('noteRatePercent')} />
          <TextField label="Term (years)" required {...whole} {...field('termYears')} />
          <TextField label="Amortization (years)" required {...whole} {...field('amortizationYears')} />
          <CheckboxField label="Interest-only" {...field('interestOnly')} />
          {values.interestOnly ? <TextField label="Interest-only period (months)" required {...whole} {...field('interestOnlyMonths')} /> : <span />}
          <SelectField label="Prepayment penalty" {...field('prepaymentKind')}>
            {PREPAYMENT_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {PREPAYMENT_LABELS[kind]}
              </option>
            ))}
          </SelectField>
          {values.prepaymentKind !== 'none' ? (
            <SelectField label="Prepayment period" required {...field('prepaymentYears')}>
              <option value="">Choose</option>
              {[1, 2, 3, 4, 5].map((n) => (
                <option key={n} value={String(n)}>
                  {n} {n === 1 ? 'year' : 'years'}
                </option>
              ))}
            </SelectField>
          ) : null}
        </FormSection>

        <FormSection title="Income and expenses" description="What the DSCR is computed from. Amounts in dollars.">
          {type === 'two_to_four' ? (
            rentCount > 0 ? (
              Array.from({ length: rentCount }, (_, index) => (
                <TextField key={index} label={`Unit ${index + 1} monthly rent ($)`} required {...money} {...field(`unitRentsCents.${index}`)} />
              ))
            ) : (
              <p className="text-sm text-slate-600 sm:col-span-2">Choose the number of units to enter a rent for each.</p>
            )
          ) : type === 'short_term_rental' ? (
            <>
              <TextField label="Annual rental revenue ($)" required {...money} {...field('strAnnualRevenueCents')} />
              <TextField
                label="Expense factor (%)"
                {...money}
                hint="The share of revenue taken as expenses; 20 % unless the lender says otherwise."
                {...field('strExpensePercent')}
              />
            </>
          ) : (
            <TextField label="Gross monthly rent ($)" {...money} className="sm:col-span-2" {...field('monthlyRentCents')} />
          )}
          <TextField label="Annual property taxes ($)" {...money} {...field('annualTaxesCents')} />
          <TextField label="Annual insurance ($)" {...money} {...field('annualInsuranceCents')} />
          <TextField label="Monthly HOA ($)" {...money} {...field('monthlyHoaCents')} />
          <TextField label="Annual flood insurance ($)" {...money} {...field('annualFloodInsuranceCents')} />
        </FormSection>

        <FormSection title="Closing and team">
          <TextField label="Target closing date" type="date" {...field('targetClosingDate')} />
          <SelectField label="Assignee" {...field('assigneeId')}>
            <option value="">Nobody yet</option>
            {assignees.map((person) => (
              <option key={person.id} value={person.id}>
                {person.name}
              </option>
            ))}
          </SelectField>
          <TextField label="Lender" autoComplete="off" {...field('lenderName')} />
          <TextField label="Lender loan number" autoComplete="off" {...field('lenderLoanNumber')} />
          <TextAreaField label="Internal notes" className="sm:col-span-2" hint="Your team only: borrowers never see these." {...field('internalNotes')} />
        </FormSection>

        {notice}
        <div className="flex flex-col-reverse gap-3 sm:flex-row">
          <Button type="submit" size="lg" disabled={submitting}>
            {submitting ? <Spinner /> : null}
            {submitLabel}
          </Button>
          {onCancel ? (
            <Button variant="secondary" size="lg" onClick={onCancel} disabled={submitting}>
              Cancel
            </Button>
          ) : null}
        </div>
      </div>

      <aside aria-label="DSCR" className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm lg:sticky lg:top-6">
        <h2 className="text-lg font-semibold text-slate-900">DSCR</h2>
        <p className="mt-1 text-xs text-slate-600">Recomputed as you type.</p>
        <div className="mt-4">
          <DscrFigures analysis={live} thresholds={thresholds} />
        </div>
      </aside>
    </form>
  );
}
