import { CATEGORY_LABELS, ITEM_PROVIDER_LABELS } from '../../../../shared/domain/checklist-templates';
import { LOAN_PURPOSES, LOAN_PURPOSE_LABELS, PROPERTY_TYPES, PROPERTY_TYPE_LABELS } from '../../../../shared/domain/loan-fields';
import { plural } from '../../../lib/plural';
import { Chip } from '../../../ui/chip';
import type { TemplateItemValues } from '../template-form-values';

/** Which deals an item is for, in words: "Every loan", or "Only for" the purposes and property types ticked. */
export function appliesToText(item: Pick<TemplateItemValues, 'purposes' | 'propertyTypes'>): string {
  const purposes = LOAN_PURPOSES.filter((value) => item.purposes.includes(value));
  const types = PROPERTY_TYPES.filter((value) => item.propertyTypes.includes(value));
  if (purposes.length === 0 || types.length === 0) return 'No loan yet: tick a purpose and a property type';
  const parts = [
    purposes.length === LOAN_PURPOSES.length ? null : purposes.map((value) => LOAN_PURPOSE_LABELS[value]).join(', '),
    types.length === PROPERTY_TYPES.length ? null : types.map((value) => PROPERTY_TYPE_LABELS[value]).join(', '),
  ].filter(Boolean);
  return parts.length === 0 ? 'Every loan' : `Only for ${parts.join('; ')}`;
}

const daysText = (value: string) => {
  const days = Number(value.trim());
  return Number.isInteger(days) && days > 0 ? plural(days, 'day', 'days') : `${value.trim()} days`;
};

/** One item's label, its marks and what it asks for, as the list shows it folded. */
export function TemplateItemSummary({ item, fallbackLabel }: { item: TemplateItemValues; fallbackLabel: string }) {
  const details = [
    CATEGORY_LABELS[item.category],
    `From ${ITEM_PROVIDER_LABELS[item.provider].toLowerCase()}`,
    item.dueInDays.trim() ? `Due in ${daysText(item.dueInDays)}` : null,
    item.validityDays.trim() ? `Valid ${daysText(item.validityDays)}` : null,
  ].filter(Boolean);
  return (
    <div className="min-w-0">
      <div className="flex flex-wrap items-center gap-2">
        <p className="font-medium break-words text-slate-900">{item.label.trim() || fallbackLabel}</p>
        {item.required ? null : <Chip tone="slate">Optional</Chip>}
        {item.borrowerVisible ? null : <Chip tone="navy">Internal</Chip>}
      </div>
      <p className="mt-1 text-sm text-slate-600">{details.join(' · ')}</p>
      <p className="mt-0.5 text-sm text-slate-600">{appliesToText(item)}</p>
    </div>
  );
}
