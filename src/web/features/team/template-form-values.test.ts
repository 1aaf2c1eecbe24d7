import { describe, expect, it } from 'vitest';
import { DSCR_TEMPLATE } from '../../../shared/domain/checklist-templates';
import { LOAN_PURPOSES, PROPERTY_TYPES } from '../../../shared/domain/loan-fields';
import { toFieldIssues } from '../../../shared/schemas/validation';
import { keyFromLabel, newItemValues, TemplateFormSchema, templateInputOf, templateValuesOf } from './template-form-values';

const revision = '0123456789abcdef';

describe('the template editor’s values', () => {
  it('round-trips the built-in template into the API’s input, purposes and property types in their canonical order', () => {
    const parsed = TemplateFormSchema.parse(templateValuesOf({ revision, items: DSCR_TEMPLATE }));
    expect(parsed.revision).toBe(revision);
    expect(parsed.items).toEqual(
      DSCR_TEMPLATE.map((item) => ({
        dueInDays: null,
        validityDays: null,
        purposes: null,
        propertyTypes: null,
        ...item,
        ...(item.purposes ? { purposes: LOAN_PURPOSES.filter((value) => item.purposes!.includes(value)) } : {}),
        ...(item.propertyTypes ? { propertyTypes: PROPERTY_TYPES.filter((value) => item.propertyTypes!.includes(value)) } : {}),
      })),
    );
  });

  it('makes keys for new items from their labels, unlike every other key', () => {
    expect(keyFromLabel('Lease addendum (unit B)')).toBe('lease-addendum-unit-b');
    expect(keyFromLabel('Crédit réservé')).toBe('credit-reserve');
    expect(keyFromLabel('  ✓✓ ')).toBe('item');
    expect(keyFromLabel('x'.repeat(80))).toHaveLength(50);
    const values = templateValuesOf({ revision, items: DSCR_TEMPLATE.slice(0, 2) });
    values.items.push({ ...newItemValues(), label: 'Government-issued photo ID' }, { ...newItemValues(), label: 'Government issued photo ID' });
    values.items[0]!.key = 'government-issued-photo-id';
    expect(templateInputOf(values).items.map((item) => item.key)).toEqual([
      'government-issued-photo-id',
      'government-id',
      'government-issued-photo-id-2',
      'government-issued-photo-id-3',
    ]);
  });

  it('reads days as typed, every box ticked as all, and names the bad field where the editor shows it', () => {
    const values = templateValuesOf({ revision, items: DSCR_TEMPLATE.slice(0, 1) });
    values.items[0] = { ...values.items[0]!, dueInDays: ' 7 ', validityDays: '', purposes: ['purchase'], propertyTypes: ['condo', 'single_family'] };
    expect(TemplateFormSchema.parse(values).items[0]).toMatchObject({
      dueInDays: 7,
      validityDays: null,
      purposes: ['purchase'],
      propertyTypes: ['single_family', 'condo'],
    });

    values.items[0] = { ...values.items[0]!, label: ' ', dueInDays: 'soon', validityDays: '0', purposes: [] };
    const result = TemplateFormSchema.safeParse(values);
    expect(result.success).toBe(false);
    expect(toFieldIssues(result.error!)).toEqual([
      { field: 'items.0.label', message: 'Give the item a label' },
      { field: 'items.0.dueInDays', message: 'Due in must be a number of days' },
      { field: 'items.0.validityDays', message: 'Validity must be at least 1 day' },
      { field: 'items.0.purposes', message: 'Pick at least one loan purpose' },
    ]);
  });
});
