// Before any schema parses in the browser: zod must not probe `new Function` under our CSP.
import './zod-config';
import { zodResolver } from '@hookform/resolvers/zod';
import type { BaseSyntheticEvent } from 'react';
import { get, useForm, type DefaultValues, type FieldValues, type Path, type UseFormReturn } from 'react-hook-form';
import type { z } from 'zod';
import { ApiError } from './api-client';

/** A failure the form shows at one of its fields, in its own words. */
export interface FieldExplanation<TValues extends FieldValues> {
  field: Path<TValues>;
  message: string;
}

export interface AppFormOptions<TInput extends FieldValues, TOutput extends FieldValues> {
  /** Checks the fields before anything is sent: the operation's schema, from src/shared/schemas when the server checks the same. */
  schema: z.ZodType<TOutput, TInput>;
  /** Every field's starting value. */
  defaultValues: DefaultValues<TInput>;
  /** Sends the checked values; throwing (an ApiError) shows the failure. */
  onSubmit: (values: TOutput, form: UseFormReturn<TInput, unknown, TOutput>) => Promise<void> | void;
  /** Shows the failure at the field this returns instead of in a notice: a wrong password, too many attempts. */
  explain?: (error: ApiError) => FieldExplanation<TInput> | null | undefined;
  /** Every other failure, for the screen's error notice (the server's field errors are at their fields already). */
  onFailure: (error: unknown) => void;
}

/**
 * The signed-in app's forms: react-hook-form with the operation's zod schema.
 * Field errors, the schema's or the server's (problem+json `errors`), show at
 * their fields; the failure itself goes to `onFailure`, for the screen's error
 * notice, unless `explain` shows it at a field. A field being edited drops its
 * error until the next submit.
 */
export function useAppForm<TInput extends FieldValues, TOutput extends FieldValues>({
  schema,
  defaultValues,
  onSubmit,
  explain,
  onFailure,
}: AppFormOptions<TInput, TOutput>) {
  const form = useForm<TInput, unknown, TOutput>({ resolver: zodResolver(schema), defaultValues, reValidateMode: 'onSubmit' });
  const { register, clearErrors, setError, handleSubmit } = form;

  const submit = handleSubmit(async (values) => {
    try {
      await onSubmit(values, form);
    } catch (error) {
      // Marks the submit as failed (isSubmitSuccessful stays false); react-hook-form drops it at the next submit.
      setError('root.server', { type: 'server', message: error instanceof Error ? error.message : String(error) });
      const explained = error instanceof ApiError ? explain?.(error) : null;
      if (explained) {
        setError(explained.field, { type: 'server', message: explained.message }, { shouldFocus: true });
        return;
      }
      if (error instanceof ApiError) {
        const fields = error.fieldErrors.filter((issue) => get(defaultValues, issue.field) !== undefined);
        fields.forEach((issue, index) => setError(issue.field as Path<TInput>, { type: 'server', message: issue.message }, { shouldFocus: index === 0 }));
      }
      onFailure(error);
    }
  });

  return {
    form,
    /** For <form onSubmit>. */
    onSubmit: (event: BaseSyntheticEvent) => void submit(event),
    submitting: form.formState.isSubmitting,
    /** A field's input props and its error, for <TextField {...field('name')} />. */
    field: (name: Path<TInput>) => ({
      ...register(name, { onChange: () => clearErrors(name) }),
      error: (get(form.formState.errors, name) as { message?: string } | undefined)?.message,
    }),
  };
}
