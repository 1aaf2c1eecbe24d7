import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { DialogActions, ModalDialog } from './modal-dialog';

/** What a FieldDialog hands its field: the value, its error, and how to change it. */
export interface DialogField {
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
}

/**
 * A modal that asks for one value before an action (a reason, a document's
 * date). The value starts from `initial()` each time it opens; when `accept`
 * refuses it (null), `missing` is said beside the field and nothing is sent.
 * The field itself (a TextField, a TextAreaField) comes from `field`.
 */
export function FieldDialog({
  open,
  title,
  children,
  confirmLabel,
  busy = false,
  initial,
  accept,
  missing,
  field,
  onConfirm,
  onClose,
}: {
  open: boolean;
  title: string;
  children?: ReactNode;
  confirmLabel: string;
  busy?: boolean;
  initial: () => string;
  accept: (value: string) => string | null;
  missing: string;
  field: (props: DialogField) => ReactNode;
  onConfirm: (value: string) => void;
  onClose: () => void;
}) {
  const titleId = useId();
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);

  // Starts afresh each time it opens, in the render that opens it (no frame with the last value).
  const [shownOpen, setShownOpen] = useState(false);
  if (open !== shownOpen) {
    setShownOpen(open);
    if (open) {
      setValue(initial());
      setError(undefined);
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const accepted = accept(value);
    if (accepted === null) {
      setError(missing);
      return;
    }
    onConfirm(accepted);
  }

  return (
    <ModalDialog open={open} titleId={titleId} busy={busy} onClose={onClose}>
      {/* Rendered while open only: a closed dialog leaves no second field of the same name in the page. */}
      {open ? (
        <form onSubmit={submit} noValidate>
          <h2 id={titleId} className="text-lg font-semibold">
            {title}
          </h2>
          {children ? <div className="mt-2 text-sm text-slate-600">{children}</div> : null}
          <div className="mt-4">
            {field({
              value,
              error,
              onChange: (next) => {
                setValue(next);
                setError(undefined);
              },
            })}
          </div>
          <DialogActions busy={busy} onCancel={onClose} confirmLabel={confirmLabel} />
        </form>
      ) : null}
    </ModalDialog>
  );
}
