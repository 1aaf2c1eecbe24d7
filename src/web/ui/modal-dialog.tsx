import { useEffect, useRef, type ReactNode } from 'react';
import { Button } from './button';
import { Spinner } from './spinner';

// Whole class strings, so Tailwind finds each of them in this file.
const SIZES = {
  /** A question or a short form. */
  md: 'm-auto w-[calc(100%-2rem)] max-w-md rounded-2xl bg-white p-6 text-slate-900 shadow-xl backdrop:bg-slate-900/50',
  /** A list with a form under it. */
  lg: 'm-auto w-[calc(100%-2rem)] max-w-lg rounded-2xl bg-white p-6 text-slate-900 shadow-xl backdrop:bg-slate-900/50',
  /** A document, as tall as the screen allows; the content lays out its own header, body and footer. */
  viewer:
    'm-auto h-[calc(100dvh-1rem)] max-h-[60rem] w-[calc(100%-1rem)] max-w-4xl flex-col rounded-2xl bg-white text-slate-900 shadow-xl backdrop:bg-slate-900/60 open:flex',
} as const;

/**
 * Every modal of the app sits on the native <dialog>, shown with showModal():
 * it traps focus, closes on Escape and hands focus back itself. Escape asks
 * `onClose` rather than closing, so the page decides, and does nothing while
 * `busy` (a running request is not orphaned).
 */
export function ModalDialog({
  open,
  titleId,
  describedBy,
  busy = false,
  size = 'md',
  onClose,
  children,
}: {
  open: boolean;
  /** The id of the dialog's heading, which names it. */
  titleId: string;
  describedBy?: string;
  busy?: boolean;
  size?: keyof typeof SIZES;
  onClose: () => void;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      aria-describedby={describedBy}
      onCancel={(event) => {
        event.preventDefault();
        if (!busy) onClose();
      }}
      className={SIZES[size]}
    >
      {children}
    </dialog>
  );
}

/** A dialog's last row: Cancel, then the action (a submit button unless given one), stacked on a phone with the action on top. */
export function DialogActions({
  busy,
  onCancel,
  confirmLabel,
  children,
}: {
  busy: boolean;
  onCancel: () => void;
  confirmLabel?: string;
  children?: ReactNode;
}) {
  return (
    <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
      <Button variant="secondary" onClick={onCancel} disabled={busy}>
        Cancel
      </Button>
      {children ?? (
        <Button type="submit" disabled={busy}>
          {busy ? <Spinner /> : null}
          {confirmLabel}
        </Button>
      )}
    </div>
  );
}
