import type { ComponentProps } from 'react';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../shared/schemas/password';
import { TextField } from './field';

/**
 * A field for choosing a password: the policy's length limits (the server
 * checks the rest), and the hint that lets a password manager offer one.
 */
export function NewPasswordField(props: ComponentProps<typeof TextField> & { hint: string }) {
  return <TextField type="password" autoComplete="new-password" required minLength={PASSWORD_MIN_LENGTH} maxLength={PASSWORD_MAX_LENGTH} {...props} />;
}
