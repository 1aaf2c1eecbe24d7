import type { ComponentProps } from 'react';
import { TextField } from './field';

/**
 * The 6-digit code from an authenticator app (a space in the middle allowed,
 * as apps show it), offered to the phone's one-time-code autofill.
 */
export function AuthenticatorCodeField(props: Omit<ComponentProps<typeof TextField>, 'label' | 'name'>) {
  return (
    <TextField
      label="Authenticator code"
      name="code"
      inputMode="numeric"
      autoComplete="one-time-code"
      pattern="[0-9 ]{6,7}"
      maxLength={7}
      required
      {...props}
    />
  );
}
