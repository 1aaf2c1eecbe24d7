import { describe, expect, it } from 'vitest';
import { DSCR_INPUT_BOUNDS, parseDecimal, parseMoneyCents, parsePercent } from './dscr-inputs';

const ok = (value: number) => ({ ok: true, value });
const issue = (name: string) => ({ ok: false, issue: name });

describe('parseMoneyCents', () => {
  it.each([
    ['300000', 30_000_000],
    ['300,000', 30_000_000],
    ['$300,000.00', 30_000_000],
    ['$ 1,250.5', 125_050],
    ['  42  ', 4_200],
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
    ['1.2.3', 'invalid'],
    ['.', 'invalid'],
    ['$', 'invalid'],
    ['9'.repeat(40), 'invalid'],
    ['-5', 'negative'],
    ['-$5', 'negative'],
    ['$-5', 'negative'],
    ['1.005', 'too-many-decimals'],
    ['100,000,000.01', 'above-max'],
  ])('refuses %j (%s)', (text, name) => {
    expect(parseMoneyCents(text)).toEqual(issue(name));
  });

  it('applies bounds in cents', () => {
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
