import { Spinner } from './spinner';

/** What shows while a page's chunk loads. */
export function PageLoading() {
  return (
    <p className="flex justify-center py-16 text-slate-600" aria-busy="true">
      <Spinner className="size-6" />
      <span className="sr-only">Loading</span>
    </p>
  );
}
