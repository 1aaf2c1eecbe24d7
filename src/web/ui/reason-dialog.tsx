import type { ReactNode } from 'react';
import { FieldDialog } from './field-dialog';
import { TextAreaField } from './field';

/**
 * Asks for a reason before an action that needs one (waive an item, "doesn't
 * apply to me", send a version back). An empty reason is refused beside the
 * field; the reason is sent trimmed.
 */
export function ReasonDialog({
  maxLength = 500,
  ...dialog
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
  return (
    <FieldDialog
      {...dialog}
      initial={() => ''}
      accept={(reason) => reason.trim() || null}
      missing="Give the reason"
      field={({ value, error, onChange }) => (
        <TextAreaField label="Reason" required maxLength={maxLength} rows={3} value={value} error={error} onChange={(event) => onChange(event.target.value)} />
      )}
    />
  );
}
