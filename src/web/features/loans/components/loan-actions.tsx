import { useState } from 'react';
import { useNavigate } from 'react-router';
import type { LoanDetail } from '../../../../shared/schemas/loans';
import { ApiError } from '../../../lib/api-client';
import { useFailureNotice } from '../../../lib/me-context';
import { paths } from '../../../lib/paths';
import { Button } from '../../../ui/button';
import { ConfirmDialog } from '../../../ui/confirm-dialog';
import { TextField } from '../../../ui/field';
import { Spinner } from '../../../ui/spinner';
import { useToast } from '../../../ui/toast';
import { useSetLoanArchived } from '../api/archive-loan';
import { useDeleteLoan } from '../api/delete-loan';

/** Archive or restore (any team member); delete (owners, after typing the property street). */
export function LoanActions({ loan, canDelete }: { loan: LoanDetail; canDelete: boolean }) {
  const toast = useToast();
  const notifyFailure = useFailureNotice();
  const navigate = useNavigate();
  const setArchived = useSetLoanArchived(loan.id);
  const deleteLoan = useDeleteLoan(loan.id, loan.teamId);
  const [deleting, setDeleting] = useState(false);
  const [typed, setTyped] = useState('');
  const [deleteError, setDeleteError] = useState<string | undefined>();
  const archived = loan.archivedAt !== null;

  async function toggleArchived() {
    try {
      await setArchived.mutateAsync(!archived);
      toast({
        title: 'Success!',
        description: archived ? 'The loan is back on the pipeline.' : 'The loan is archived: it left the pipeline, and can be restored.',
      });
    } catch (error) {
      notifyFailure(archived ? 'Restoring the loan failed' : 'Archiving the loan failed', error);
    }
  }

  async function confirmDelete() {
    try {
      await deleteLoan.mutateAsync(typed);
      setDeleting(false);
      toast({ title: 'Success!', description: 'The loan was deleted.' });
      void navigate(paths.loans);
    } catch (error) {
      const field = error instanceof ApiError ? error.fieldErrors.find((issue) => issue.field === 'confirmAddress') : undefined;
      if (field) setDeleteError(field.message);
      else notifyFailure('Deleting the loan failed', error);
    }
  }

  return (
    <div className="space-y-3">
      <Button variant="secondary" className="w-full" onClick={() => void toggleArchived()} disabled={setArchived.isPending}>
        {setArchived.isPending ? <Spinner /> : null}
        {archived ? 'Restore loan' : 'Archive loan'}
      </Button>
      {canDelete ? (
        <>
          <Button
            variant="ghost"
            className="w-full text-red-800 hover:bg-red-50 hover:text-red-900"
            onClick={() => {
              setTyped('');
              setDeleteError(undefined);
              setDeleting(true);
            }}
          >
            Delete loan…
          </Button>
          <ConfirmDialog
            open={deleting}
            title="Delete this loan?"
            confirmLabel="Delete loan"
            busy={deleteLoan.isPending}
            onClose={() => setDeleting(false)}
            onConfirm={() => void confirmDelete()}
          >
            <p>The loan file, its stage history and its activity are deleted for good; your team’s audit log keeps a record. Archive it instead to keep it.</p>
            <TextField
              className="mt-4"
              label={`Type the property street (${loan.propertyStreet}) to confirm`}
              autoComplete="off"
              value={typed}
              onChange={(event) => {
                setTyped(event.target.value);
                setDeleteError(undefined);
              }}
              error={deleteError}
            />
          </ConfirmDialog>
        </>
      ) : null}
    </div>
  );
}
