import type { LoanField } from '../../shared/domain/loan-fields';
import { loanProgress } from '../../shared/domain/loan-stages';
import type { LoanInput } from '../../shared/schemas/loans';
import type { LoanRow, loan } from '../db/schema';

/** Thousandths of a percent (storage) ↔ percent (API): 7250 ↔ 7.25. */
export const toMilli = (percent: number) => Math.round(percent * 1000);
export const fromMilli = (milli: number) => milli / 1000;

/** The loan's progress as its team sees it: its stage and its whole checklist (the row's counters, decision 013). */
export const teamProgress = (row: Pick<LoanRow, 'stage' | 'leftFromStage' | 'requiredItems' | 'approvedItems'>) =>
  loanProgress(row.stage, { leftFrom: row.leftFromStage, requiredItems: row.requiredItems, approvedRequiredItems: row.approvedItems });

/** The editable fields of a stored loan, as the API and the schema name them. */
export function loanInputOf(row: LoanRow): LoanInput {
  return {
    borrowerName: row.borrowerName,
    borrowerEmail: row.borrowerEmail,
    borrowerPhone: row.borrowerPhone,
    entityName: row.entityName,
    propertyStreet: row.propertyStreet,
    propertyUnit: row.propertyUnit,
    propertyCity: row.propertyCity,
    propertyState: row.propertyState,
    propertyZip: row.propertyZip,
    propertyType: row.propertyType,
    unitCount: row.unitCount,
    unitRentsCents: row.unitRentsCents,
    purpose: row.purpose,
    valueCents: row.valueCents,
    loanAmountCents: row.loanAmountCents,
    noteRatePercent: fromMilli(row.noteRateMilli),
    termYears: row.termYears,
    amortizationYears: row.amortizationYears,
    interestOnly: row.interestOnly,
    interestOnlyMonths: row.interestOnlyMonths,
    prepaymentKind: row.prepaymentKind,
    prepaymentYears: row.prepaymentYears,
    monthlyRentCents: row.monthlyRentCents,
    strAnnualRevenueCents: row.strAnnualRevenueCents,
    strExpensePercent: row.strExpenseMilli === null ? null : fromMilli(row.strExpenseMilli),
    annualTaxesCents: row.annualTaxesCents,
    annualInsuranceCents: row.annualInsuranceCents,
    monthlyHoaCents: row.monthlyHoaCents,
    annualFloodInsuranceCents: row.annualFloodInsuranceCents,
    targetClosingDate: row.targetClosingDate,
    assigneeId: row.assigneeId,
    lenderName: row.lenderName,
    lenderLoanNumber: row.lenderLoanNumber,
    internalNotes: row.internalNotes,
  };
}

type LoanColumns = Partial<typeof loan.$inferInsert>;

/** The columns that store the given fields (percent fields become thousandths). */
export function loanColumnsOf(fields: Partial<LoanInput>): LoanColumns {
  const columns: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(fields) as [LoanField, unknown][]) {
    if (value === undefined) continue;
    if (field === 'noteRatePercent') columns.noteRateMilli = toMilli(value as number);
    else if (field === 'strExpensePercent') columns.strExpenseMilli = value === null ? null : toMilli(value as number);
    else columns[field] = value;
  }
  return columns as LoanColumns;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** One edit of one field, as the change history records it. */
export interface FieldChange {
  field: LoanField;
  from: unknown;
  to: unknown;
}

/** The fields `next` changes from `before`, in the schema's order. */
export function changedFields(before: LoanInput, next: Partial<LoanInput>): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const [field, value] of Object.entries(next) as [LoanField, unknown][]) {
    if (value === undefined || same(before[field], value)) continue;
    changes.push({ field, from: before[field] ?? null, to: value ?? null });
  }
  return changes;
}
