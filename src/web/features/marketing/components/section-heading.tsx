import type { ReactNode } from 'react';

/** The eyebrow, h2 and intro that open every section; `id` is what the section's aria-labelledby points at. */
export function SectionHeading({ id, eyebrow, title, children }: { id: string; eyebrow: string; title: string; children?: ReactNode }) {
  return (
    <div className="mx-auto max-w-2xl text-center">
      <p className="text-sm font-semibold tracking-wide text-accent-700 uppercase">{eyebrow}</p>
      <h2 id={id} className="mt-3 text-3xl font-bold tracking-tight text-balance text-navy-900 sm:text-4xl">
        {title}
      </h2>
      {children ? <p className="mt-4 text-lg leading-relaxed text-pretty text-slate-600">{children}</p> : null}
    </div>
  );
}
