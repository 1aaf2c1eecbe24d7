import { useId, type ComponentProps } from 'react';

/** A labelled text input with its error message wired up for assistive technology. */
export function TextField({
  label,
  required,
  error,
  hint,
  className = '',
  ...input
}: ComponentProps<'input'> & { label: string; error?: string | undefined; hint?: string }) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
        {required ? (
          <span className="ml-0.5 text-red-700" aria-hidden="true">
            *
          </span>
        ) : null}
      </label>
      <input
        id={id}
        required={required}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className={`mt-1.5 block h-11 w-full rounded-lg border bg-white px-3 text-base text-slate-900 shadow-sm placeholder:text-slate-500 focus:outline-2 focus:outline-offset-0 sm:text-sm ${
          error ? 'border-red-600 focus:outline-red-600' : 'border-slate-300 focus:border-navy-600 focus:outline-navy-600'
        }`}
        {...input}
      />
      {hint ? (
        <p id={hintId} className="mt-1 text-xs text-slate-600">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
