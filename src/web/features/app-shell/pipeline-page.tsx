import { useDocumentTitle } from '../../lib/use-page-title';

/** The pipeline at /app. Until loan files exist it is the first-run notice. */
export function PipelinePage() {
  useDocumentTitle('Pipeline');
  return (
    <>
      <h1 className="text-2xl font-bold tracking-tight text-slate-900">Pipeline</h1>
      <section aria-labelledby="first-run" className="mt-8 rounded-2xl border border-dashed border-slate-300 bg-white p-10 text-center">
        <h2 id="first-run" className="text-lg font-semibold text-slate-900">
          No loan files yet
        </h2>
        <p className="mx-auto mt-2 max-w-md text-slate-600">
          Every open loan file of your team will show here, with its stage, progress and outstanding documents.
        </p>
      </section>
    </>
  );
}
