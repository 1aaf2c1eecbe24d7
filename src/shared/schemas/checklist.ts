import { z } from 'zod';
import { CHECKLIST_CATEGORIES, ITEM_PROVIDERS, type ChecklistCategory, type ItemProvider, type TemplateItem } from '../domain/checklist-templates';
import type { ItemStatus } from '../domain/checklist-status';
import { LOAN_PURPOSES, PROPERTY_TYPES } from '../domain/loan-fields';
import { LoanId } from './loan-id';
import { CalendarDate } from './loans';
import { text } from './text';

export const ItemIdParamsSchema = z.object({
  loanId: LoanId,
  itemId: z.uuid({ error: 'Not a checklist item id' }).transform((id) => id.toLowerCase()),
});

const Label = text('Label').trim().min(1, { error: 'Give the item a label' }).max(120, { error: 'Label must be at most 120 characters' });
const Reason = text('Reason').trim().min(1, { error: 'Give a reason' }).max(500, { error: 'Reason must be at most 500 characters' });
const Category = z.enum(CHECKLIST_CATEGORIES, { error: `Category must be one of ${CHECKLIST_CATEGORIES.join(', ')}` });
const Provider = z.enum(ITEM_PROVIDERS, { error: 'Provider must be borrower or third_party' });
const Days = (label: string) =>
  z
    .number({ error: `${label} must be a number of days` })
    .int({ error: `${label} must be whole days` })
    .min(1, { error: `${label} must be at least 1 day` })
    .max(3650, { error: `${label} must be at most 3650 days` });
const Version = z.number({ error: 'version must be the version you read' }).int().min(1);

/** An item added to one loan by hand. */
export const AddItemSchema = z.strictObject({
  label: Label,
  category: Category,
  required: z.boolean({ error: 'required must be true or false' }).default(true),
  provider: Provider.default('borrower'),
  borrowerVisible: z.boolean({ error: 'borrowerVisible must be true or false' }).default(true),
  dueDate: CalendarDate('Due date').nullable().default(null),
  validityDays: Days('Validity').nullable().default(null),
});
export type AddItem = z.input<typeof AddItemSchema>;
export type AddItemFields = z.output<typeof AddItemSchema>;

/** Edits an item's description (not its status: only actions move that). */
export const UpdateItemSchema = z
  .strictObject({
    version: Version,
    label: Label.optional(),
    category: Category.optional(),
    required: z.boolean({ error: 'required must be true or false' }).optional(),
    provider: Provider.optional(),
    borrowerVisible: z.boolean({ error: 'borrowerVisible must be true or false' }).optional(),
    dueDate: CalendarDate('Due date').nullable().optional(),
    validityDays: Days('Validity').nullable().optional(),
  })
  .refine((value) => Object.keys(value).some((key) => key !== 'version'), { error: 'Send at least one field to change' });
export type UpdateItem = z.input<typeof UpdateItemSchema>;
export type UpdateItemFields = z.output<typeof UpdateItemSchema>;

export const ReorderItemsSchema = z.strictObject({
  itemIds: z
    .array(z.uuid({ error: 'Not a checklist item id' }), { error: 'itemIds must list the items in their new order' })
    .min(1)
    .max(500),
});

/** Waive, or "doesn't apply to me": the reason everyone on the item reads. */
export const ItemReasonSchema = z.strictObject({ version: Version, reason: Reason });
export const ItemVersionSchema = z.strictObject({ version: Version });

export const AddFromTemplateSchema = z.strictObject({
  keys: z.array(text('Key').min(1).max(60), { error: 'keys must list template item keys' }).min(1).max(100),
});

/** Each value once: a list that names one twice would say nothing more. */
const distinct = <T>(values: readonly T[] | null) => values === null || new Set(values).size === values.length;

const TemplateItemSchema = z.strictObject({
  key: text('Key').regex(/^[a-z0-9][a-z0-9-]{0,59}$/, { error: 'Key must be lower-case letters, digits and dashes' }),
  label: Label,
  category: Category,
  required: z.boolean({ error: 'required must be true or false' }),
  provider: Provider,
  borrowerVisible: z.boolean({ error: 'borrowerVisible must be true or false' }),
  dueInDays: Days('Due in').nullable().default(null),
  validityDays: Days('Validity').nullable().default(null),
  purposes: z
    .array(z.enum(LOAN_PURPOSES, { error: 'Not a loan purpose' }), { error: 'purposes must list loan purposes, or be null for all' })
    .min(1, { error: 'Pick at least one loan purpose' })
    .max(LOAN_PURPOSES.length)
    .nullable()
    .default(null)
    .refine(distinct, { error: 'Name each loan purpose once' }),
  propertyTypes: z
    .array(z.enum(PROPERTY_TYPES, { error: 'Not a property type' }), { error: 'propertyTypes must list property types, or be null for all' })
    .min(1, { error: 'Pick at least one property type' })
    .max(PROPERTY_TYPES.length)
    .nullable()
    .default(null)
    .refine(distinct, { error: 'Name each property type once' }),
});

/**
 * What the editor read: a fingerprint of the template as stored (the built-in
 * one included). A save or reset from an older read answers 409 rather than
 * overwrite someone else's change.
 */
const Revision = z.string({ error: 'revision must be the revision you read' }).regex(/^[0-9a-f]{16}$/, { error: 'revision must be the revision you read' });

/** A team's whole template, in order: saved at once, over the revision the editor read. */
export const ChecklistTemplateSchema = z
  .strictObject({
    revision: Revision,
    items: z
      .array(TemplateItemSchema, { error: 'items must list the template items' })
      .min(1, { error: 'A template needs at least one item' })
      .max(100, { error: 'A template has at most 100 items' }),
  })
  .superRefine(({ items }, ctx) => {
    const seen = new Set<string>();
    items.forEach((item, index) => {
      if (seen.has(item.key)) ctx.addIssue({ code: 'custom', path: ['items', index, 'key'], message: `The key ${item.key} is used twice` });
      seen.add(item.key);
    });
  });
export type ChecklistTemplateInput = z.input<typeof ChecklistTemplateSchema>;
export type ChecklistTemplateFields = z.output<typeof ChecklistTemplateSchema>;

/** Back to the built-in template, over the revision the editor read. */
export const ResetChecklistTemplateSchema = z.strictObject({ revision: Revision });

/** GET, PUT and DELETE /api/teams/:teamId/checklist-template answer this. */
export interface ChecklistTemplateView {
  /** True while the team has no template of its own: new loans take the built-in DSCR one. */
  builtIn: boolean;
  /** Send it back with a save or a reset. */
  revision: string;
  items: TemplateItem[];
}

/** An item as the team sees it. */
export interface ChecklistItemView {
  id: string;
  key: string | null;
  position: number;
  label: string;
  category: ChecklistCategory;
  required: boolean;
  provider: ItemProvider;
  borrowerVisible: boolean;
  status: ItemStatus;
  reason: string | null;
  notApplicableConfirmed: boolean;
  dueDate: string | null;
  validityDays: number | null;
  documentDate: string | null;
  requestedAt: string;
  updatedAt: string;
  version: number;
}

/** An item as a borrower sees it: what is needed, its state and why, nothing internal. */
export type BorrowerChecklistItemView = Pick<
  ChecklistItemView,
  'id' | 'position' | 'label' | 'category' | 'required' | 'provider' | 'status' | 'reason' | 'notApplicableConfirmed' | 'dueDate' | 'version'
>;

export interface ChecklistView<Item = ChecklistItemView> {
  items: Item[];
  /** Required items still to settle (approved, waived or confirmed not applicable settle one). */
  outstandingRequired: number;
  /** The most bytes one uploaded file may have (MAX_UPLOAD_MB). */
  maxFileBytes: number;
}
