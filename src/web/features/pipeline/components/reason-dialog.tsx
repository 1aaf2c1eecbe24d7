import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { STAGE_LABELS } from '../../../../shared/domain/loan-stages';
import { Button } from '../../../ui/button';
import type { StageMove } from '../api/change-stage';

const REASON_MAX = 2000;

/**
 * The reason a loan leaves the line (Withdrawn, Declined), asked before the
 * move is sent: the server refuses an exit without one. On the native
 * <dialog>, which traps focus, closes on Escape and hands focus back.
 */
export function ReasonDialog({ move, onConfirm, onClose }: { move: StageMove | null; onConfirm: (move: StageMove) => void; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const fieldId = useId();
  const errorId = useId();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (move && !dialog.open) {
      setReason('');
      setError(null);
      dialog.showModal();
    }
    if (!move && dialog.open) dialog.close();
  }, [move]);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!move) return;
    const text = reason.trim();
    if (!text) {
      setError('Give the reason');
      return;
    }
    onConfirm({ ...move, note: text });
  }

  const label = move ? STAGE_LABELS[move.to] : '';
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      className="m-auto w-[calc(100%-2rem)] max-w-md rounded-2xl bg-white p-6 text-slate-900 shadow-xl backdrop:bg-slate-900/50"
    >
      <form onSubmit={submit} noValidate>
        <h2 id={titleId} className="text-lg font-semibold">
          Mark {move?.row.borrowerName ?? 'the loan'} as {label.toLowerCase()}
        </h2>
        <p className="mt-2 text-sm text-slate-600">
          The loan leaves the open pipeline. Its team sees the reason in the stage history; it can be reopened later.
        </p>
        <label htmlFor={fieldId} className="mt-4 block text-sm font-medium text-slate-800">
          Reason
          <span className="ml-0.5 text-red-700" aria-hidden="true">
            *
          </span>
        </label>
        <textarea
          id={fieldId}
          value={reason}
          required
          maxLength={REASON_MAX}
          rows={3}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          onChange={(event) => {
            setReason(event.target.value);
            if (error) setError(null);
          }}
          className={`mt-1.5 block w-full rounded-lg border bg-white px-3 py-2 text-base text-slate-900 shadow-sm focus:outline-2 focus:outline-offset-0 sm:text-sm ${
            error ? 'border-red-600 focus:outline-red-600' : 'border-slate-300 focus:border-navy-600 focus:outline-navy-600'
          }`}
        />
        {error ? (
          <p id={errorId} className="mt-1 text-sm text-red-700">
            {error}
          </p>
        ) : null}
        <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit">Mark {label.toLowerCase()}</Button>
        </div>
      </form>
    </dialog>
  );
}
