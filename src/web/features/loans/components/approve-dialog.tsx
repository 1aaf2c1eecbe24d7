import type { ReactNode } from 'react';
import { todayCalendarDate } from '../../../lib/dates';
import { TextField } from '../../../ui/field';
import { FieldDialog } from '../../../ui/field-dialog';

const CALENDAR_DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Approving a version asks for the document's own date (a statement's
 * closing date, an appraisal's effective date), from which its validity
 * counts; today unless changed.
 */
export function ApproveDialog(dialog: {
  open: boolean;
  title: string;
  children?: ReactNode;
  busy?: boolean;
  onConfirm: (documentDate: string) => void;
  onClose: () => void;
}) {
  return (
    <FieldDialog
      {...dialog}
      confirmLabel="Approve"
      initial={todayCalendarDate}
      accept={(date) => (CALENDAR_DAY.test(date) ? date : null)}
      missing="Give the document's date"
      field={({ value, error, onChange }) => (
        <TextField
          label="Document date"
          type="date"
          required
          value={value}
          error={error}
          hint="The date on the document itself: its validity counts from it."
          onChange={(event) => onChange(event.target.value)}
        />
      )}
    />
  );
}
