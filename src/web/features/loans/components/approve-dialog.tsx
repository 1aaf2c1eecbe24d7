import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { todayCalendarDate } from '../../../lib/dates';
import { Button } from '../../../ui/button';
import { Spinner } from '../../../ui/spinner';

const CALENDAR_DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Approving a version asks for the document's own date (a statement's
 * closing date, an appraisal's effective date), from which its validity
 * counts; today unless changed. On the native <dialog>, as ReasonDialog.
 */
export function ApproveDialog({
  open,
  title,
  children,
  busy = false,
  onConfirm,
  onClose,
}: {
  open: boolean;
  title: string;
  children?: ReactNode;
  busy?: boolean;
  onConfirm: (documentDate: string) => void;
  onClose: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const fieldId = useId();
  const hintId = useId();
  const errorId = useId();
  const [date, setDate] = useState('');
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      setDate(todayCalendarDate());
      setError(null);
      dialog.showModal();
    }
    if (!open && dialog.open) dialog.close();
  }, [open]);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!CALENDAR_DAY.test(date)) {
      setError("Give the document's date");
      return;
    }
    onConfirm(date);
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
      {open ? (
        <form onSubmit={submit} noValidate>
          <h2 id={titleId} className="text-lg font-semibold">
            {title}
          </h2>
          {children ? <div className="mt-2 text-sm text-slate-600">{children}</div> : null}
          <label htmlFor={fieldId} className="mt-4 block text-sm font-medium text-slate-800">
            Document date
            <span className="ml-0.5 text-red-700" aria-hidden="true">
              *
            </span>
          </label>
          <input
            id={fieldId}
            type="date"
            required
            value={date}
            aria-invalid={error ? true : undefined}
            aria-describedby={[hintId, error ? errorId : null].filter(Boolean).join(' ')}
            onChange={(event) => {
              setDate(event.target.value);
              if (error) setError(null);
            }}
            className={`mt-1.5 block h-11 w-full rounded-lg border bg-white px-3 text-base text-slate-900 shadow-sm focus:outline-2 focus:outline-offset-0 sm:text-sm ${
              error ? 'border-red-600 focus:outline-red-600' : 'border-slate-300 focus:border-navy-600 focus:outline-navy-600'
            }`}
          />
          <p id={hintId} className="mt-1 text-xs text-slate-600">
            The date on the document itself: its validity counts from it.
          </p>
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
              Approve
            </Button>
          </div>
        </form>
      ) : null}
    </dialog>
  );
}
