import { sql } from 'drizzle-orm';
import { boolean, check, date, index, integer, jsonb, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { CHECKLIST_CATEGORIES, ITEM_PROVIDERS } from '../../../shared/domain/checklist-templates';
import { ITEM_STATUSES } from '../../../shared/domain/checklist-status';
import type { LoanPurpose, PropertyType } from '../../../shared/domain/loan-fields';
import { user } from './auth';
import { loan } from './loans';
import { team } from './teams';

const inList = (values: readonly string[]) => sql.raw(values.map((value) => `'${value}'`).join(', '));

/**
 * A team's own checklist template, item by item in order. A team without
 * rows uses the built-in DSCR template (src/shared/domain/checklist-templates.ts);
 * saving the template writes the whole list, so it is never half-edited.
 */
export const checklistTemplateItem = pgTable(
  'checklist_template_item',
  {
    id: uuid().primaryKey().defaultRandom(),
    teamId: uuid()
      .notNull()
      .references(() => team.id, { onDelete: 'cascade' }),
    key: text().notNull(),
    position: integer().notNull(),
    label: text().notNull(),
    category: text({ enum: CHECKLIST_CATEGORIES }).notNull(),
    required: boolean().notNull(),
    provider: text({ enum: ITEM_PROVIDERS }).notNull(),
    borrowerVisible: boolean().notNull(),
    dueInDays: integer(),
    validityDays: integer(),
    /** Null: every purpose (every property type). */
    purposes: jsonb().$type<LoanPurpose[]>(),
    propertyTypes: jsonb().$type<PropertyType[]>(),
  },
  (t) => [
    unique('checklist_template_item_team_key').on(t.teamId, t.key),
    check('checklist_template_item_category_check', sql`${t.category} in (${inList(CHECKLIST_CATEGORIES)})`),
    check('checklist_template_item_provider_check', sql`${t.provider} in (${inList(ITEM_PROVIDERS)})`),
  ],
);

/**
 * One document a loan needs. Its status tag moves only by the actions that
 * imply it (src/shared/domain/checklist-status.ts); `version` lets a stale
 * edit get a 409. Internal items (`borrower_visible` false) never reach a
 * borrower, not even as a count.
 */
export const checklistItem = pgTable(
  'checklist_item',
  {
    id: uuid().primaryKey().defaultRandom(),
    loanId: uuid()
      .notNull()
      .references(() => loan.id, { onDelete: 'cascade' }),
    /** The template key it came from; null for an item added by hand. */
    key: text(),
    position: integer().notNull(),
    label: text().notNull(),
    category: text({ enum: CHECKLIST_CATEGORIES }).notNull(),
    required: boolean().notNull(),
    provider: text({ enum: ITEM_PROVIDERS }).notNull(),
    borrowerVisible: boolean().notNull(),
    status: text({ enum: ITEM_STATUSES }).notNull().default('requested'),
    /** Why it was waived or does not apply (the borrower's words for "doesn't apply to me"). */
    reason: text(),
    /** A borrower's "not applicable" the team has confirmed (until then it is pending). */
    notApplicableConfirmed: boolean().notNull().default(false),
    dueDate: date({ mode: 'string' }),
    validityDays: integer(),
    /** The approved document's own date (a statement's period end…), from which validity runs. */
    documentDate: date({ mode: 'string' }),
    requestedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** Reminders sent for what is owed on this item since it was last requested (at most 5), and when the last went: claimed with a conditional update. */
    remindersSent: integer().notNull().default(0),
    lastRemindedAt: timestamp({ withTimezone: true }),
    updatedBy: text().references(() => user.id, { onDelete: 'set null' }),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    version: integer().notNull().default(1),
  },
  (t) => [
    index('checklist_item_loan_idx').on(t.loanId, t.position),
    unique('checklist_item_loan_key').on(t.loanId, t.key),
    check('checklist_item_status_check', sql`${t.status} in (${inList(ITEM_STATUSES)})`),
    check('checklist_item_category_check', sql`${t.category} in (${inList(CHECKLIST_CATEGORIES)})`),
    check('checklist_item_provider_check', sql`${t.provider} in (${inList(ITEM_PROVIDERS)})`),
  ],
);
export type ChecklistItemRow = typeof checklistItem.$inferSelect;
