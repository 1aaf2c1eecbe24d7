import { z } from 'zod';
import { isSafeText } from './text';

/**
 * Length limits from NIST SP 800-63B §5.1.1.2: a floor long enough for a
 * passphrase, a ceiling that still lets people paste from a password manager.
 * There are deliberately no composition rules (no "one digit, one symbol").
 */
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 128;

export type PasswordLengthProblem = 'too_short' | 'too_long';

export const PASSWORD_LENGTH_MESSAGES: Readonly<Record<PasswordLengthProblem, string>> = {
  too_short: `Use at least ${PASSWORD_MIN_LENGTH} characters`,
  too_long: `Use at most ${PASSWORD_MAX_LENGTH} characters`,
};

/** Control characters and lone surrogates cannot be typed, stored or sent on. */
export const PASSWORD_UNSAFE_TEXT_MESSAGE = 'Your password contains a character that is not allowed';

/**
 * Counts Unicode code points, not UTF-16 units, so an emoji or any other
 * character outside the Basic Multilingual Plane counts as one.
 */
export function passwordLength(value: string): number {
  return [...value].length;
}

/** The length rule on its own, shared by the schema and the server's password policy. */
export function passwordLengthProblem(value: string): PasswordLengthProblem | null {
  const length = passwordLength(value);
  if (length < PASSWORD_MIN_LENGTH) return 'too_short';
  if (length > PASSWORD_MAX_LENGTH) return 'too_long';
  return null;
}

/**
 * A new password, as a form sends it. It is not trimmed: spaces belong to
 * passphrases and to what the person will type next time. The issues keep
 * zod's `too_small` / `too_big` codes so forms can tell them apart.
 */
export const PasswordSchema = z.string({ error: 'Enter a password' }).superRefine((value, ctx) => {
  if (!isSafeText(value)) {
    ctx.addIssue({ code: 'custom', input: value, message: PASSWORD_UNSAFE_TEXT_MESSAGE });
    return;
  }
  const problem = passwordLengthProblem(value);
  if (problem === 'too_short') {
    ctx.addIssue({
      code: 'too_small',
      origin: 'string',
      minimum: PASSWORD_MIN_LENGTH,
      inclusive: true,
      input: value,
      message: PASSWORD_LENGTH_MESSAGES.too_short,
    });
  } else if (problem === 'too_long') {
    ctx.addIssue({
      code: 'too_big',
      origin: 'string',
      maximum: PASSWORD_MAX_LENGTH,
      inclusive: true,
      input: value,
      message: PASSWORD_LENGTH_MESSAGES.too_long,
    });
  }
});
