import { useId, useRef, useState, useSyncExternalStore, type DragEvent } from 'react';
import { DOCUMENT_ACCEPT } from '../../shared/domain/documents';
import type { VersionView } from '../../shared/schemas/documents';
import { formatFileSize } from '../lib/file-size';
import { useDocumentUpload, type UploadEntry } from '../lib/use-document-upload';
import { Button } from './button';
import { Spinner } from './spinner';

const COARSE_POINTER = '(pointer: coarse)';
const subscribeToPointer = (onChange: () => void) => {
  const query = window.matchMedia(COARSE_POINTER);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
};

/** Whether the main pointer is a finger: a phone or a tablet, where "Take photo" opens the camera and nothing is dragged. */
function useTouchScreen() {
  return useSyncExternalStore(
    subscribeToPointer,
    () => window.matchMedia(COARSE_POINTER).matches,
    () => false,
  );
}

/**
 * Uploads one new version of a document: files dropped on it or chosen (on a
 * phone, "Take photo" opens the camera), checked before anything is sent,
 * then sent with a progress bar each, a retry for a refused file, and a
 * cancel that leaves nothing behind (lib/use-document-upload.ts). `base` is
 * where the item's uploads live; `label` names the document for assistive
 * technology.
 */
export function FileUpload({
  base,
  label,
  maxFileBytes,
  onUploaded,
}: {
  base: string;
  label: string;
  maxFileBytes: number;
  onUploaded: (version: VersionView) => void;
}) {
  const upload = useDocumentUpload({ base, maxFileBytes, onUploaded });
  const touch = useTouchScreen();
  const picker = useRef<HTMLInputElement>(null);
  const camera = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const titleId = useId();
  const hintId = useId();
  const choosing = upload.phase === 'choosing';
  const { entries } = upload;
  const allStored = entries.length > 0 && entries.every((entry) => entry.state === 'stored');

  const dragOver = (event: DragEvent) => {
    if (!choosing || !event.dataTransfer.types.includes('Files')) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    setDragging(true);
  };
  const drop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    upload.choose(event.dataTransfer.files);
  };

  return (
    <div role="group" aria-labelledby={titleId} className="mt-3">
      <p id={titleId} className="sr-only">
        Upload {label}
      </p>
      <div
        onDragEnter={dragOver}
        onDragOver={dragOver}
        onDragLeave={() => setDragging(false)}
        onDrop={drop}
        className={`rounded-xl border-2 border-dashed p-3 transition-colors ${dragging ? 'border-navy-600 bg-navy-50' : 'border-slate-300 bg-slate-50/60'}`}
      >
        <div className="flex flex-wrap items-center gap-2">
          {touch ? null : <span className="text-sm text-slate-700">Drop files here or</span>}
          <Button
            size="sm"
            variant="secondary"
            aria-label={`Choose files: ${label}`}
            aria-describedby={hintId}
            disabled={!choosing}
            onClick={() => picker.current?.click()}
          >
            Choose files
          </Button>
          {touch ? (
            <Button
              size="sm"
              variant="secondary"
              aria-label={`Take photo: ${label}`}
              aria-describedby={hintId}
              disabled={!choosing}
              onClick={() => camera.current?.click()}
            >
              Take photo
            </Button>
          ) : null}
        </div>
        <p id={hintId} className="mt-2 text-xs text-slate-600">
          PDF, JPEG, PNG, HEIC, TIFF, Word, Excel or CSV, up to {formatFileSize(maxFileBytes)} each. Several files make one version.
        </p>
        <input
          ref={picker}
          type="file"
          multiple
          accept={DOCUMENT_ACCEPT}
          hidden
          onChange={(event) => {
            upload.choose(event.target.files);
            // The same file chosen again still counts as a change.
            event.target.value = '';
          }}
        />
        <input
          ref={camera}
          type="file"
          accept="image/*"
          capture="environment"
          hidden
          onChange={(event) => {
            upload.choose(event.target.files);
            event.target.value = '';
          }}
        />
      </div>

      {entries.length > 0 ? (
        <ul aria-label={`Files to upload: ${label}`} className="mt-3 space-y-2">
          {entries.map((entry) => (
            <FileRow key={entry.key} entry={entry} choosing={choosing} onRemove={upload.remove} onRetry={upload.retry} />
          ))}
        </ul>
      ) : null}

      {upload.error ? (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {upload.error}
        </p>
      ) : null}

      {entries.length > 0 ? (
        <div className="mt-3 flex flex-wrap items-center gap-2">
          {choosing ? (
            <>
              <Button size="sm" onClick={upload.send}>
                Send {entries.length} {entries.length === 1 ? 'file' : 'files'}
              </Button>
              <Button size="sm" variant="ghost" onClick={upload.clear}>
                Clear
              </Button>
            </>
          ) : (
            <>
              {upload.phase === 'starting' || upload.phase === 'finishing' ? (
                <span className="inline-flex items-center gap-2 text-sm text-slate-700">
                  <Spinner />
                  {upload.phase === 'starting' ? 'Starting the upload…' : 'Making the version…'}
                </span>
              ) : null}
              {upload.phase === 'sending' && allStored ? (
                <Button size="sm" onClick={upload.finish}>
                  Finish the upload
                </Button>
              ) : null}
              <Button size="sm" variant="secondary" onClick={upload.cancel} disabled={upload.phase === 'finishing'}>
                Cancel upload
              </Button>
            </>
          )}
        </div>
      ) : null}

      <p aria-live="polite" className="sr-only">
        {upload.announcement}
      </p>
    </div>
  );
}

function FileRow({
  entry,
  choosing,
  onRemove,
  onRetry,
}: {
  entry: UploadEntry;
  choosing: boolean;
  onRemove: (key: string) => void;
  onRetry: (key: string) => void;
}) {
  const progressId = useId();
  const { file } = entry;
  const percent = file.size === 0 ? 0 : Math.min(100, Math.round((entry.sentBytes / file.size) * 100));
  return (
    <li className="rounded-lg border border-slate-200 bg-white p-2.5 text-sm">
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
        <p className="min-w-0 font-medium break-all text-slate-900">{file.name}</p>
        <p className="text-xs text-slate-600 tabular-nums">{formatFileSize(file.size)}</p>
      </div>
      {entry.problem ? <p className="mt-1 text-red-700">{entry.problem}</p> : null}
      {entry.state === 'sending' || entry.state === 'stored' ? (
        <div className="mt-1.5 flex items-center gap-3">
          <label htmlFor={progressId} className="sr-only">
            {`Sending ${file.name}`}
          </label>
          <progress
            id={progressId}
            max={100}
            value={percent}
            className="h-2 min-w-0 flex-1 appearance-none overflow-hidden rounded-full bg-slate-200 [&::-moz-progress-bar]:bg-navy-700 [&::-webkit-progress-bar]:bg-slate-200 [&::-webkit-progress-value]:bg-navy-700"
          />
          <span className="w-16 text-right text-xs text-slate-700 tabular-nums">{entry.state === 'stored' ? 'Sent' : `${percent}%`}</span>
        </div>
      ) : null}
      {entry.state === 'failed' ? (
        <div className="mt-1.5 flex flex-wrap items-center gap-2">
          <p className="text-red-700">{entry.error}</p>
          <Button size="sm" variant="secondary" aria-label={`Retry ${file.name}`} onClick={() => onRetry(entry.key)}>
            Retry
          </Button>
        </div>
      ) : null}
      {choosing ? (
        <Button size="sm" variant="ghost" className="mt-1 -ml-3" aria-label={`Remove ${file.name}`} onClick={() => onRemove(entry.key)}>
          Remove
        </Button>
      ) : null}
    </li>
  );
}
