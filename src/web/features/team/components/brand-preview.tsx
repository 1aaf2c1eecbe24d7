import { useId, type CSSProperties } from 'react';

/**
 * How the branding will look, as it is being edited: the app's header, and
 * the heading of the e-mails the team's people and borrowers receive. The
 * accent colour is a stripe in both, never text, so any colour stays readable.
 */
export function BrandPreview({ name, accentColor, logoSrc }: { name: string; accentColor: string; logoSrc: string | null }) {
  const headingId = useId();
  const shownName = name.trim() || 'Your team';
  return (
    <section
      aria-labelledby={headingId}
      style={{ '--preview-accent': accentColor } as CSSProperties}
      className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
    >
      <h2 id={headingId} className="text-lg font-semibold text-slate-900">
        Preview
      </h2>
      <p className="mt-1 text-sm text-slate-600">Updates as you edit. Nothing changes for your team until you save.</p>

      <h3 className="mt-6 text-sm font-semibold text-slate-800">App header</h3>
      <div className="mt-2 overflow-hidden rounded-lg border border-slate-200">
        <div aria-hidden="true" className="h-1 bg-(--preview-accent)" />
        <div className="flex h-14 items-center gap-2 px-4">
          {logoSrc ? <img src={logoSrc} alt="" className="h-8 w-auto max-w-32 object-contain" /> : null}
          <span className="truncate text-lg font-bold tracking-tight text-slate-900">{shownName}</span>
        </div>
      </div>

      <h3 className="mt-6 text-sm font-semibold text-slate-800">E-mail heading</h3>
      <div className="mt-2 rounded-lg border border-slate-200 p-4">
        <div className="border-t-4 border-t-(color:--preview-accent) pt-4">
          {logoSrc ? <img src={logoSrc} alt="" className="mb-2 h-10 w-auto max-w-48 object-contain" /> : null}
          <p className="truncate text-lg font-bold text-navy-900">{shownName}</p>
        </div>
        <p className="mt-3 text-sm text-slate-600">Hi Jordan, here is the latest on your loan file…</p>
      </div>
    </section>
  );
}
