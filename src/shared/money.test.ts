import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DSCR_INPUT_BOUNDS } from './domain/dscr-inputs';
import {
  formatCents,
  formatDollarsDecimal,
  formatMoneyInput,
  formatPercent,
  formatRatio,
  formatWholeDollars,
  groupThousands,
  parseDecimal,
  parseMoneyCents,
  parsePercent,
} from './money';

const ok = (value: number) => ({ ok: true, value });
const issue = (name: string) => ({ ok: false, issue: name });

describe('parseMoneyCents', () => {
  it.each([
    ['300000', 30_000_000],
    ['300,000', 30_000_000],
    ['$300,000.00', 30_000_000],
    ['$ 1,250.5', 125_050],
    ['$1,234.56', 123_456],
    ['1234.5', 123_450],
    ['  42  ', 4_200],
    [' $ 42 ', 4_200],
    ['1.50', 150],
    ['1.500', 150],
    ['0.29', 29],
    ['1.00', 100],
    ['.5', 50],
    ['12.', 1_200],
    ['0', 0],
    ['-0', 0],
    ['100,000,000', 10_000_000_000],
  ])('reads %j as %d cents, exactly', (text, cents) => {
    expect(parseMoneyCents(text)).toEqual(ok(cents));
  });

  it.each([
    ['', 'empty'],
    ['   ', 'empty'],
    ['abc', 'invalid'],
    ['1e5', 'invalid'],
    ['Infinity', 'invalid'],
    ['NaN', 'invalid'],
    ['3,00,000', 'invalid'],
    ['1,2345', 'invalid'],
    ['1 000', 'invalid'],
    ['1.000,50', 'invalid'],
    ['$$5', 'invalid'],
    ['5$', 'invalid'],
    ['USD 5', 'invalid'],
    ['+5', 'invalid'],
    ['1.2.3', 'invalid'],
    ['.', 'invalid'],
    ['$', 'invalid'],
    ['9'.repeat(40), 'invalid'],
    ['-5', 'negative'],
    ['-$5', 'negative'],
    ['$-5', 'negative'],
    ['1.005', 'too-many-decimals'],
  ])('refuses %j (%s)', (text, name) => {
    expect(parseMoneyCents(text)).toEqual(issue(name));
  });

  it('applies bounds in cents', () => {
    expect(parseMoneyCents('100,000,000.01', DSCR_INPUT_BOUNDS.moneyCents)).toEqual(issue('above-max'));
    expect(parseMoneyCents('100,000,000', DSCR_INPUT_BOUNDS.moneyCents)).toEqual(ok(10_000_000_000));
    expect(parseMoneyCents('999.99', DSCR_INPUT_BOUNDS.loanAmountCents)).toEqual(issue('below-min'));
    expect(parseMoneyCents('1,000', DSCR_INPUT_BOUNDS.loanAmountCents)).toEqual(ok(100_000));
  });

  it('is exact for every cent of a dollar', () => {
    for (let cents = 0; cents < 100; cents++) {
      expect(parseMoneyCents(`12345678.${String(cents).padStart(2, '0')}`)).toEqual(ok(1_234_567_800 + cents));
    }
  });
});

describe('parsePercent and parseDecimal', () => {
  it('reads percents as percents, with or without the sign', () => {
    expect(parsePercent('7.25', DSCR_INPUT_BOUNDS.annualRatePercent)).toEqual(ok(7.25));
    expect(parsePercent('7.25 %', DSCR_INPUT_BOUNDS.annualRatePercent)).toEqual(ok(7.25));
    expect(parsePercent('7.875%', DSCR_INPUT_BOUNDS.annualRatePercent)).toEqual(ok(7.875));
    expect(parsePercent('20', DSCR_INPUT_BOUNDS.expensePercent)).toEqual(ok(20));
  });

  it('holds rates and percentages to their bounds', () => {
    expect(parsePercent('0', DSCR_INPUT_BOUNDS.annualRatePercent)).toEqual(issue('below-min'));
    expect(parsePercent('30.001', DSCR_INPUT_BOUNDS.annualRatePercent)).toEqual(issue('above-max'));
    expect(parsePercent('7.1234', DSCR_INPUT_BOUNDS.annualRatePercent)).toEqual(issue('too-many-decimals'));
    expect(parsePercent('-1', DSCR_INPUT_BOUNDS.expensePercent)).toEqual(issue('negative'));
    expect(parsePercent('95', DSCR_INPUT_BOUNDS.expensePercent)).toEqual(issue('above-max'));
  });

  it('reads whole years and ratios', () => {
    expect(parseDecimal('30', DSCR_INPUT_BOUNDS.amortizationYears)).toEqual(ok(30));
    expect(parseDecimal('30.0', DSCR_INPUT_BOUNDS.amortizationYears)).toEqual(ok(30));
    expect(parseDecimal('30.5', DSCR_INPUT_BOUNDS.amortizationYears)).toEqual(issue('too-many-decimals'));
    expect(parseDecimal('0', DSCR_INPUT_BOUNDS.amortizationYears)).toEqual(issue('below-min'));
    expect(parseDecimal('41', DSCR_INPUT_BOUNDS.amortizationYears)).toEqual(issue('above-max'));
    expect(parseDecimal('1.25', DSCR_INPUT_BOUNDS.targetDscr)).toEqual(ok(1.25));
    expect(parseDecimal('0.4', DSCR_INPUT_BOUNDS.targetDscr)).toEqual(issue('below-min'));
    expect(parseDecimal('1.25%', DSCR_INPUT_BOUNDS.targetDscr)).toEqual(issue('invalid'));
  });

  it('never returns NaN or Infinity, and never throws', () => {
    const texts = ['', '-', '--1', '+1', '1-', '0x10', '١٢', '1 000', '\u0000', '%', '$%', '…', '1e309', '9'.repeat(24), '.'.repeat(30)];
    for (const text of texts) {
      for (const result of [parseMoneyCents(text), parsePercent(text, DSCR_INPUT_BOUNDS.expensePercent), parseDecimal(text, DSCR_INPUT_BOUNDS.targetDscr)]) {
        if (result.ok) expect(Number.isFinite(result.value)).toBe(true);
      }
    }
  });
});

const intl = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const intlWhole = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 0, maximumFractionDigits: 0 });

describe('formatCents and formatWholeDollars', () => {
  it('show cents exactly, in US dollars', () => {
    expect(formatCents(204_653)).toBe('$2,046.53');
    expect(formatCents(29)).toBe('$0.29');
    expect(formatCents(0)).toBe('$0.00');
    expect(formatCents(100_000_000_00)).toBe('$100,000,000.00');
    expect(formatWholeDollars(26_606_000)).toBe('$266,060');
    expect(formatWholeDollars(26_606_050)).toBe('$266,061');
    expect(formatWholeDollars(26_606_049)).toBe('$266,060');
  });

  it('write what Intl.NumberFormat en-US USD writes', () => {
    const samples = [
      0, 1, 9, 10, 49, 50, 99, 100, 101, 150, 999, 1_000, 99_999, 100_000, 123_456, 1_234_567, 12_345_678, 999_999_99, 1_000_000_00, 4_223_39, 10_000_000_000,
    ];
    for (let cents = 0; cents < 2_000; cents += 7) samples.push(cents, cents * 1_013);
    for (const cents of samples) {
      expect(formatCents(cents)).toBe(intl.format(cents / 100));
      expect(formatWholeDollars(cents)).toBe(intlWhole.format(Math.floor((cents + 50) / 100)));
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

describe('formatMoneyInput and formatDollarsDecimal', () => {
  it('write dollars to type again, with cents only when there are some', () => {
    expect(formatMoneyInput(30_000_000)).toBe('300,000');
    expect(formatMoneyInput(30_000_050)).toBe('300,000.50');
    expect(formatMoneyInput(30_000_050, { grouping: false })).toBe('300000.50');
    expect(formatMoneyInput(7)).toBe('0.07');
    expect(formatMoneyInput(0)).toBe('0');
  });

  it('are read back as the same cents, whatever the amount', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000_000_000_00 }), fc.boolean(), (cents, grouping) => {
        expect(parseMoneyCents(formatMoneyInput(cents, { grouping }))).toEqual(ok(cents));
        expect(parseMoneyCents(formatCents(cents))).toEqual(ok(cents));
        expect(parseMoneyCents(formatDollarsDecimal(cents))).toEqual(ok(cents));
      }),
    );
  });

  it('write a plain decimal for machines', () => {
    expect(formatDollarsDecimal(30_000_050)).toBe('300000.50');
    expect(formatDollarsDecimal(5)).toBe('0.05');
    expect(formatDollarsDecimal(-125)).toBe('-1.25');
  });
});

describe('formatPercent and formatRatio', () => {
  it('show percents to at most 3 decimals, with the sign', () => {
    expect(formatPercent(7.25)).toBe('7.25 %');
    expect(formatPercent(7.125)).toBe('7.125 %');
    expect(formatPercent(20)).toBe('20 %');
    expect(formatPercent(0)).toBe('0 %');
  });

  it('show ratios to 3 decimals', () => {
    expect(formatRatio(1.133)).toBe('1.133');
    expect(formatRatio(1.25)).toBe('1.250');
    expect(formatRatio(1)).toBe('1.000');
  });
});
