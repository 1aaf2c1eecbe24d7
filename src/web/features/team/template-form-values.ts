import { z } from 'zod';
import { CHECKLIST_CATEGORIES, ITEM_PROVIDERS, type TemplateItem } from '../../../shared/domain/checklist-templates';
import { LOAN_PURPOSES, PROPERTY_TYPES, type LoanPurpose, type PropertyType } from '../../../shared/domain/loan-fields';
import { ChecklistTemplateSchema, type ChecklistTemplateInput } from '../../../shared/schemas/checklist';

/**
 * The template editor's values: one entry per item, as the fields hold them
 * (days as typed, the purposes and property types ticked), and the revision
 * the editor read. `TemplateFormSchema` turns them into the API's input and
 * checks it with `ChecklistTemplateSchema` itself, so a message about
 * `items.3.validityDays` shows beside that very field.
 */
export interface TemplateItemValues {
  /** Stable across renames (loans match their items by it); empty for an item added here, made from its label on saving. */
  key: string;
  label: string;
  category: (typeof CHECKLIST_CATEGORIES)[number];
  required: boolean;
  provider: (typeof ITEM_PROVIDERS)[number];
  borrowerVisible: boolean;
  /** Whole days as typed; empty for none. */
  dueInDays: string;
  validityDays: string;
  /** The ones ticked: all of them is every purpose (none named in the API), none is an error. */
  purposes: LoanPurpose[];
  propertyTypes: PropertyType[];
}

export interface TemplateValues {
  revision: string;
  items: TemplateItemValues[];
}

export function templateValuesOf(template: { revision: string; items: readonly TemplateItem[] }): TemplateValues {
  return {
    revision: template.revision,
    items: template.items.map((item) => ({
      key: item.key,
      label: item.label,
      category: item.category,
      required: item.required,
      provider: item.provider,
      borrowerVisible: item.borrowerVisible,
      dueInDays: item.dueInDays === undefined ? '' : String(item.dueInDays),
      validityDays: item.validityDays === undefined ? '' : String(item.validityDays),
      purposes: [...(item.purposes ?? LOAN_PURPOSES)],
      propertyTypes: [...(item.propertyTypes ?? PROPERTY_TYPES)],
    })),
  };
}

/** A new item: required, from the borrower, seen by the borrower, on every loan. */
export function newItemValues(): TemplateItemValues {
  return {
    key: '',
    label: '',
    category: 'property',
    required: true,
    provider: 'borrower',
    borrowerVisible: true,
    dueInDays: '',
    validityDays: '',
    purposes: [...LOAN_PURPOSES],
    propertyTypes: [...PROPERTY_TYPES],
  };
}

/** "Lease addendum (unit B)" → "lease-addendum-unit-b": the API's key pattern, at most 50 characters. */
export function keyFromLabel(label: string): string {
  const slug = label
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, 50)
    .replace(/^-+|-+$/g, '');
  return slug || 'item';
}

/** Keys for the items added here, unlike every other key of the template. */
function withKeys(items: readonly TemplateItemValues[]): TemplateItemValues[] {
  const taken = new Set(items.map((item) => item.key).filter(Boolean));
  return items.map((item) => {
    if (item.key) return item;
    const base = keyFromLabel(item.label);
    let key = base;
    for (let n = 2; taken.has(key); n++) key = `${base}-${n}`;
    taken.add(key);
    return { ...item, key };
  });
}

/** Days as typed: empty is none, anything else a number the API's schema checks (whole, 1 to 3650). */
const days = (value: string) => (value.trim() === '' ? null : Number(value.trim()));
/** Everything ticked is "all" (null), so a purpose added later applies too; nothing ticked stays empty for the schema to refuse. */
const subset = <T extends string>(ticked: readonly T[], all: readonly T[]): T[] | null =>
  all.every((value) => ticked.includes(value)) ? null : all.filter((value) => ticked.includes(value));

export function templateInputOf(values: TemplateValues): ChecklistTemplateInput {
  return {
    revision: values.revision,
    items: withKeys(values.items).map((item) => ({
      key: item.key,
      label: item.label,
      category: item.category,
      required: item.required,
      provider: item.provider,
      borrowerVisible: item.borrowerVisible,
      dueInDays: days(item.dueInDays),
      validityDays: days(item.validityDays),
      purposes: subset(item.purposes, LOAN_PURPOSES),
      propertyTypes: subset(item.propertyTypes, PROPERTY_TYPES),
    })),
  };
}

const ItemValuesSchema = z.object({
  key: z.string(),
  label: z.string(),
  category: z.enum(CHECKLIST_CATEGORIES),
  required: z.boolean(),
  provider: z.enum(ITEM_PROVIDERS),
  borrowerVisible: z.boolean(),
  dueInDays: z.string(),
  validityDays: z.string(),
  // A checkbox group react-hook-form reads as an array of the ticked values.
  purposes: z.array(z.enum(LOAN_PURPOSES)),
  propertyTypes: z.array(z.enum(PROPERTY_TYPES)),
});

/** The editor's values, turned into the API's input and checked by the API's own schema. */
export const TemplateFormSchema = z
  .object({ revision: z.string(), items: z.array(ItemValuesSchema) })
  .transform((values) => templateInputOf(values))
  .pipe(ChecklistTemplateSchema);
