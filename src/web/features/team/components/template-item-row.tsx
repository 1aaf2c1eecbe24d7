import { useId, type DragEvent } from 'react';
import type { FieldErrors, UseFormRegisterReturn } from 'react-hook-form';
import { CATEGORY_LABELS, CHECKLIST_CATEGORIES, ITEM_PROVIDER_LABELS, ITEM_PROVIDERS } from '../../../../shared/domain/checklist-templates';
import { LOAN_PURPOSES, LOAN_PURPOSE_LABELS, PROPERTY_TYPES, PROPERTY_TYPE_LABELS } from '../../../../shared/domain/loan-fields';
import { Button } from '../../../ui/button';
import { CheckboxField, SelectField, TextField } from '../../../ui/field';
import type { TemplateItemValues } from '../template-form-values';
import { TemplateItemSummary } from './template-item-summary';

type ItemField = Exclude<keyof TemplateItemValues, 'key'>;

export interface TemplateItemRowProps {
  /** The field array's id of the row: stable while it moves. */
  rowId: string;
  index: number;
  count: number;
  item: TemplateItemValues;
  errors: FieldErrors<TemplateItemValues> | undefined;
  open: boolean;
  /** A field's input props and its error (useAppForm's `field`). */
  field: (name: ItemField) => UseFormRegisterReturn & { error: string | undefined };
  onToggle: () => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
  /** Drag and drop: this row is being dragged, or one is over it. */
  dragging: boolean;
  dropTarget: boolean;
  onDragStart: (event: DragEvent) => void;
  onDragOver: (event: DragEvent) => void;
  onDrop: (event: DragEvent) => void;
  onDragEnd: () => void;
}

/**
 * One item of the template editor: folded, its summary with its buttons
 * (edit, move up and down, remove); open, every field of the item. A folded
 * row can be dragged to another place; the move buttons do the same by
 * keyboard.
 */
export function TemplateItemRow(props: TemplateItemRowProps) {
  const { rowId, index, count, item, errors, open, field, onToggle, onMove, onRemove } = props;
  const panelId = useId();
  const name = item.label.trim() || `Item ${index + 1}`;
  const hasErrors = errors !== undefined && Object.keys(errors).length > 0;

  return (
    <li
      draggable={!open}
      onDragStart={props.onDragStart}
      onDragOver={props.onDragOver}
      onDrop={props.onDrop}
      onDragEnd={props.onDragEnd}
      className={`p-3 sm:p-4 ${props.dragging ? 'opacity-50' : ''} ${props.dropTarget ? 'bg-navy-50 ring-2 ring-navy-600 ring-inset' : ''} ${hasErrors ? 'bg-red-50/40' : ''}`}
    >
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start">
        <div className="flex min-w-0 flex-1 gap-3">
          {open ? null : (
            <span aria-hidden="true" title="Drag to reorder" className="mt-0.5 hidden cursor-grab text-slate-400 select-none sm:inline">
              <svg viewBox="0 0 20 20" className="size-5" fill="currentColor">
                <path d="M7 4a1.5 1.5 0 1 1-3 0 1.5 1.5 0 0 1 3 0Zm0 6a1.5 1.5 0 1 1-3 0 1.5 1.5 0 0 1 3 0Zm-1.5 7.5a1.5 1.5 0 1 0 0-3 1.5 1.5 0 0 0 0 3ZM16 4a1.5 1.5 0 1 1-3 0 1.5 1.5 0 0 1 3 0Zm-1.5 7.5a1.5 1.5 0 1 0 0-3 1.5 1.5 0 0 0 0 3ZM16 16a1.5 1.5 0 1 1-3 0 1.5 1.5 0 0 1 3 0Z" />
              </svg>
            </span>
          )}
          <TemplateItemSummary item={item} fallbackLabel={name} />
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <Button
            size="sm"
            variant="secondary"
            aria-expanded={open}
            aria-controls={panelId}
            aria-label={`${open ? 'Done editing' : 'Edit'} ${name}`}
            onClick={onToggle}
          >
            {open ? 'Done' : 'Edit'}
          </Button>
          <Button id={`${rowId}-up`} size="sm" variant="ghost" aria-label={`Move ${name} up`} disabled={index === 0} onClick={() => onMove(-1)}>
            ↑
          </Button>
          <Button id={`${rowId}-down`} size="sm" variant="ghost" aria-label={`Move ${name} down`} disabled={index === count - 1} onClick={() => onMove(1)}>
            ↓
          </Button>
          <Button size="sm" variant="ghost" aria-label={`Remove ${name}`} onClick={onRemove}>
            Remove
          </Button>
        </div>
      </div>
      <div id={panelId} hidden={!open}>
        {open ? <ItemFields name={name} errors={errors} field={field} /> : null}
      </div>
    </li>
  );
}

function ItemFields({ name, errors, field }: { name: string; errors: FieldErrors<TemplateItemValues> | undefined; field: TemplateItemRowProps['field'] }) {
  const purposesId = useId();
  const typesId = useId();
  // A checkbox group: each box registers the same array field; its error shows once, under the group.
  const box = (which: 'purposes' | 'propertyTypes', value: string) => {
    const { error: _error, ...input } = field(which);
    return { ...input, value };
  };
  return (
    <div role="group" aria-label={`Fields of ${name}`} className="mt-4 grid gap-4 border-t border-slate-200 pt-4 sm:grid-cols-2">
      <TextField label="Label" required maxLength={120} autoComplete="off" {...field('label')} className="sm:col-span-2" />
      <SelectField label="Category" {...field('category')}>
        {CHECKLIST_CATEGORIES.map((value) => (
          <option key={value} value={value}>
            {CATEGORY_LABELS[value]}
          </option>
        ))}
      </SelectField>
      <SelectField label="Provided by" {...field('provider')}>
        {ITEM_PROVIDERS.map((value) => (
          <option key={value} value={value}>
            {ITEM_PROVIDER_LABELS[value]}
          </option>
        ))}
      </SelectField>
      <CheckboxField label="Required" {...field('required')} />
      <CheckboxField label="Borrowers see it" {...field('borrowerVisible')} />
      <TextField
        label="Due in (days)"
        inputMode="numeric"
        autoComplete="off"
        {...field('dueInDays')}
        hint="Days after the item is requested. Empty: no due date."
      />
      <TextField
        label="Valid for (days)"
        inputMode="numeric"
        autoComplete="off"
        {...field('validityDays')}
        hint="How long a document stays good from its date (bank statements 60). Empty: no limit."
      />
      <fieldset aria-describedby={errors?.purposes ? `${purposesId}-error` : undefined}>
        <legend className="text-sm font-medium text-slate-800">Loan purposes</legend>
        <p className="text-xs text-slate-600">Tick every one for all loans.</p>
        {LOAN_PURPOSES.map((value) => (
          <CheckboxField key={value} label={LOAN_PURPOSE_LABELS[value]} {...box('purposes', value)} />
        ))}
        {errors?.purposes ? (
          <p id={`${purposesId}-error`} className="mt-1 text-sm text-red-700">
            {errors.purposes.message ?? errors.purposes.root?.message}
          </p>
        ) : null}
      </fieldset>
      <fieldset aria-describedby={errors?.propertyTypes ? `${typesId}-error` : undefined}>
        <legend className="text-sm font-medium text-slate-800">Property types</legend>
        <p className="text-xs text-slate-600">Tick every one for all properties.</p>
        {PROPERTY_TYPES.map((value) => (
          <CheckboxField key={value} label={PROPERTY_TYPE_LABELS[value]} {...box('propertyTypes', value)} />
        ))}
        {errors?.propertyTypes ? (
          <p id={`${typesId}-error`} className="mt-1 text-sm text-red-700">
            {errors.propertyTypes.message ?? errors.propertyTypes.root?.message}
          </p>
        ) : null}
      </fieldset>
      {errors?.key ? <p className="text-sm text-red-700 sm:col-span-2">{errors.key.message}</p> : null}
    </div>
  );
}
