import { describe, expect, it } from 'vitest';
import { isSafeText, text, unsafeTextPath } from './text';

describe('the shared text type', () => {
  it('accepts what people type, in any script, with emoji and line breaks', () => {
    for (const value of ['Ana María Núñez', '李小龙', 'Zoë 👩🏽‍💼 Lakeside', 'line one\nline two\ttab', '']) expect(isSafeText(value)).toBe(true);
  });

  it('refuses NUL, other control characters and lone surrogates', () => {
    for (const value of ['a\u0000b', '\u0000', 'bell\u0007', 'esc\u001b[31m', 'del\u007f', '\ud800', 'x\udc00y', 'end\ud83d'])
      expect(isSafeText(value), JSON.stringify(value)).toBe(false);
  });

  it('names the field in its message', () => {
    const result = text('Team name').trim().min(1).safeParse('Lake\u0000side');
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('Team name contains a character that is not allowed');
    expect(text('Team name').trim().parse('  Lakeside  ')).toBe('Lakeside');
  });

  it('finds the first unsafe text in a JSON value, keys included', () => {
    expect(unsafeTextPath({ email: 'a@b.c', nested: [{ ok: 'yes' }, { bad: 'x\u0000' }] })).toBe('nested.1.bad');
    expect(unsafeTextPath({ ['k\ud800']: 1 })).toBe('(key)');
    expect(unsafeTextPath('\u0000')).toBe('(body)');
    expect(unsafeTextPath({ fine: ['one', 2, null, true] })).toBeNull();
  });
});
