import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { CONVERTED_PREVIEW_TYPES, DOCUMENT_TYPES, INLINE_PREVIEW_TYPES, type VersionReview } from '../../../../shared/domain/documents';
import { BORROWER_ITEM_STATE_LABELS, type BorrowerItemState } from '../../../../shared/domain/checklist-status';
import type { StoredFileView, VersionView } from '../../../../shared/schemas/documents';
import { formatCalendarDate } from '../../../lib/dates';
import { formatFileSize } from '../../../lib/file-size';
import { Button, buttonClasses } from '../../../ui/button';
import { Chip } from '../../../ui/chip';
import { DateTime } from '../../../ui/date-time';
import { LoadFailed } from '../../../ui/load-failed';
import { useVersions, versionsQueryOptions } from '../api/list-versions';
import { checklistItemPath } from '../api/get-checklist';
import { previewStateOf, type FilePreview } from './file-preview-dialog';

const REVIEWS: Record<VersionReview, { label: string; tone: 'navy' | 'green' | 'slate' | 'red' }> = {
  pending: { label: 'Waiting for review', tone: 'slate' },
  in_review: { label: 'In review', tone: 'navy' },
  approved: { label: 'Approved', tone: 'green' },
  needs_revision: { label: 'Needs revision', tone: 'red' },
};

/** A borrower reads a version's review in the same four words as their items (`borrowerItemState`). */
const BORROWER_REVIEWS: Record<VersionReview, BorrowerItemState> = {
  pending: 'sent',
  in_review: 'sent',
  approved: 'done',
  needs_revision: 'new_version',
};

/** Whether the page can show a file: PDFs and images at once, HEIC and TIFF through their converted preview (which may still be on its way). */
const hasPreview = (file: StoredFileView) => INLINE_PREVIEW_TYPES.includes(file.type) || CONVERTED_PREVIEW_TYPES.includes(file.type);

/** What the preview dialog needs of a file: where its preview and its bytes are, and how to learn that a converted preview is ready. */
function filePreviewOf(queryClient: QueryClient, loanId: string, itemId: string, file: StoredFileView): FilePreview {
  const fileUrl = `${checklistItemPath(loanId, itemId)}/files/${encodeURIComponent(file.id)}`;
  return {
    file,
    previewUrl: `${fileUrl}/preview`,
    downloadUrl: fileUrl,
    previewReady: async () => {
      const { versions } = await queryClient.fetchQuery({ ...versionsQueryOptions(loanId, itemId), staleTime: 0 });
      const now = versions.flatMap((version) => version.files).find((entry) => entry.id === file.id);
      return now ? previewStateOf(now) : 'none';
    },
  };
}

/**
 * An item's versions, newest first: each with who uploaded it and when, its
 * review (and the reason or the document's date), and its files to preview
 * or download. The team's review buttons come in through `actions`, shown
 * under the version they act on.
 */
export function DocumentVersions({
  loanId,
  itemId,
  label,
  onPreview,
  actions,
  forBorrower = false,
}: {
  loanId: string;
  itemId: string;
  label: string;
  onPreview: (preview: FilePreview, version: VersionView, newest: boolean) => void;
  actions?: (version: VersionView, newest: boolean) => ReactNode;
  /** A borrower's own uploads: reviews in the borrower's words. */
  forBorrower?: boolean;
}) {
  const versions = useVersions(loanId, itemId);
  const queryClient = useQueryClient();
  if (versions.isPending) return <p className="text-sm text-slate-600">Loading the documents…</p>;
  if (versions.isError) return <LoadFailed message="The documents could not be loaded." onRetry={() => void versions.refetch()} />;
  const list = versions.data.versions;
  if (list.length === 0) return <p className="text-sm text-slate-600">Nothing uploaded yet.</p>;
  return (
    <ol aria-label={`Versions of ${label}`} className="space-y-3">
      {list.map((version, index) => {
        const review = forBorrower
          ? { ...REVIEWS[version.review], label: BORROWER_ITEM_STATE_LABELS[BORROWER_REVIEWS[version.review]] }
          : REVIEWS[version.review];
        return (
          <li key={version.id} className="rounded-lg border border-slate-200 bg-white p-3">
            <div className="flex flex-wrap items-center gap-2">
              <p className="font-semibold text-slate-900">Version {version.number}</p>
              <Chip tone={review.tone}>{review.label}</Chip>
              {index === 0 && list.length > 1 ? <span className="text-xs text-slate-600">Newest</span> : null}
            </div>
            <p className="mt-1 text-sm text-slate-600">
              Uploaded by {version.uploadedBy} · <DateTime iso={version.uploadedAt} format="dateTime" />
            </p>
            {version.review === 'needs_revision' && version.reviewReason ? (
              <p className="mt-2 rounded-md bg-red-50 px-3 py-2 text-sm text-red-900">
                <span className="font-semibold">{forBorrower ? `${BORROWER_ITEM_STATE_LABELS.new_version}:` : 'What to change:'}</span> {version.reviewReason}
              </p>
            ) : null}
            {version.review === 'approved' && version.documentDate ? (
              <p className="mt-1 text-sm text-slate-700">Document dated {formatCalendarDate(version.documentDate)}</p>
            ) : null}
            <ul aria-label={`Files of version ${version.number}`} className="mt-2 divide-y divide-slate-100 border-t border-slate-100">
              {version.files.map((file) => {
                const preview = filePreviewOf(queryClient, loanId, itemId, file);
                return (
                  <li key={file.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                    <div className="min-w-0">
                      <p className="text-sm font-medium break-all text-slate-900">{file.name}</p>
                      <p className="text-xs text-slate-600">
                        {DOCUMENT_TYPES[file.type].label} · {formatFileSize(file.size)}
                      </p>
                    </div>
                    <div className="flex gap-2">
                      {hasPreview(file) ? (
                        <Button size="sm" variant="secondary" aria-label={`Preview ${file.name}`} onClick={() => onPreview(preview, version, index === 0)}>
                          Preview
                        </Button>
                      ) : null}
                      <a href={preview.downloadUrl} download aria-label={`Download ${file.name}`} className={buttonClasses({ variant: 'ghost', size: 'sm' })}>
                        Download
                      </a>
                    </div>
                  </li>
                );
              })}
            </ul>
            {actions?.(version, index === 0)}
          </li>
        );
      })}
    </ol>
  );
}
