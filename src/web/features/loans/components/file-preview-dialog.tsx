import { lazy, Suspense, useId, useState } from 'react';
import { CONVERTED_PREVIEW_TYPES, DOCUMENT_TYPES } from '../../../../shared/domain/documents';
import type { StoredFileView } from '../../../../shared/schemas/documents';
import { formatFileSize } from '../../../lib/file-size';
import { Button, buttonClasses } from '../../../ui/button';
import { ModalDialog } from '../../../ui/modal-dialog';
import { Spinner } from '../../../ui/spinner';

// pdf.js is large: it loads with the first PDF preview, never with the page.
const PdfPages = lazy(() => import('./pdf-pages'));

export type PreviewState = 'ready' | 'pending' | 'none';

/** Where a file's preview stands, from its view: a HEIC or TIFF photo's is made in the background, and some files get none. */
export const previewStateOf = (file: StoredFileView): PreviewState => (file.previewable ? 'ready' : file.previewPending ? 'pending' : 'none');

export interface FilePreview {
  file: StoredFileView;
  /** GET …/files/:fileId/preview: the file itself for a PDF or an image, the JPEG made from a HEIC or TIFF photo. */
  previewUrl: string;
  downloadUrl: string;
  /** Reads the file's versions again: whether its converted preview is there now, still on its way, or never coming (too large, unreadable). */
  previewReady: () => Promise<PreviewState>;
}

/**
 * A file shown inside the page, on ModalDialog: a PDF through pdf.js, an image as an
 * image, a HEIC or TIFF photo through the JPEG preview the server makes in
 * the background (not there yet: it says so and offers to look again).
 */
export function FilePreviewDialog({ preview, onClose }: { preview: FilePreview | null; onClose: () => void }) {
  const titleId = useId();

  return (
    <ModalDialog open={preview !== null} titleId={titleId} size="viewer" onClose={onClose}>
      {preview ? (
        <>
          <div className="flex items-start justify-between gap-3 border-b border-slate-200 px-4 py-3">
            <div className="min-w-0">
              <h2 id={titleId} className="font-semibold break-all">
                {preview.file.name}
              </h2>
              <p className="text-xs text-slate-600">
                {DOCUMENT_TYPES[preview.file.type].label} · {formatFileSize(preview.file.size)}
              </p>
            </div>
            <Button size="sm" variant="secondary" onClick={onClose}>
              Close
            </Button>
          </div>
          {/* Focusable, so a keyboard scrolls a long page or a large photo too. */}
          <div
            tabIndex={0}
            role="region"
            aria-label={`Preview of ${preview.file.name}`}
            className="min-h-0 flex-1 overflow-auto bg-slate-100 p-3 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-navy-600 sm:p-4"
          >
            <PreviewBody preview={preview} />
          </div>
          <div className="flex justify-end border-t border-slate-200 px-4 py-3">
            <a href={preview.downloadUrl} download className={buttonClasses({ variant: 'secondary', size: 'sm' })}>
              Download
            </a>
          </div>
        </>
      ) : null}
    </ModalDialog>
  );
}

function PreviewBody({ preview }: { preview: FilePreview }) {
  const { file, previewUrl } = preview;
  if (file.type === 'application/pdf') {
    return (
      <Suspense
        fallback={
          <p className="flex items-center gap-2 text-sm text-slate-600">
            <Spinner /> Loading the viewer…
          </p>
        }
      >
        <PdfPages url={previewUrl} name={file.name} />
      </Suspense>
    );
  }
  return <ImagePreview key={previewUrl} preview={preview} />;
}

function ImagePreview({ preview }: { preview: FilePreview }) {
  const { file, previewUrl } = preview;
  const converted = CONVERTED_PREVIEW_TYPES.includes(file.type);
  // A HEIC or TIFF photo's JPEG is made in the background: until the versions say it is there, the image is not asked for (it would be a 409).
  const [made, setMade] = useState<PreviewState>(converted ? previewStateOf(file) : 'ready');
  const [looks, setLooks] = useState(0);
  const [checking, setChecking] = useState(false);
  const [state, setState] = useState<'loading' | 'shown' | 'failed'>('loading');
  if (made === 'none') {
    return (
      <p role="status" className="rounded-lg bg-white px-4 py-3 text-sm text-slate-700">
        No preview could be made of this photo (it is too large, or its contents could not be read): download it to open it.
      </p>
    );
  }
  if (made === 'pending') {
    return (
      <Preparing
        looks={looks}
        checking={checking}
        onRetry={() => {
          setChecking(true);
          void preview
            .previewReady()
            .catch((): PreviewState => 'pending')
            .then((now) => {
              setChecking(false);
              if (now !== 'pending') setMade(now);
              else setLooks((n) => n + 1);
            });
        }}
      />
    );
  }
  return (
    <div>
      {state === 'failed' ? (
        <p className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800">This image could not be shown here: download it to open it.</p>
      ) : null}
      {state === 'loading' ? (
        <p className="flex items-center gap-2 text-sm text-slate-600">
          <Spinner /> Loading the image…
        </p>
      ) : null}
      {state !== 'failed' ? (
        <img
          src={previewUrl}
          alt={`${file.name}${converted ? ' (preview)' : ''}`}
          onLoad={() => setState('shown')}
          onError={() => setState('failed')}
          className={`mx-auto h-auto max-w-full rounded bg-white shadow-sm ${state === 'shown' ? '' : 'sr-only'}`}
        />
      ) : null}
    </div>
  );
}

function Preparing({ looks, checking, onRetry }: { looks: number; checking: boolean; onRetry: () => void }) {
  return (
    <div role="status" className="rounded-lg bg-white px-4 py-3 text-sm text-slate-700">
      <p className="font-medium text-slate-900">Preview is being prepared</p>
      <p className="mt-1">
        This photo is being turned into an image every browser shows. It takes a moment; download it meanwhile if you need it now.
        {looks > 0 ? ' It is not ready yet.' : ''}
      </p>
      <Button size="sm" variant="secondary" className="mt-3" disabled={checking} onClick={onRetry}>
        {checking ? <Spinner /> : null}
        Look again
      </Button>
    </div>
  );
}
