import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type DragEvent } from 'react';
import { useFieldArray, useWatch, type FieldErrors, type Path } from 'react-hook-form';
import type { ChecklistTemplateView } from '../../../../shared/schemas/checklist';
import { ApiError } from '../../../lib/api-client';
import { useFailureNotice } from '../../../lib/me-context';
import { useAppForm } from '../../../lib/use-app-form';
import { useLeaveGuard } from '../../../lib/use-leave-guard';
import { Button } from '../../../ui/button';
import { ConfirmDialog } from '../../../ui/confirm-dialog';
import { Spinner } from '../../../ui/spinner';
import { useToast } from '../../../ui/toast';
import { checklistTemplateQueryOptions } from '../api/get-checklist-template';
import { useResetChecklistTemplate } from '../api/reset-checklist-template';
import { useSaveChecklistTemplate } from '../api/save-checklist-template';
import { newItemValues, TemplateFormSchema, templateValuesOf, type TemplateItemValues, type TemplateValues } from '../template-form-values';
import { TemplateItemRow } from './template-item-row';

/** The order fields are looked at for the first error to focus. */
const FIELD_ORDER = ['label', 'category', 'provider', 'required', 'borrowerVisible', 'dueInDays', 'validityDays', 'purposes', 'propertyTypes'] as const;

function firstErrorField(errors: FieldErrors<TemplateValues>): Path<TemplateValues> | null {
  const items = errors.items;
  if (!items) return null;
  for (const [index, item] of Object.entries(items)) {
    if (!/^\d+$/.test(index) || !item) continue;
    const name = FIELD_ORDER.find((field) => (item as Record<string, unknown>)[field]);
    if (name) return `items.${Number(index)}.${name}`;
  }
  return null;
}

/**
 * The owners' editor of the team's checklist template: the whole list in one
 * form, saved at once over the revision it was read at. Items fold to one
 * line; new ones and ones with an error stay open. Removing is undone from
 * the bar below the list; moving is by drag and drop or the arrow buttons,
 * announced either way.
 */
export function TemplateEditor({ teamId, template }: { teamId: string; template: ChecklistTemplateView }) {
  const toast = useToast();
  const notifyFailure = useFailureNotice();
  const queryClient = useQueryClient();
  const save = useSaveChecklistTemplate(teamId);
  const reset = useResetChecklistTemplate(teamId);
  const listHeadingId = useId();
  const [conflict, setConflict] = useState<string | null>(null);
  const [confirmReset, setConfirmReset] = useState(false);
  const [reloading, setReloading] = useState(false);
  // Rows whose open state differs from their default: saved items start folded, new ones open.
  const [toggled, setToggled] = useState<ReadonlySet<string>>(new Set());
  const [removed, setRemoved] = useState<{ item: TemplateItemValues; index: number } | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [dragging, setDragging] = useState<number | null>(null);
  const [over, setOver] = useState<number | null>(null);
  // A button to focus once the rows have moved: React may take a moved row out of the page for a moment, which drops focus.
  const focusNext = useRef<{ id: string; fallback?: string } | null>(null);
  const undoButton = useRef<HTMLButtonElement>(null);

  const { form, onSubmit, submitting, field } = useAppForm({
    schema: TemplateFormSchema,
    defaultValues: templateValuesOf(template),
    onSubmit: async (input) => {
      const saved = await save.mutateAsync(input);
      startFrom(saved);
      toast({ title: 'Success!', description: 'The checklist template has been saved. Loans opened from now on use it.' });
    },
    onFailure: (error) => {
      if (error instanceof ApiError && error.status === 409) setConflict(error.message);
      else notifyFailure('Saving the checklist template failed', error);
    },
  });
  const { fields, append, remove, insert, move } = useFieldArray({ control: form.control, name: 'items' });
  const items = useWatch({ control: form.control, name: 'items' });
  const { errors, isDirty, submitCount } = form.formState;
  const guard = useLeaveGuard(isDirty && !submitting);

  /** The form starts again from what the server holds now. */
  function startFrom(stored: ChecklistTemplateView) {
    form.reset(templateValuesOf(stored));
    setToggled(new Set());
    setRemoved(null);
    setConflict(null);
  }

  // A newer template read meanwhile (the page reopened on a cached copy, then read it again): taken while nothing is edited.
  useEffect(() => {
    if (!form.formState.isDirty && form.getValues('revision') !== template.revision) startFrom(template);
    // startFrom only sets state and resets the form.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [template]);

  // After a submit the fields with errors are open: focus the first of them.
  useEffect(() => {
    const first = firstErrorField(form.formState.errors);
    if (submitCount > 0 && first) form.setFocus(first);
    // Only on a new submit, not on every edit that clears an error.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [submitCount]);

  // Focus was on the row that left: it goes to the Undo button.
  useEffect(() => {
    if (removed) undoButton.current?.focus();
  }, [removed]);

  useEffect(() => {
    const target = focusNext.current;
    if (!target) return;
    focusNext.current = null;
    const button = document.getElementById(target.id);
    const usable = button instanceof HTMLButtonElement && !button.disabled ? button : target.fallback ? document.getElementById(target.fallback) : null;
    usable?.focus();
  }, [fields]);

  const nameOf = (index: number) => items[index]?.label.trim() || `Item ${index + 1}`;
  const isOpen = (index: number) => {
    const row = fields[index];
    const item = items[index] ?? row;
    if (!row || !item) return false;
    return errors.items?.[index] !== undefined || (item.key === '') !== toggled.has(row.id);
  };
  const toggle = (rowId: string) =>
    setToggled((current) => {
      const next = new Set(current);
      if (!next.delete(rowId)) next.add(rowId);
      return next;
    });

  function moveItem(from: number, to: number, { focus }: { focus: boolean }) {
    if (to < 0 || to >= fields.length || from === to) return;
    const row = fields[from];
    setAnnouncement(`${nameOf(from)} moved to position ${to + 1} of ${fields.length}`);
    if (focus && row) {
      const direction = to < from ? 'up' : 'down';
      focusNext.current = { id: `${row.id}-${direction}`, fallback: `${row.id}-${direction === 'up' ? 'down' : 'up'}` };
    }
    move(from, to);
  }

  function removeItem(index: number) {
    const item = form.getValues(`items.${index}`);
    setAnnouncement(`${nameOf(index)} removed. Undo puts it back.`);
    remove(index);
    setRemoved({ item, index });
  }

  function undoRemove() {
    if (!removed) return;
    const index = Math.min(removed.index, fields.length);
    insert(index, removed.item, { shouldFocus: false });
    setAnnouncement(`${removed.item.label.trim() || 'The item'} is back at position ${index + 1}.`);
    setRemoved(null);
  }

  function addItem() {
    setRemoved(null);
    append(newItemValues(), { shouldFocus: true, focusName: `items.${fields.length}.label` });
  }

  async function reload() {
    setReloading(true);
    try {
      startFrom(await queryClient.fetchQuery({ ...checklistTemplateQueryOptions(teamId), staleTime: 0 }));
      toast({ title: 'Reloaded', description: 'This is the template as it is saved now.' });
    } catch (error) {
      notifyFailure('Reloading the checklist template failed', error);
    } finally {
      setReloading(false);
    }
  }

  function resetToBuiltIn() {
    reset.mutate(form.getValues('revision'), {
      onSuccess: (stored) => {
        setConfirmReset(false);
        startFrom(stored);
        toast({ title: 'Success!', description: 'Your team uses the built-in DSCR checklist again.' });
      },
      onError: (error) => {
        setConfirmReset(false);
        if (error instanceof ApiError && error.status === 409) setConflict(error.message);
        else notifyFailure('Resetting the checklist template failed', error);
      },
    });
  }

  function onDragStart(event: DragEvent, index: number) {
    event.dataTransfer.effectAllowed = 'move';
    // Some browsers start a drag only with a payload.
    event.dataTransfer.setData('text/plain', nameOf(index));
    setDragging(index);
  }
  function onDragOver(event: DragEvent, index: number) {
    if (dragging === null) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'move';
    setOver(index);
  }
  function onDrop(event: DragEvent, index: number) {
    event.preventDefault();
    if (dragging !== null) moveItem(dragging, index, { focus: false });
    setDragging(null);
    setOver(null);
  }

  const listError = errors.items?.root?.message ?? errors.items?.message;
  const invalidCount = Array.isArray(errors.items) ? errors.items.filter(Boolean).length : 0;

  return (
    <>
      <form onSubmit={onSubmit} noValidate aria-labelledby={listHeadingId} aria-busy={submitting}>
        <div className="flex flex-wrap items-end justify-between gap-3">
          <h2 id={listHeadingId} className="text-lg font-semibold text-slate-900">
            Items <span className="font-normal text-slate-600">({fields.length})</span>
          </h2>
          {template.builtIn ? null : (
            <Button variant="secondary" size="sm" onClick={() => setConfirmReset(true)}>
              Reset to built-in
            </Button>
          )}
        </div>
        <p aria-live="polite" className="sr-only">
          {announcement}
        </p>
        {listError ? (
          <p role="alert" className="mt-3 text-sm text-red-700">
            {listError}
          </p>
        ) : null}
        <ol aria-labelledby={listHeadingId} className="mt-3 divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white">
          {fields.map((row, index) => {
            // useWatch hears of an appended row a render after the field array: until then the row shows the values it was added with.
            const { id: _id, ...added } = row;
            const item = items[index] ?? added;
            return (
              <TemplateItemRow
                key={row.id}
                rowId={row.id}
                index={index}
                count={fields.length}
                item={item}
                errors={errors.items?.[index]}
                open={isOpen(index)}
                field={(name) => field(`items.${index}.${name}`)}
                onToggle={() => toggle(row.id)}
                onMove={(by) => moveItem(index, index + by, { focus: true })}
                onRemove={() => removeItem(index)}
                dragging={dragging === index}
                dropTarget={over === index && dragging !== null && dragging !== index}
                onDragStart={(event) => onDragStart(event, index)}
                onDragOver={(event) => onDragOver(event, index)}
                onDrop={(event) => onDrop(event, index)}
                onDragEnd={() => {
                  setDragging(null);
                  setOver(null);
                }}
              />
            );
          })}
        </ol>
        <Button className="mt-4" variant="secondary" onClick={addItem}>
          Add an item
        </Button>

        <div className="sticky bottom-0 z-10 mt-6 -mx-4 border-t border-slate-200 bg-white/95 px-4 py-3 backdrop-blur sm:mx-0 sm:rounded-xl sm:border">
          {conflict ? (
            <div role="alert" className="mb-3 flex flex-wrap items-center gap-3 rounded-lg border border-red-200 bg-red-50 px-3 py-3 text-sm text-red-800">
              <p className="min-w-0 flex-1 font-semibold">{conflict}</p>
              <Button variant="secondary" onClick={() => void reload()} disabled={reloading}>
                {reloading ? <Spinner /> : null}
                Reload
              </Button>
            </div>
          ) : null}
          {removed ? (
            <div className="mb-3 flex flex-wrap items-center gap-3 text-sm text-slate-700">
              <p className="min-w-0 flex-1">Removed “{removed.item.label.trim() || 'an item without a label'}”.</p>
              <Button ref={undoButton} size="sm" variant="secondary" onClick={undoRemove}>
                Undo
              </Button>
            </div>
          ) : null}
          <div className="flex flex-wrap items-center gap-3">
            <p className="min-w-0 flex-1 text-sm text-slate-600">
              {invalidCount > 0
                ? `${invalidCount === 1 ? 'One item needs' : `${invalidCount} items need`} attention: see the fields marked in red.`
                : isDirty
                  ? 'You have unsaved changes.'
                  : template.builtIn
                    ? 'Saving makes this list your team’s own.'
                    : 'Everything is saved.'}
            </p>
            <Button type="submit" disabled={submitting || reloading}>
              {submitting ? <Spinner /> : null}
              Save template
            </Button>
          </div>
        </div>
      </form>

      <ConfirmDialog
        open={confirmReset}
        title="Reset to the built-in checklist?"
        confirmLabel="Reset"
        busy={reset.isPending}
        onConfirm={resetToBuiltIn}
        onClose={() => setConfirmReset(false)}
      >
        Your team&apos;s template is replaced by the built-in DSCR checklist for loans opened from now on; loans already open keep their items.
        {isDirty ? ' Your unsaved changes are lost.' : ''}
      </ConfirmDialog>
      <ConfirmDialog open={guard.leaving} title="Leave without saving?" confirmLabel="Leave" onConfirm={guard.leave} onClose={guard.stay}>
        Your changes to the checklist template are not saved yet.
      </ConfirmDialog>
    </>
  );
}
