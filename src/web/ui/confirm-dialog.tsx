import { useId, type ReactNode } from 'react';
import { DialogActions, ModalDialog } from './modal-dialog';
import { Spinner } from './spinner';

// The confirming button is red. Kept here rather than as a Button variant, whose classes
// would ship in the public pages' render-blocking stylesheet (styles.css leaves this file out).
const dangerClasses =
  'inline-flex h-10 items-center justify-center gap-2 rounded-lg bg-red-700 px-4 text-sm font-semibold text-white transition-colors hover:bg-red-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-red-700 disabled:cursor-not-allowed disabled:opacity-70';

/**
 * A modal question before a change that is hard to undo (on ModalDialog).
 * Focus starts on Cancel, so a stray Enter changes nothing.
 */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  busy = false,
  onConfirm,
  onClose,
}: {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  busy?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const titleId = useId();
  const bodyId = useId();

  return (
    <ModalDialog open={open} titleId={titleId} describedBy={bodyId} busy={busy} onClose={onClose}>
      <h2 id={titleId} className="text-lg font-semibold">
        {title}
      </h2>
      <div id={bodyId} className="mt-2 text-sm text-slate-600">
        {children}
      </div>
      <DialogActions busy={busy} onCancel={onClose}>
        <button type="button" onClick={onConfirm} disabled={busy} className={dangerClasses}>
          {busy ? <Spinner /> : null}
          {confirmLabel}
        </button>
      </DialogActions>
    </ModalDialog>
  );
}
