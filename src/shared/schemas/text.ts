import { z } from 'zod';

/**
 * Characters no person types into a form: C0 controls other than tab, line
 * feed and carriage return (NUL above all: PostgreSQL cannot store it in
 * text), DEL, and UTF-16 surrogates that are not part of a pair (they have no
 * UTF-8 encoding, so they cannot be stored or sent on either).
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE_TEXT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** True when `value` holds only characters a person could have typed (see UNSAFE_TEXT). */
export const isSafeText = (value: string) => !UNSAFE_TEXT.test(value);

/**
 * The text type of every field a person fills in: a string that refuses
 * control characters and lone surrogates with a message naming the field.
 * Chain `.trim()`, `.min()`, `.max()` as on any zod string.
 */
export const text = (label: string) =>
  z.string({ error: `${label} must be text` }).refine(isSafeText, { error: `${label} contains a character that is not allowed` });

/**
 * The first place in a parsed JSON value (object keys included) holding text
 * that `text()` would refuse, as a dotted field path, or null. For bodies the
 * server forwards without a schema of its own (better-auth's endpoints).
 */
export function unsafeTextPath(value: unknown, path: string[] = []): string | null {
  if (typeof value === 'string') return isSafeText(value) ? null : path.join('.') || '(body)';
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = unsafeTextPath(item, [...path, String(index)]);
      if (found) return found;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (!isSafeText(key)) return [...path, '(key)'].join('.');
      const found = unsafeTextPath(item, [...path, key]);
      if (found) return found;
    }
  }
  return null;
}
