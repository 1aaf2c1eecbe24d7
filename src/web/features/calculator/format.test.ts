import { describe, expect, it } from 'vitest';
import { formatCents, formatRatio, groupThousands } from './format';

const intl = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const intlWhole = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 0, maximumFractionDigits: 0 });

describe('formatCents', () => {
  it('shows cents exactly, in US dollars', () => {
    expect(formatCents(204_653)).toBe('$2,046.53');
    expect(formatCents(29)).toBe('$0.29');
    expect(formatCents(0)).toBe('$0.00');
    expect(formatCents(100_000_000_00)).toBe('$100,000,000.00');
    expect(formatCents(26_606_000, 0)).toBe('$266,060');
  });

  it('writes what Intl.NumberFormat en-US USD writes', () => {
    const samples = [
      0, 1, 9, 10, 99, 100, 101, 999, 1_000, 99_999, 100_000, 123_456, 1_234_567, 12_345_678, 999_999_99, 1_000_000_00, 4_223_39, 10_000_000_000,
    ];
    for (let cents = 0; cents < 2_000; cents += 7) samples.push(cents, cents * 1_013);
    for (const cents of samples) {
      expect(formatCents(cents)).toBe(intl.format(cents / 100));
      expect(formatCents(cents, 0)).toBe(intlWhole.format(Math.floor((cents + 50) / 100)));
      expect(formatCents(-cents)).toBe(cents === 0 ? '$0.00' : intl.format(-cents / 100));
    }
  });

  it('groups thousands', () => {
    expect(groupThousands(0)).toBe('0');
    expect(groupThousands(999)).toBe('999');
    expect(groupThousands(1000)).toBe('1,000');
    expect(groupThousands(100_000_000)).toBe('100,000,000');
  });
});

describe('formatRatio', () => {
  it('shows ratios to 3 decimals', () => {
    expect(formatRatio(1.133)).toBe('1.133');
    expect(formatRatio(1.25)).toBe('1.250');
    expect(formatRatio(1)).toBe('1.000');
  });
});
