import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Button } from './button';
import { Spinner } from './spinner';

/**
 * Asks for a reason before an action that needs one (waive an item, "doesn't
 * apply to me"). On the native <dialog>: it traps focus, closes on Escape and
 * hands focus back. An empty reason is refused beside the field.
 */
export function ReasonDialog({
  open,
  title,
  children,
  confirmLabel,
  busy = false,
  maxLength = 500,
  onConfirm,
  onClose,
}: {
  open: boolean;
  title: string;
  children?: ReactNode;
  confirmLabel: string;
  busy?: boolean;
  maxLength?: number;
  onConfirm: (reason: string) => void;
  onClose: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const fieldId = useId();
  const errorId = useId();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      setReason('');
      setError(null);
      dialog.showModal();
    }
    if (!open && dialog.open) dialog.close();
  }, [open]);

  function submit(event: FormEvent) {
    event.preventDefault();
    const text = reason.trim();
    if (!text) {
      setError('Give the reason');
      return;
    }
    onConfirm(text);
  }

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        if (!busy) onClose();
      }}
      className="m-auto w-[calc(100%-2rem)] max-w-md rounded-2xl bg-white p-6 text-slate-900 shadow-xl backdrop:bg-slate-900/50"
    >
      {/* Rendered while open only: a closed dialog leaves no second "Reason" field in the page. */}
      {open ? (
        <form onSubmit={submit} noValidate>
          <h2 id={titleId} className="text-lg font-semibold">
            {title}
          </h2>
          {children ? <div className="mt-2 text-sm text-slate-600">{children}</div> : null}
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
            maxLength={maxLength}
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
            <Button variant="secondary" onClick={onClose} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy}>
              {busy ? <Spinner /> : null}
              {confirmLabel}
            </Button>
          </div>
        </form>
      ) : null}
    </dialog>
  );
}
