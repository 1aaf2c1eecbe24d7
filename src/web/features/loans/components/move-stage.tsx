import { useId, useState, type FormEvent } from 'react';
import { canMoveStage, isExitStage, LOAN_STAGES, STAGE_LABELS, stageChangeNeedsReason, type LoanStage } from '../../../../shared/domain/loan-stages';
import type { LoanDetail } from '../../../../shared/schemas/loans';
import { ApiError } from '../../../lib/api-client';
import { failureDescription, useFailureNotice } from '../../../lib/me-context';
import { Button } from '../../../ui/button';
import { SelectField, TextAreaField } from '../../../ui/field';
import { Spinner } from '../../../ui/spinner';
import { useToast } from '../../../ui/toast';
import { useChangeStage } from '../api/change-stage';

/**
 * Moves the loan: the targets canMoveStage allows from where it is (an
 * exited loan only reopens), with a note, required for Withdrawn and
 * Declined. Sends the stage this person saw; if someone moved the loan
 * meanwhile the server says so (409), the message stays here and the loan is
 * read again.
 */
export function MoveStage({ loan }: { loan: LoanDetail }) {
  const toast = useToast();
  const notifyFailure = useFailureNotice();
  const headingId = useId();
  const changeStage = useChangeStage(loan.id);
  const exited = isExitStage(loan.stage);
  const targets = LOAN_STAGES.filter((to) => canMoveStage(loan.stage, to, { reopenTo: loan.leftFromStage }));
  const [to, setTo] = useState<LoanStage | ''>(exited ? (targets[0] ?? '') : '');
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<{ to?: string; note?: string; conflict?: string }>({});
  const needsReason = to !== '' && stageChangeNeedsReason(to);

  if (loan.archivedAt) return <p className="text-sm text-slate-600">Restore the loan to move it.</p>;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (to === '') return setErrors({ to: 'Choose the stage to move to' });
    if (needsReason && note.trim() === '') return setErrors({ note: `Give the reason the loan is ${STAGE_LABELS[to].toLowerCase()}` });
    setErrors({});
    try {
      await changeStage.mutateAsync({ from: loan.stage, to, note: note.trim() === '' ? null : note.trim() });
      toast({ title: 'Success!', description: `The loan is at ${STAGE_LABELS[to]}.` });
      setTo('');
      setNote('');
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) return setErrors({ conflict: error.message });
      if (error instanceof ApiError && error.fieldErrors.length > 0) {
        const byField = Object.fromEntries(error.fieldErrors.map((issue) => [issue.field, issue.message]));
        return setErrors({
          ...(byField.to ? { to: byField.to } : {}),
          ...(byField.note ? { note: byField.note } : {}),
          conflict: byField.to || byField.note ? undefined : failureDescription(error),
        });
      }
      notifyFailure('Moving the loan failed', error);
    }
  }

  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-labelledby={headingId} className="space-y-4">
      <h3 id={headingId} className="text-base font-semibold text-slate-900">
        {exited ? 'Reopen' : 'Move stage'}
      </h3>
      {exited ? (
        <p className="text-sm text-slate-600">
          A {STAGE_LABELS[loan.stage].toLowerCase()} loan reopens where it left: {targets[0] ? STAGE_LABELS[targets[0]] : 'its last stage'}.
        </p>
      ) : (
        <SelectField
          label="Move to"
          value={to}
          onChange={(event) => {
            setTo(event.target.value as LoanStage | '');
            setErrors({});
          }}
          error={errors.to}
        >
          <option value="">Choose a stage</option>
          <optgroup label="Stages">
            {targets
              .filter((stage) => !isExitStage(stage))
              .map((stage) => (
                <option key={stage} value={stage}>
                  {STAGE_LABELS[stage]}
                </option>
              ))}
          </optgroup>
          <optgroup label="Exits (need a reason)">
            {targets.filter(isExitStage).map((stage) => (
              <option key={stage} value={stage}>
                {STAGE_LABELS[stage]}
              </option>
            ))}
          </optgroup>
        </SelectField>
      )}
      <TextAreaField
        label={needsReason ? 'Reason' : 'Note (optional)'}
        required={needsReason}
        value={note}
        maxLength={2000}
        onChange={(event) => {
          setNote(event.target.value);
          setErrors((current) => ({ ...current, note: undefined }));
        }}
        error={errors.note}
        hint={needsReason ? 'Recorded in the stage history for your team.' : 'Recorded in the stage history; borrowers never see notes.'}
      />
      {errors.conflict ? (
        <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          {errors.conflict}
        </p>
      ) : null}
      <Button type="submit" disabled={changeStage.isPending}>
        {changeStage.isPending ? <Spinner /> : null}
        {exited ? `Reopen at ${targets[0] ? STAGE_LABELS[targets[0]] : 'last stage'}` : 'Move stage'}
      </Button>
    </form>
  );
}
