import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { nextItemStatus } from '../../../../shared/domain/checklist-status';
import type { ChecklistItemView } from '../../../../shared/schemas/checklist';
import type { VersionView } from '../../../../shared/schemas/documents';
import { ApiError } from '../../../lib/api-client';
import { useFailureNotice } from '../../../lib/me-context';
import { Button } from '../../../ui/button';
import { FileUpload } from '../../../ui/file-upload';
import { ReasonDialog } from '../../../ui/reason-dialog';
import { useToast } from '../../../ui/toast';
import { checklistItemPath } from '../api/get-checklist';
import { refreshDocuments, useVersions } from '../api/list-versions';
import { useReviewVersion } from '../api/review-version';
import { ApproveDialog } from './approve-dialog';
import { DocumentVersions } from './document-versions';
import { FilePreviewDialog, type FilePreview } from './file-preview-dialog';

/**
 * An item's documents on the team's checklist: its versions with their files,
 * the review of the newest one (opening its preview puts it In review; then
 * approve with the document's date, or send it back with the reason the
 * borrowers read), and an upload on the borrower's behalf. Every review names
 * the item version it read: when someone else changed the item meanwhile the
 * server answers 409, the item is read again and the person told.
 */
export function ItemDocuments({ loanId, item, maxFileBytes }: { loanId: string; item: ChecklistItemView; maxFileBytes: number }) {
  const queryClient = useQueryClient();
  const review = useReviewVersion(loanId);
  const notifyFailure = useFailureNotice();
  const toast = useToast();
  const [preview, setPreview] = useState<FilePreview | null>(null);
  const [approving, setApproving] = useState<VersionView | null>(null);
  const [revising, setRevising] = useState<VersionView | null>(null);
  // The same query DocumentVersions shows (shared, not sent twice): see the upload below.
  const versions = useVersions(loanId, item.id);

  const failed = (what: string) => (error: unknown) => {
    if (error instanceof ApiError && error.status === 409) {
      toast({ title: 'Error', description: `${error.message} The item has been read again: check it, then try again.`, variant: 'destructive' });
    } else {
      notifyFailure(what, error);
    }
  };

  const openPreview = (shown: FilePreview, version: VersionView, newest: boolean) => {
    setPreview(shown);
    // The team opening the newest version's file is what starts its review.
    if (newest && item.status === 'uploaded' && version.review === 'pending') {
      review.mutate({ step: 'open', itemId: item.id, versionId: version.id, version: item.version }, { onError: failed('Starting the review failed') });
    }
  };

  const reviewActions = (version: VersionView, newest: boolean) => {
    if (!newest) return null;
    const canApprove = nextItemStatus(item.status, 'approve') !== null && version.review !== 'approved';
    const canSendBack = nextItemStatus(item.status, 'request-revision') !== null && version.review !== 'needs_revision';
    if (!canApprove && !canSendBack) return null;
    return (
      <div className="mt-2 flex flex-wrap gap-2 border-t border-slate-100 pt-3">
        {canApprove ? (
          <Button size="sm" aria-label={`Approve version ${version.number}: ${item.label}`} disabled={review.isPending} onClick={() => setApproving(version)}>
            Approve
          </Button>
        ) : null}
        {canSendBack ? (
          <Button
            size="sm"
            variant="secondary"
            aria-label={`Needs revision, version ${version.number}: ${item.label}`}
            disabled={review.isPending}
            onClick={() => setRevising(version)}
          >
            Needs revision
          </Button>
        ) : null}
      </div>
    );
  };

  return (
    <div className="space-y-4">
      <DocumentVersions loanId={loanId} itemId={item.id} label={item.label} onPreview={openPreview} actions={reviewActions} />
      {/* Not while the versions load: their list would push the upload down under a finger about to tap it (a slow phone). */}
      {nextItemStatus(item.status, 'upload') && !versions.isPending ? (
        <div>
          <p className="text-sm font-medium text-slate-800">Upload a new version</p>
          <FileUpload
            base={checklistItemPath(loanId, item.id)}
            label={item.label}
            maxFileBytes={maxFileBytes}
            onUploaded={(version) => {
              toast({ title: 'Success!', description: `${item.label}: version ${version.number} uploaded.` });
              void refreshDocuments(queryClient, loanId);
            }}
          />
        </div>
      ) : null}
      <FilePreviewDialog preview={preview} onClose={() => setPreview(null)} />
      <ApproveDialog
        open={approving !== null}
        title={`Approve ${item.label}`}
        busy={review.isPending}
        onConfirm={(documentDate) =>
          approving &&
          review.mutate(
            { step: 'approve', itemId: item.id, versionId: approving.id, version: item.version, documentDate },
            {
              onSuccess: (reviewed) => {
                setApproving(null);
                // Approved, but already too old for the closing: the item is Expired, and the server says why.
                if (reviewed.notice) toast({ title: `${item.label}: expired`, description: reviewed.notice, variant: 'warning' });
                else toast({ title: 'Success!', description: `${item.label}: approved.` });
              },
              onError: (error) => {
                setApproving(null);
                failed('Approving failed')(error);
              },
            },
          )
        }
        onClose={() => setApproving(null)}
      >
        Version {approving?.number} becomes the approved document.
      </ApproveDialog>
      <ReasonDialog
        open={revising !== null}
        title={`Needs revision: ${item.label}`}
        confirmLabel="Send back"
        maxLength={1000}
        busy={review.isPending}
        onConfirm={(reason) =>
          revising &&
          review.mutate(
            { step: 'needs-revision', itemId: item.id, versionId: revising.id, version: item.version, reason },
            {
              onSuccess: () => {
                setRevising(null);
                toast({ title: 'Success!', description: `${item.label}: sent back for revision.` });
              },
              onError: (error) => {
                setRevising(null);
                failed('Sending it back failed')(error);
              },
            },
          )
        }
        onClose={() => setRevising(null)}
      >
        Say what needs to change. {item.borrowerVisible ? 'The borrowers read the reason.' : 'The item is internal: borrowers never see it.'}
      </ReasonDialog>
    </div>
  );
}
