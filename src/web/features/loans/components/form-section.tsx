import type { ReactNode } from 'react';

/** A titled group of fields, as one card of the loan form. */
export function FormSection({ title, description, children }: { title: string; description?: string; children: ReactNode }) {
  return (
    <fieldset className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6">
      <legend className="float-left w-full text-lg font-semibold text-slate-900">{title}</legend>
      {description ? <p className="clear-left pt-1 text-sm text-slate-600">{description}</p> : null}
      <div className="clear-left grid gap-5 pt-5 sm:grid-cols-2">{children}</div>
    </fieldset>
  );
}
