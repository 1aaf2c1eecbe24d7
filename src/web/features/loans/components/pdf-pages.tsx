import { getDocument, GlobalWorkerOptions, RenderingCancelledException, ResponseException, type PDFDocumentProxy, type RenderTask } from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import { useEffect, useRef, useState } from 'react';
import { Button } from '../../../ui/button';
import { Spinner } from '../../../ui/spinner';

// The worker is a file of our own origin, which the CSP's script-src 'self' already allows (worker-src falls back to it).
GlobalWorkerOptions.workerSrc = workerUrl;

function failureOf(error: unknown): string {
  if (error instanceof ResponseException && error.status === 404) return 'This file is no longer there.';
  if (error instanceof Error && error.name === 'PasswordException') return 'This PDF is protected by a password: download it to open it.';
  return 'This PDF could not be shown here: download it to open it.';
}

/**
 * A PDF drawn with pdf.js, one page at a time on a canvas as wide as the
 * dialog (sharp on high-density screens). This module, pdf.js and its worker
 * load only when a preview opens (file-preview-dialog.tsx imports it lazily).
 * `isEvalSupported: false` keeps pdf.js from compiling fonts into functions,
 * which the CSP forbids anyway; `useWasm: false` keeps its image decoders in
 * plain JavaScript, so the CSP needs no 'wasm-unsafe-eval'.
 */
export default function PdfPages({ url, name }: { url: string; name: string }) {
  const [pdf, setPdf] = useState<PDFDocumentProxy | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [pageNumber, setPageNumber] = useState(1);
  const [drawn, setDrawn] = useState(0);
  const box = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);

  useEffect(() => {
    let live = true;
    const task = getDocument({ url, isEvalSupported: false, useWasm: false });
    task.promise.then(
      (loaded) => {
        if (live) setPdf(loaded);
      },
      (error: unknown) => {
        if (live) setFailure(failureOf(error));
      },
    );
    return () => {
      live = false;
      void task.destroy();
    };
  }, [url]);

  useEffect(() => {
    if (!pdf) return;
    let cancelled = false;
    let rendering: RenderTask | null = null;
    void (async () => {
      const page = await pdf.getPage(pageNumber);
      const target = canvas.current;
      if (cancelled || !target || !box.current) return;
      const fit = box.current.clientWidth / page.getViewport({ scale: 1 }).width;
      const viewport = page.getViewport({ scale: fit * (window.devicePixelRatio || 1) });
      target.width = Math.floor(viewport.width);
      target.height = Math.floor(viewport.height);
      rendering = page.render({ canvas: target, viewport });
      await rendering.promise;
      if (!cancelled) setDrawn(pageNumber);
    })().catch((error: unknown) => {
      if (!cancelled && !(error instanceof RenderingCancelledException)) setFailure(failureOf(error));
    });
    return () => {
      cancelled = true;
      rendering?.cancel();
    };
  }, [pdf, pageNumber]);

  if (failure) return <p className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800">{failure}</p>;
  const pages = pdf?.numPages ?? 0;
  return (
    <div>
      {pages > 1 ? (
        <div className="mb-3 flex items-center justify-between gap-3">
          <Button size="sm" variant="secondary" disabled={pageNumber <= 1} onClick={() => setPageNumber((n) => n - 1)}>
            Previous page
          </Button>
          <p className="text-sm text-slate-700 tabular-nums" aria-live="polite">
            Page {pageNumber} of {pages}
          </p>
          <Button size="sm" variant="secondary" disabled={pageNumber >= pages} onClick={() => setPageNumber((n) => n + 1)}>
            Next page
          </Button>
        </div>
      ) : null}
      <div ref={box} className="relative min-h-40">
        {drawn !== pageNumber ? (
          <p className="absolute inset-x-0 top-4 flex items-center justify-center gap-2 text-sm text-slate-600">
            <Spinner /> Loading the page…
          </p>
        ) : null}
        {/* A canvas per page: pdf.js refuses to draw on one a previous page is still being drawn on. */}
        <canvas
          key={pageNumber}
          ref={canvas}
          role="img"
          aria-label={`${name}, page ${pageNumber}${pages ? ` of ${pages}` : ''}`}
          data-rendered={drawn === pageNumber ? 'true' : 'false'}
          className="block h-auto w-full rounded border border-slate-200 bg-white"
        />
      </div>
    </div>
  );
}
