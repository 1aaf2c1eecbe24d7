import { describe, expect, it } from 'vitest';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, PasswordSchema, passwordLength } from './password';

/** The schema's verdict: the parsed value, or the issues' codes and messages. */
function verdict(input: unknown) {
  const result = PasswordSchema.safeParse(input);
  return result.success ? { value: result.data } : { issues: result.error.issues.map((i) => [i.code, i.message]) };
}

const tooShort = { issues: [['too_small', 'Use at least 12 characters']] };
const tooLong = { issues: [['too_big', 'Use at most 128 characters']] };

describe('PasswordSchema', () => {
  it('allows 12 to 128 characters', () => {
    expect(PASSWORD_MIN_LENGTH).toBe(12);
    expect(PASSWORD_MAX_LENGTH).toBe(128);
    expect(verdict('x'.repeat(11))).toEqual(tooShort);
    expect(verdict('x'.repeat(12))).toEqual({ value: 'x'.repeat(12) });
    expect(verdict('x'.repeat(128))).toEqual({ value: 'x'.repeat(128) });
    expect(verdict('x'.repeat(129))).toEqual(tooLong);
    expect(verdict('')).toEqual(tooShort);
  });

  it('counts an emoji as one character, not as its two UTF-16 units', () => {
    const emoji = '🔑';
    expect(emoji.length).toBe(2);
    expect(passwordLength(emoji.repeat(11))).toBe(11);
    expect(verdict(emoji.repeat(11))).toEqual(tooShort);
    expect(verdict(emoji.repeat(12)).value).toBe(emoji.repeat(12));
    expect(verdict(emoji.repeat(128)).value).toBe(emoji.repeat(128));
    expect(verdict(emoji.repeat(129))).toEqual(tooLong);
    expect(verdict(`${'a'.repeat(127)}${emoji}`).value).toHaveLength(129);
  });

  it('keeps spaces: they count and are never trimmed', () => {
    expect(verdict('  ten chars ')).toEqual({ value: '  ten chars ' });
    expect(verdict(' elevenchar ')).toEqual({ value: ' elevenchar ' });
    expect(verdict(' tenchars  ')).toEqual(tooShort);
  });

  it('has no composition rules', () => {
    for (const password of ['correct horse battery', 'alllowercaseletters', '123456789012345', 'ÉTÉ À LA PLAGE']) {
      expect(verdict(password)).toEqual({ value: password });
    }
  });

  it('asks for a password when the value is not text', () => {
    expect(verdict(undefined)).toEqual({ issues: [['invalid_type', 'Enter a password']] });
    expect(verdict(123456789012)).toEqual({ issues: [['invalid_type', 'Enter a password']] });
  });
});
