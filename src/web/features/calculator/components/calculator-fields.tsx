import { useId, type ChangeEvent } from 'react';

// scroll-mb-24: a field focused near the foot of a phone's screen stays clear of the results bar.

/**
 * A labelled number typed as text (commas and "$" allowed, read by
 * shared/money.ts), with its unit inside the box and its message beside it.
 */
export function NumberField({
  label,
  value,
  onChange,
  error,
  hint,
  prefix,
  suffix,
  inputMode = 'decimal',
  name,
}: {
  label: string;
  name: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
  hint?: string;
  prefix?: string;
  suffix?: string;
  inputMode?: 'decimal' | 'numeric';
}) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <div className="relative mt-1.5">
        {prefix ? (
          <span aria-hidden="true" className="pointer-events-none absolute inset-y-0 left-3 flex items-center text-slate-600">
            {prefix}
          </span>
        ) : null}
        <input
          id={id}
          name={name}
          type="text"
          inputMode={inputMode}
          autoComplete="off"
          spellCheck={false}
          value={value}
          onChange={(event: ChangeEvent<HTMLInputElement>) => onChange(event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          className={`block h-11 w-full scroll-mb-24 rounded-lg border bg-white text-base text-slate-900 tabular-nums shadow-sm lg:scroll-mb-0 focus:outline-2 focus:outline-offset-0 sm:text-sm ${
            prefix ? 'pl-7' : 'pl-3'
          } ${suffix ? 'pr-14' : 'pr-3'} ${error ? 'border-red-600 focus:outline-red-600' : 'border-slate-300 focus:border-navy-600 focus:outline-navy-600'}`}
        />
        {suffix ? (
          <span aria-hidden="true" className="pointer-events-none absolute inset-y-0 right-3 flex items-center text-sm text-slate-600">
            {suffix}
          </span>
        ) : null}
      </div>
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

/** A switch as a native checkbox, labelled by its text, with an optional line below. */
export function CheckboxField({
  label,
  name,
  checked,
  onChange,
  hint,
  controls,
}: {
  label: string;
  name: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  hint?: string;
  /** The id of what the switch shows or hides. */
  controls?: string;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  return (
    <div className="flex items-start gap-3">
      <input
        id={id}
        name={name}
        type="checkbox"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
        aria-describedby={hint ? hintId : undefined}
        aria-controls={controls}
        className="mt-0.5 size-5 shrink-0 scroll-mb-24 rounded accent-navy-700 lg:scroll-mb-0"
      />
      <div>
        <label htmlFor={id} className="text-sm font-medium text-slate-800">
          {label}
        </label>
        {hint ? (
          <p id={hintId} className="text-xs text-slate-600">
            {hint}
          </p>
        ) : null}
      </div>
    </div>
  );
}
