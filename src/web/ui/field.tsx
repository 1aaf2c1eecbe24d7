import { useId, type ComponentProps, type ReactNode } from 'react';

/** The look of a form control, red when it has an error. */
const control = (error: string | undefined) =>
  `mt-1.5 block w-full rounded-lg border bg-white px-3 text-base text-slate-900 shadow-sm focus:outline-2 focus:outline-offset-0 sm:text-sm ${
    error ? 'border-red-600 focus:outline-red-600' : 'border-slate-300 focus:border-navy-600 focus:outline-navy-600'
  }`;

/** A described control's own attributes: its id, whether it is required, and its error and hint for assistive technology. */
const controlAttributes = (id: string, required: boolean | undefined, error: string | undefined, hint: ReactNode) => ({
  id,
  required,
  'aria-invalid': error ? true : undefined,
  'aria-describedby': [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ') || undefined,
});

/** A control's label (with the required mark), then the control, its hint and its error message. */
function Described({
  id,
  label,
  required,
  error,
  hint,
  className,
  children,
}: {
  id: string;
  label: string;
  required?: boolean | undefined;
  error?: string | undefined;
  hint?: ReactNode;
  className?: string | undefined;
  children: ReactNode;
}) {
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
      {children}
      {hint ? (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-600">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

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
  return (
    <Described id={id} label={label} required={required} error={error} hint={hint} className={className}>
      <input {...controlAttributes(id, required, error, hint)} className={`${control(error)} h-11 placeholder:text-slate-500`} {...input} />
    </Described>
  );
}

/** A labelled <select> with its error, as TextField does for inputs. */
export function SelectField({
  label,
  required,
  error,
  hint,
  className,
  children,
  ...select
}: ComponentProps<'select'> & { label: string; error?: string | undefined; hint?: ReactNode }) {
  const id = useId();
  return (
    <Described id={id} label={label} required={required} error={error} hint={hint} className={className}>
      <select {...controlAttributes(id, required, error, hint)} className={`${control(error)} h-11`} {...select}>
        {children}
      </select>
    </Described>
  );
}

/** A labelled <textarea> with its error. */
export function TextAreaField({
  label,
  required,
  error,
  hint,
  className,
  ...textarea
}: ComponentProps<'textarea'> & { label: string; error?: string | undefined; hint?: ReactNode }) {
  const id = useId();
  return (
    <Described id={id} label={label} required={required} error={error} hint={hint} className={className}>
      <textarea {...controlAttributes(id, required, error, hint)} className={`${control(error)} min-h-24 py-2`} {...textarea} />
    </Described>
  );
}

/** A checkbox with its label beside it. */
export function CheckboxField({ label, error, className, ...input }: Omit<ComponentProps<'input'>, 'type'> & { label: string; error?: string | undefined }) {
  const id = useId();
  return (
    <div className={className}>
      <div className="flex min-h-11 items-center gap-3">
        <input
          id={id}
          type="checkbox"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          className="size-5 rounded border-slate-400 text-navy-700 focus:outline-2 focus:outline-navy-600"
          {...input}
        />
        <label htmlFor={id} className="text-sm font-medium text-slate-800">
          {label}
        </label>
      </div>
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
