import { useEffect, useId, useRef, useState, type DragEvent, type FormEvent } from 'react';
import { DOCUMENT_ACCEPT } from '../../../shared/domain/documents';
import type { LinkUploadReceipt, UploadLinkInfo } from '../../../shared/schemas/upload-links';
import { ApiError } from '../../lib/api-client';
import { useDocumentTitle } from '../../lib/use-page-title';
import { AuthCardLayout } from '../../ui/auth-card-layout';
import { Button } from '../../ui/button';
import { Spinner } from '../../ui/spinner';
import { cancelLinkUpload } from './api/cancel-link-upload';
import { completeLinkUpload } from './api/complete-link-upload';
import { getUploadLink } from './api/get-upload-link';
import { sendLinkFile } from './api/send-link-file';
import { startLinkUpload } from './api/start-link-upload';

type Phase =
  | { kind: 'loading' }
  | { kind: 'unusable'; message: string; retry: boolean }
  | { kind: 'ready'; info: UploadLinkInfo }
  | { kind: 'done'; receipt: LinkUploadReceipt };

interface Chosen {
  file: File;
  sent: number;
  state: 'waiting' | 'sending' | 'sent' | 'failed';
  error?: string;
}

/** Why a link cannot be used, in words for its holder. */
function unusable(error: unknown): { message: string; retry: boolean } {
  if (error instanceof ApiError && error.status === 410) return { message: error.message, retry: false };
  if (error instanceof ApiError && error.status === 404)
    return { message: 'This link is not valid. Open the whole link from the e-mail, or ask the team who sent it for a new one.', retry: false };
  return { message: 'We could not check this link. Reload the page to try again.', retry: true };
}

const formatSize = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MB` : bytes >= 1024 ? `${Math.round(bytes / 1024)} KB` : `${bytes} bytes`;

/**
 * The page a third party's upload link opens (/upload#<token>): no account,
 * no navigation, phone first. It says who asks for what, takes one or more
 * files with their progress, and hands them to the team as one version,
 * which uses the link up. The token stays in the fragment (never sent with
 * the page, never in a Referer) and goes to the API in a header.
 */
export default function UploadLinkPage() {
  const [token] = useState(() => decodeURIComponent(window.location.hash.slice(1)));
  const [phase, setPhase] = useState<Phase>({ kind: 'loading' });
  useDocumentTitle(phase.kind === 'ready' ? `${phase.info.itemLabel} for ${phase.info.teamName}` : 'Upload documents');

  useEffect(() => {
    const controller = new AbortController();
    getUploadLink(token, controller.signal).then(
      (info) => setPhase({ kind: 'ready', info }),
      (error: unknown) => {
        if (!controller.signal.aborted) setPhase({ kind: 'unusable', ...unusable(error) });
      },
    );
    return () => controller.abort();
  }, [token]);

  return (
    <AuthCardLayout backLink={false}>
      {phase.kind === 'loading' ? (
        <p className="flex items-center justify-center gap-2 text-sm text-slate-600" role="status">
          <Spinner /> Checking your link…
        </p>
      ) : null}
      {phase.kind === 'unusable' ? (
        <>
          <h1 className="text-2xl font-bold tracking-tight text-slate-900">Upload documents</h1>
          <div className="mt-6 rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800" role="alert">
            <p className="font-semibold">{phase.message}</p>
          </div>
        </>
      ) : null}
      {phase.kind === 'ready' ? (
        <UploadForm
          token={token}
          info={phase.info}
          onDone={(receipt) => setPhase({ kind: 'done', receipt })}
          onUnusable={(error) => setPhase({ kind: 'unusable', ...unusable(error) })}
        />
      ) : null}
      {phase.kind === 'done' ? (
        <div role="status">
          <h1 className="text-2xl font-bold tracking-tight text-slate-900">Thank you — {phase.receipt.teamName} has your documents</h1>
          <ul className="mt-4 space-y-1 text-sm text-slate-700" aria-label="Files sent">
            {phase.receipt.files.map((file, index) => (
              <li key={index} className="break-words">
                {file.name} <span className="text-slate-600">({formatSize(file.size)})</span>
              </li>
            ))}
          </ul>
          <p className="mt-4 text-sm text-slate-600">
            You can close this page. This link has done its work: to send more, ask {phase.receipt.teamName} for a new one.
          </p>
        </div>
      ) : null}
    </AuthCardLayout>
  );
}

function UploadForm({
  token,
  info,
  onDone,
  onUnusable,
}: {
  token: string;
  info: UploadLinkInfo;
  onDone: (receipt: LinkUploadReceipt) => void;
  onUnusable: (error: unknown) => void;
}) {
  const inputId = useId();
  const hintId = useId();
  const errorId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [chosen, setChosen] = useState<Chosen[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [dragging, setDragging] = useState(false);
  /** The upload the files go to, once announced; a new choice of files starts a new one. */
  const uploadId = useRef<string | null>(null);
  const abort = useRef<AbortController | null>(null);

  function choose(files: FileList | null) {
    if (!files || files.length === 0) return;
    const list = [...files];
    const tooBig = list.find((file) => file.size > info.maxFileBytes);
    const empty = list.find((file) => file.size === 0);
    if (list.length > info.maxFiles) setError(`Send at most ${info.maxFiles} files at once.`);
    else if (tooBig) setError(`${tooBig.name} is larger than ${formatSize(info.maxFileBytes)}, the most one file may be.`);
    else if (empty) setError(`${empty.name} is empty.`);
    else setError(null);
    if (uploadId.current) void cancelLinkUpload(token, uploadId.current).catch(() => {});
    uploadId.current = null;
    setChosen(list.map((file) => ({ file, sent: 0, state: 'waiting' })));
  }

  const update = (index: number, change: Partial<Chosen>) => setChosen((all) => all.map((entry, i) => (i === index ? { ...entry, ...change } : entry)));

  async function send(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    if (chosen.length === 0) {
      setError('Choose the files to send first.');
      return;
    }
    if (error) return;
    setBusy(true);
    const controller = new AbortController();
    abort.current = controller;
    try {
      uploadId.current ??= (await startLinkUpload(token, { files: chosen.map(({ file }) => ({ name: file.name, size: file.size })) })).id;
      const id = uploadId.current;
      let failed = false;
      // One at a time: a phone's connection gives each file all it has, and a failure stops nothing already sent.
      for (const [index, entry] of chosen.entries()) {
        if (entry.state === 'sent') continue;
        update(index, { state: 'sending', sent: 0, error: undefined });
        try {
          await sendLinkFile(
            token,
            { uploadId: id, position: index + 1, file: entry.file },
            { onProgress: (sent) => update(index, { sent }), signal: controller.signal },
          );
          update(index, { state: 'sent', sent: entry.file.size });
        } catch (failure) {
          if (controller.signal.aborted) throw failure;
          if (failure instanceof ApiError && failure.status === 410) throw failure;
          failed = true;
          update(index, { state: 'failed', error: failure instanceof Error ? failure.message : 'Sending failed' });
        }
      }
      if (failed) {
        setError('Some files did not arrive. Send them again, or choose other files.');
        return;
      }
      onDone(await completeLinkUpload(token, id));
    } catch (failure) {
      if (controller.signal.aborted) return;
      if (failure instanceof ApiError && (failure.status === 410 || failure.status === 404)) onUnusable(failure);
      else setError(failure instanceof Error ? failure.message : 'Sending failed. Try again.');
    } finally {
      abort.current = null;
      setBusy(false);
    }
  }

  async function cancel() {
    abort.current?.abort();
    const id = uploadId.current;
    uploadId.current = null;
    setChosen([]);
    setError(null);
    if (inputRef.current) inputRef.current.value = '';
    if (id) await cancelLinkUpload(token, id).catch(() => {});
  }

  const drop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    if (!busy) choose(event.dataTransfer.files);
  };

  const failedSome = chosen.some((entry) => entry.state === 'failed');
  return (
    <>
      <div className="flex items-center gap-3">
        {info.teamLogoUrl ? <img src={info.teamLogoUrl} alt="" className="h-10 w-auto" /> : null}
        <p className="font-semibold text-slate-900">{info.teamName}</p>
      </div>
      <h1 className="mt-5 text-2xl font-bold tracking-tight text-slate-900">
        {info.teamName} asks you for: {info.itemLabel}
      </h1>
      <p className="mt-2 text-sm text-slate-700">
        Hello {info.recipientName}. This is for a property in {info.propertyCity}, {info.propertyState}. The link works for one upload, of one or more files,
        until {new Date(info.expiresAt).toLocaleDateString(undefined, { dateStyle: 'long' })}.
      </p>
      <form className="mt-6 space-y-4" onSubmit={(event) => void send(event)} noValidate aria-busy={busy}>
        <div
          onDragOver={(event) => {
            event.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={drop}
          className={`rounded-xl border-2 border-dashed p-4 ${dragging ? 'border-navy-600 bg-navy-50' : 'border-slate-300'}`}
        >
          <label htmlFor={inputId} className="block text-sm font-medium text-slate-800">
            Choose files, take a photo, or drop them here
          </label>
          <input
            ref={inputRef}
            id={inputId}
            type="file"
            multiple
            accept={DOCUMENT_ACCEPT}
            disabled={busy}
            aria-describedby={error ? `${hintId} ${errorId}` : hintId}
            aria-invalid={error ? true : undefined}
            onChange={(event) => choose(event.target.files)}
            className="mt-2 block w-full text-sm text-slate-700 file:mr-3 file:h-10 file:rounded-lg file:border-0 file:bg-navy-900 file:px-4 file:text-sm file:font-semibold file:text-white"
          />
          <p id={hintId} className="mt-2 text-xs text-slate-600">
            PDF, photos (JPEG, PNG, HEIC), TIFF, Word, Excel or CSV; up to {formatSize(info.maxFileBytes)} each, {info.maxFiles} files at most.
          </p>
        </div>
        {chosen.length > 0 ? (
          <ul className="space-y-3" aria-label="Files to send">
            {chosen.map((entry, index) => (
              <li key={index} className="text-sm">
                <p className="flex justify-between gap-2">
                  <span className="min-w-0 break-words text-slate-900">{entry.file.name}</span>
                  <span className="shrink-0 text-slate-600">
                    {entry.state === 'sent' ? 'Sent' : entry.state === 'failed' ? 'Not sent' : formatSize(entry.file.size)}
                  </span>
                </p>
                <progress
                  className="mt-1 h-2 w-full accent-navy-700"
                  max={entry.file.size}
                  value={entry.sent}
                  aria-label={`${entry.file.name}: ${Math.round((entry.sent / entry.file.size) * 100)}% sent`}
                />
                {entry.error ? <p className="mt-1 text-red-700">{entry.error}</p> : null}
              </li>
            ))}
          </ul>
        ) : null}
        {error ? (
          <p id={errorId} className="text-sm text-red-700" role="alert">
            {error}
          </p>
        ) : null}
        <div className="flex flex-col gap-3 sm:flex-row">
          <Button type="submit" size="lg" className="w-full sm:w-auto" disabled={busy || chosen.length === 0}>
            {busy ? <Spinner /> : null}
            {failedSome ? 'Send again' : chosen.length > 1 ? `Send ${chosen.length} files` : 'Send'}
          </Button>
          {chosen.length > 0 ? (
            <Button variant="secondary" size="lg" className="w-full sm:w-auto" onClick={() => void cancel()}>
              Cancel
            </Button>
          ) : null}
        </div>
      </form>
    </>
  );
}
