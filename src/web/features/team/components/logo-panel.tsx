import { useEffect, useId, useRef, useState, type ChangeEvent } from 'react';
import { LOGO_MAX_BYTES, LOGO_TYPES, type TeamView } from '../../../../shared/schemas/teams';
import { ApiError } from '../../../lib/api-client';
import { useFailureNotice } from '../../../lib/me-context';
import { Button } from '../../../ui/button';
import { Spinner } from '../../../ui/spinner';
import { useToast } from '../../../ui/toast';
import { useRemoveLogo } from '../api/remove-logo';
import { useUploadLogo } from '../api/upload-logo';

const kb = (bytes: number) => `${Math.ceil(bytes / 1024).toLocaleString('en-US')} KB`;

/** Why a file cannot be the logo, checked before sending it (the server checks the bytes again). */
function logoProblem(file: File): string | null {
  if (!(LOGO_TYPES as readonly string[]).includes(file.type)) return 'The logo must be a PNG, JPEG or WebP image.';
  if (file.size === 0) return 'This file is empty. Choose an image file.';
  if (file.size > LOGO_MAX_BYTES) return `The logo must be at most ${kb(LOGO_MAX_BYTES)}; this file is ${kb(file.size)}.`;
  return null;
}

/**
 * The team's logo: the current one, a new file checked for type and size
 * before it is sent, and removing it. The chosen file shows in the preview
 * (`onPreview`) before it is uploaded.
 */
export function LogoPanel({ team, onPreview }: { team: TeamView; onPreview: (url: string | null) => void }) {
  const toast = useToast();
  const uploadLogo = useUploadLogo(team.id);
  const removeLogo = useRemoveLogo(team.id);
  const notifyFailure = useFailureNotice();
  const fileId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [chosen, setChosen] = useState<{ file: File; url: string } | null>(null);
  // The chosen file's preview is a blob: URL, released when another file replaces it or the page closes.
  const chosenUrl = useRef<string | null>(null);
  const [error, setError] = useState<string | undefined>();
  // Each request runs until the header shows its result.
  const working = uploadLogo.isPending || removeLogo.isPending;

  useEffect(
    () => () => {
      if (chosenUrl.current) URL.revokeObjectURL(chosenUrl.current);
    },
    [],
  );

  function choose(next: { file: File; url: string } | null) {
    if (chosenUrl.current) URL.revokeObjectURL(chosenUrl.current);
    chosenUrl.current = next?.url ?? null;
    setChosen(next);
    onPreview(next?.url ?? null);
  }

  function forget() {
    choose(null);
    if (input.current) input.current.value = '';
  }

  function onChoose(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    const problem = file ? logoProblem(file) : null;
    setError(problem ?? undefined);
    choose(file && !problem ? { file, url: URL.createObjectURL(file) } : null);
  }

  async function upload() {
    if (!chosen || working) return;
    try {
      await uploadLogo.mutateAsync(chosen.file);
      forget();
      toast({ title: 'Success!', description: 'Your logo has been updated.' });
    } catch (failure) {
      // 413 and 415 say what is wrong with the file: show it by the field.
      if (failure instanceof ApiError && failure.status >= 400 && failure.status < 500 && failure.status !== 401 && failure.status !== 404)
        setError(failure.message);
      notifyFailure('Uploading the logo failed', failure);
    }
  }

  async function remove() {
    if (working) return;
    try {
      await removeLogo.mutateAsync();
      toast({ title: 'Success!', description: 'Your logo has been removed.' });
    } catch (failure) {
      notifyFailure('Removing the logo failed', failure);
    }
  }

  return (
    // Not a labelled region: its name would make "Logo" the label of two things, the region and the file input.
    <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
      <h2 className="text-lg font-semibold text-slate-900">Logo</h2>
      <div className="mt-4 flex flex-wrap items-center gap-4">
        <div className="flex h-16 min-w-32 items-center justify-center rounded-lg border border-dashed border-slate-300 bg-slate-50 px-3">
          {team.logoUrl ? (
            <img src={team.logoUrl} alt={`Current logo of ${team.name}`} className="h-10 w-auto max-w-48 object-contain" />
          ) : (
            <span className="text-sm text-slate-600">No logo yet</span>
          )}
        </div>
        {team.logoUrl ? (
          <Button variant="secondary" onClick={() => void remove()} disabled={working}>
            {removeLogo.isPending ? <Spinner /> : null}
            Remove logo
          </Button>
        ) : null}
      </div>
      <div className="mt-6">
        <label htmlFor={fileId} className="block text-sm font-medium text-slate-800">
          Logo
        </label>
        <input
          ref={input}
          id={fileId}
          type="file"
          name="logo"
          accept={LOGO_TYPES.join(',')}
          onChange={onChoose}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${fileId}-hint${error ? ` ${fileId}-error` : ''}`}
          className="mt-1.5 block w-full text-sm text-slate-700 file:mr-3 file:h-10 file:rounded-lg file:border file:border-slate-300 file:bg-white file:px-4 file:font-semibold file:text-slate-900 hover:file:bg-slate-50"
        />
        <p id={`${fileId}-hint`} className="mt-1 text-xs text-slate-600">
          PNG, JPEG or WebP, up to {kb(LOGO_MAX_BYTES)}. A wide logo on a transparent background looks best.
        </p>
        {error ? (
          <p id={`${fileId}-error`} className="mt-1 text-sm text-red-700">
            {error}
          </p>
        ) : null}
      </div>
      <Button onClick={() => void upload()} disabled={!chosen || working} className="mt-4">
        {uploadLogo.isPending ? <Spinner /> : null}
        Upload logo
      </Button>
    </div>
  );
}
