import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, check, date, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { LOAN_PARTICIPANT_ROLES } from '../../../shared/domain/access';
import { LOAN_PURPOSES, PREPAYMENT_KINDS, PROPERTY_TYPES, type UsState } from '../../../shared/domain/loan-fields';
import { LOAN_STAGES, MAIN_STAGES } from '../../../shared/domain/loan-stages';
import { user } from './auth';
import { team } from './teams';

const money = (name?: string) => (name ? bigint(name, { mode: 'number' }) : bigint({ mode: 'number' }));
const inList = (values: readonly string[]) => sql.raw(values.map((value) => `'${value}'`).join(', '));

/**
 * A loan file. Money is in cents (bigint), rates in thousandths of a percent
 * (7.25 % is 7250), so nothing stored is a float. `stage`, `version` and
 * `last_activity_at` change with every change to the loan; `version` lets an
 * editor's stale form get a 409 rather than overwrite someone else's edit.
 */
export const loan = pgTable(
  'loan',
  {
    id: uuid().primaryKey().defaultRandom(),
    teamId: uuid()
      .notNull()
      .references(() => team.id, { onDelete: 'cascade' }),
    version: integer().notNull().default(1),
    borrowerName: text().notNull(),
    borrowerEmail: text(),
    borrowerPhone: text(),
    entityName: text(),
    propertyStreet: text().notNull(),
    propertyUnit: text(),
    propertyCity: text().notNull(),
    propertyState: text().$type<UsState>().notNull(),
    propertyZip: text().notNull(),
    propertyType: text({ enum: PROPERTY_TYPES }).notNull(),
    unitCount: integer(),
    unitRentsCents: jsonb().$type<number[]>(),
    purpose: text({ enum: LOAN_PURPOSES }).notNull(),
    valueCents: money().notNull(),
    loanAmountCents: money().notNull(),
    /** Thousandths of a percent: 7.25 % is 7250. */
    noteRateMilli: integer().notNull(),
    termYears: integer().notNull(),
    amortizationYears: integer().notNull(),
    interestOnly: boolean().notNull().default(false),
    interestOnlyMonths: integer(),
    prepaymentKind: text({ enum: PREPAYMENT_KINDS }).notNull().default('none'),
    prepaymentYears: integer(),
    monthlyRentCents: money(),
    strAnnualRevenueCents: money(),
    /** Thousandths of a percent, like the rate. */
    strExpenseMilli: integer(),
    annualTaxesCents: money().notNull().default(0),
    annualInsuranceCents: money().notNull().default(0),
    monthlyHoaCents: money().notNull().default(0),
    annualFloodInsuranceCents: money().notNull().default(0),
    targetClosingDate: date({ mode: 'string' }),
    assigneeId: text().references(() => user.id, { onDelete: 'set null' }),
    lenderName: text(),
    lenderLoanNumber: text(),
    internalNotes: text(),
    stage: text({ enum: LOAN_STAGES }).notNull().default('lead'),
    /** The main-line stage an exited (withdrawn, declined) loan left from: where Reopen goes back to. */
    leftFromStage: text({ enum: MAIN_STAGES }),
    stageEnteredAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    archivedAt: timestamp({ withTimezone: true }),
    createdBy: text().references(() => user.id, { onDelete: 'set null' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lastActivityAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** The `seq` of the loan's newest activity row: taken, with this row's lock, by whoever writes the next one (activity/activity-log.ts). */
    activitySeq: integer().notNull().default(0),
    /** Likewise for its newest shared activity row (`shared_seq`). */
    sharedActivitySeq: integer().notNull().default(0),
    /**
     * The loan's required documents, counted from its checklist by
     * `refreshLoanDocumentCounts` (checklist/document-counts.ts) in every
     * transaction that changes an item: required items still needed, and
     * those of them approved (`documentCounts` in shared/domain/checklist-status.ts).
     */
    requiredItems: integer().notNull().default(0),
    approvedItems: integer().notNull().default(0),
    /** Required items still open: the pipeline's "Outstanding docs", and its sort (loan_team_outstanding_idx). */
    outstandingItems: integer()
      .notNull()
      .generatedAlwaysAs(sql`required_items - approved_items`),
    /** The same two counts over the borrower-visible items only: a borrower's progress, which no internal item moves. */
    borrowerRequiredItems: integer().notNull().default(0),
    borrowerApprovedItems: integer().notNull().default(0),
    /** Whether whoever owes documents on this loan gets reminders (the broker turns them off per loan). */
    remindersEnabled: boolean().notNull().default(true),
    /** Lower-cased borrower name and e-mail, entity, address and lender loan number: what the pipeline's search reads. */
    searchText: text()
      .notNull()
      .generatedAlwaysAs(
        sql`lower(coalesce(borrower_name, '') || ' ' || coalesce(borrower_email, '') || ' ' || coalesce(entity_name, '') || ' ' || coalesce(property_street, '') || ' ' || coalesce(property_unit, '') || ' ' || coalesce(property_city, '') || ' ' || coalesce(property_state, '') || ' ' || coalesce(property_zip, '') || ' ' || coalesce(lender_loan_number, ''))`,
      ),
  },
  (t) => [
    index('loan_team_pipeline_idx').on(t.teamId, t.lastActivityAt.desc(), t.id),
    // The stage counts of a view read this index only (no table rows): stage and archived, per team.
    index('loan_team_stage_archived_idx').on(t.teamId, t.stage, t.archivedAt),
    // Search is a substring match (`like '%word%'`) on search_text: trigrams keep it off a full scan (pg_trgm, migration 0008).
    index('loan_search_trgm_idx').using('gin', sql`${t.searchText} gin_trgm_ops`),
    index('loan_assignee_idx').on(t.assigneeId),
    // The pipeline sorted by outstanding documents, either way, reads this in order (the top of a page, not every loan sorted).
    index('loan_team_outstanding_idx').on(t.teamId, t.outstandingItems, t.id),
    check('loan_stage_check', sql`${t.stage} in (${inList(LOAN_STAGES)})`),
    check('loan_left_from_check', sql`(${t.stage} in ('withdrawn', 'declined')) = (${t.leftFromStage} is not null)`),
    check('loan_property_type_check', sql`${t.propertyType} in (${inList(PROPERTY_TYPES)})`),
    check('loan_purpose_check', sql`${t.purpose} in (${inList(LOAN_PURPOSES)})`),
    check('loan_prepayment_check', sql`${t.prepaymentKind} in (${inList(PREPAYMENT_KINDS)})`),
    check(
      'loan_document_counts_check',
      sql`0 <= ${t.approvedItems} and ${t.approvedItems} <= ${t.requiredItems} and 0 <= ${t.borrowerApprovedItems} and ${t.borrowerApprovedItems} <= ${t.borrowerRequiredItems} and ${t.borrowerRequiredItems} <= ${t.requiredItems}`,
    ),
    check('loan_money_check', sql`${t.valueCents} > 0 and ${t.loanAmountCents} > 0 and ${t.noteRateMilli} > 0`),
  ],
);
export type LoanRow = typeof loan.$inferSelect;

/** A borrower or co-borrower on one loan: they see that loan and nothing else of the team. */
export const loanParticipant = pgTable(
  'loan_participant',
  {
    loanId: uuid()
      .notNull()
      .references(() => loan.id, { onDelete: 'cascade' }),
    userId: text()
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    role: text({ enum: LOAN_PARTICIPANT_ROLES }).notNull(),
    invitedBy: text().references(() => user.id, { onDelete: 'set null' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.loanId, t.userId] }),
    index('loan_participant_user_idx').on(t.userId),
    check('loan_participant_role_check', sql`${t.role} in ('borrower', 'co_borrower')`),
  ],
);
export type LoanParticipantRow = typeof loanParticipant.$inferSelect;

/** Every move of a loan between stages: who, when, from, to, and the note or reason. */
export const stageChange = pgTable(
  'stage_change',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    loanId: uuid()
      .notNull()
      .references(() => loan.id, { onDelete: 'cascade' }),
    fromStage: text({ enum: LOAN_STAGES }),
    toStage: text({ enum: LOAN_STAGES }).notNull(),
    byId: text().references(() => user.id, { onDelete: 'set null' }),
    note: text(),
    at: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('stage_change_loan_idx').on(t.loanId, t.id)],
);
