import { useEffect, useRef, useState } from 'react';
import { MAX_FILES_PER_VERSION } from '../../shared/domain/documents';
import type { VersionView } from '../../shared/schemas/documents';
import { ApiError } from './api-client';
import { cancelUpload, completeUpload, isAbort, sendUploadFile, startUpload, type FileSending } from './api/document-uploads';
import { fileSizeProblem } from './file-size';
import { failureDescription } from './me-context';

/** Where one chosen file is: waiting to be sent, on its way, stored on the server, or refused (it can be sent again). */
export type UploadFileState = 'chosen' | 'sending' | 'stored' | 'failed';

export interface UploadEntry {
  key: string;
  file: File;
  /** Why the page will not send it (empty, over the limit): found before anything is sent. */
  problem: string | null;
  state: UploadFileState;
  sentBytes: number;
  /** The server's reason (problem+json detail), or a failed connection. */
  error: string | null;
}

/** choosing: files are being picked. starting: the upload is being announced. sending: files are on their way (or some failed). finishing: the version is being made. */
export type UploadPhase = 'choosing' | 'starting' | 'sending' | 'finishing';

/** Files sent side by side: a browser has six connections per host over HTTP/1.1, and the page needs some for itself. */
const SENDING_AT_ONCE = 3;

let keys = 0;

const sendFailure = (error: unknown) =>
  error instanceof ApiError && error.status === 0 ? 'The connection failed while sending this file.' : failureDescription(error);

/**
 * One version's upload from a page (lib/api/document-uploads.ts): the files
 * chosen are checked here first (empty, too large, too many), announced
 * together, sent a few at a time with their progress, and completed into a
 * version once every one of them is stored. A file the server refused can be
 * sent again; cancelling aborts what is on its way and deletes the upload,
 * so nothing is left behind, and keeps the files chosen. Leaving the page
 * mid-upload cancels it too.
 */
export function useDocumentUpload({ base, maxFileBytes, onUploaded }: { base: string; maxFileBytes: number; onUploaded: (version: VersionView) => void }) {
  const [entries, setEntries] = useState<UploadEntry[]>([]);
  const [phase, setPhase] = useState<UploadPhase>('choosing');
  const [error, setError] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  // The async steps read the newest list and upload from refs; the state is what renders.
  const current = useRef<UploadEntry[]>([]);
  const uploadId = useRef<string | null>(null);
  const sending = useRef(new Map<string, FileSending>());
  const finishing = useRef(false);
  // Bumped by cancel: whatever an abandoned run still hears back is ignored.
  const run = useRef(0);

  const update = (change: (list: UploadEntry[]) => UploadEntry[]) => {
    current.current = change(current.current);
    setEntries(current.current);
  };
  const patch = (key: string, values: Partial<UploadEntry>) => update((list) => list.map((entry) => (entry.key === key ? { ...entry, ...values } : entry)));

  useEffect(() => {
    // Counters and handles, not nodes: the cleanup must see their latest values.
    const [runs, active, started] = [run, sending.current, uploadId];
    return () => {
      // Leaving the page: stop sending, and give the server's upload up rather than leave it for the sweep.
      runs.current++;
      for (const request of active.values()) request.abort();
      if (started.current) void cancelUpload(base, started.current).catch(() => {});
      started.current = null;
    };
  }, [base]);

  function choose(files: FileList | File[] | null) {
    if (!files || files.length === 0 || phase !== 'choosing') return;
    const added = Array.from(files, (file) => ({
      key: `file-${++keys}`,
      file,
      problem: fileSizeProblem(file.size, maxFileBytes),
      state: 'chosen' as const,
      sentBytes: 0,
      error: null,
    }));
    update((list) => [...list, ...added]);
    setError(null);
    const refused = added.filter((entry) => entry.problem).length;
    setAnnouncement(
      `${added.length} ${added.length === 1 ? 'file' : 'files'} added${refused ? `, ${refused} of them cannot be sent` : ''}. ${current.current.length} ready to send.`,
    );
  }

  function remove(key: string) {
    if (phase !== 'choosing') return;
    const removed = current.current.find((entry) => entry.key === key);
    update((list) => list.filter((entry) => entry.key !== key));
    setError(null);
    if (removed) setAnnouncement(`${removed.file.name} removed.`);
  }

  async function sendOne(runId: number, key: string) {
    const position = current.current.findIndex((entry) => entry.key === key) + 1;
    const entry = current.current[position - 1];
    const id = uploadId.current;
    if (!entry || !id) return;
    patch(key, { state: 'sending', sentBytes: 0, error: null });
    const request = sendUploadFile(base, id, position, entry.file, (sentBytes) => {
      if (run.current === runId) patch(key, { sentBytes });
    });
    sending.current.set(key, request);
    try {
      await request.done;
      if (run.current !== runId) return;
      patch(key, { state: 'stored', sentBytes: entry.file.size });
      setAnnouncement(`${entry.file.name} sent.`);
    } catch (failure) {
      if (isAbort(failure) || run.current !== runId) return;
      const message = sendFailure(failure);
      patch(key, { state: 'failed', error: message });
      setAnnouncement(`${entry.file.name} was not sent: ${message}`);
    } finally {
      sending.current.delete(key);
    }
  }

  async function finishIfAllStored(runId: number) {
    const id = uploadId.current;
    if (!id || finishing.current || run.current !== runId || !current.current.every((entry) => entry.state === 'stored')) return;
    finishing.current = true;
    setPhase('finishing');
    setError(null);
    try {
      const version = await completeUpload(base, id);
      if (run.current !== runId) return;
      uploadId.current = null;
      update(() => []);
      setPhase('choosing');
      setAnnouncement(`Version ${version.number} uploaded.`);
      onUploaded(version);
    } catch (failure) {
      if (run.current !== runId) return;
      setPhase('sending');
      setError(failureDescription(failure));
      setAnnouncement(`The version was not made: ${failureDescription(failure)}`);
    } finally {
      finishing.current = false;
    }
  }

  async function send() {
    const list = current.current;
    if (phase !== 'choosing') return;
    if (list.length === 0) return setError('Choose at least one file.');
    if (list.length > MAX_FILES_PER_VERSION)
      return setError(`Send at most ${MAX_FILES_PER_VERSION} files at once: remove ${list.length - MAX_FILES_PER_VERSION}.`);
    if (list.some((entry) => entry.problem)) return setError('Remove the files that cannot be sent first.');
    const runId = ++run.current;
    setPhase('starting');
    setError(null);
    let id: string;
    try {
      id = (
        await startUpload(
          base,
          list.map(({ file }) => ({ name: file.name, size: file.size })),
        )
      ).id;
    } catch (failure) {
      if (run.current !== runId) return;
      setPhase('choosing');
      setError(failureDescription(failure));
      return;
    }
    if (run.current !== runId) {
      // Cancelled while it was being announced.
      void cancelUpload(base, id).catch(() => {});
      return;
    }
    uploadId.current = id;
    setPhase('sending');
    setAnnouncement(`Sending ${list.length} ${list.length === 1 ? 'file' : 'files'}.`);
    const queue = list.map((entry) => entry.key);
    const worker = async () => {
      for (let key = queue.shift(); key !== undefined && run.current === runId; key = queue.shift()) await sendOne(runId, key);
    };
    await Promise.all(Array.from({ length: Math.min(SENDING_AT_ONCE, queue.length) }, worker));
    await finishIfAllStored(runId);
  }

  /** Sends a refused file again, and makes the version once every file is stored. */
  async function retry(key: string) {
    if (phase !== 'sending') return;
    const runId = run.current;
    await sendOne(runId, key);
    await finishIfAllStored(runId);
  }

  /** Tries to make the version again after that failed, with every file stored. */
  function finish() {
    void finishIfAllStored(run.current);
  }

  function cancel() {
    if (phase === 'finishing') return;
    run.current++;
    for (const request of sending.current.values()) request.abort();
    sending.current.clear();
    const id = uploadId.current;
    uploadId.current = null;
    update((list) => list.map((entry) => ({ ...entry, state: 'chosen', sentBytes: 0, error: null })));
    setPhase('choosing');
    setError(null);
    setAnnouncement('Upload cancelled: nothing was kept. The files are still listed.');
    // Not waited for: if it fails, the server sweeps unfinished uploads after a day.
    if (id) void cancelUpload(base, id).catch(() => {});
  }

  function clear() {
    if (phase !== 'choosing') return;
    update(() => []);
    setError(null);
  }

  return { entries, phase, error, announcement, choose, remove, send: () => void send(), retry: (key: string) => void retry(key), finish, cancel, clear };
}
