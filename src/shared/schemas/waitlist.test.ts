import { describe, expect, it } from 'vitest';
import { toFieldIssues } from './validation';
import { JoinWaitlistSchema } from './waitlist';

const valid = { fullName: 'Dana Broker', email: 'dana@example.com', phone: '', company: '' };

function fieldsOf(input: unknown): string[] {
  const result = JoinWaitlistSchema.safeParse(input);
  return result.success ? [] : toFieldIssues(result.error).map((i) => i.field);
}

describe('JoinWaitlistSchema', () => {
  it('trims values and drops empty optional fields', () => {
    const parsed = JoinWaitlistSchema.parse({ fullName: '  Dana Broker ', email: ' dana@example.com ', phone: '  ', company: '' });
    expect(parsed).toEqual({ fullName: 'Dana Broker', email: 'dana@example.com', phone: undefined, company: undefined });
  });

  it('accepts the payload with only the required fields', () => {
    expect(JoinWaitlistSchema.safeParse({ fullName: 'A', email: 'a@b.co' }).success).toBe(true);
  });

  it('requires a full name of 1 to 120 characters after trimming', () => {
    expect(fieldsOf({ ...valid, fullName: '   ' })).toEqual(['fullName']);
    expect(fieldsOf({ ...valid, fullName: 'x'.repeat(121) })).toEqual(['fullName']);
    expect(fieldsOf({ ...valid, fullName: ` ${'x'.repeat(120)} ` })).toEqual([]);
    expect(fieldsOf({ email: 'a@b.co' })).toEqual(['fullName']);
  });

  it('requires a valid e-mail of at most 254 characters', () => {
    expect(fieldsOf({ ...valid, email: 'not-an-email' })).toEqual(['email']);
    expect(fieldsOf({ ...valid, email: '' })).toEqual(['email']);
    const local = 'a'.repeat(64);
    const long = `${local}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(58)}.com`;
    expect(long.length).toBe(255);
    expect(fieldsOf({ ...valid, email: long })).toEqual(['email']);
  });

  it('limits phone to 32 characters of digits and separators', () => {
    expect(fieldsOf({ ...valid, phone: '+1 (555) 010-0199 ext 12' })).toEqual([]);
    expect(fieldsOf({ ...valid, phone: '1'.repeat(33) })).toEqual(['phone']);
    expect(fieldsOf({ ...valid, phone: 'call me maybe' })).toEqual(['phone']);
  });

  it('limits company to 120 characters', () => {
    expect(fieldsOf({ ...valid, company: 'c'.repeat(121) })).toEqual(['company']);
  });

  it('rejects unknown fields by name', () => {
    expect(fieldsOf({ ...valid, isAdmin: true, role: 'owner' })).toEqual(['isAdmin', 'role']);
  });

  it('names every wrongly typed field', () => {
    expect(fieldsOf({ fullName: 42, email: ['x'], phone: {}, company: null })).toEqual(['fullName', 'email', 'phone', 'company']);
  });
});
