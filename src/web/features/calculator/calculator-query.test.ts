import { describe, expect, it } from 'vitest';
import { DEFAULT_CALCULATOR_FORM, evaluateCalculator, type CalculatorForm } from './calculator-form';
import { parseCalculatorQuery, toCalculatorQuery } from './calculator-query';

const filled: CalculatorForm = {
  loanAmount: '487,500',
  interestRate: '7.875',
  amortizationYears: '25',
  interestOnly: true,
  monthlyRent: '3,900.50',
  shortTermRental: true,
  annualRevenue: '72,000',
  expensePercent: '25',
  annualTaxes: '6,000',
  annualInsurance: '1,800',
  monthlyHoa: '125',
  targetDscr: '1.1',
};

describe('the calculator in its address', () => {
  it('writes every input, in the form’s order, with short names', () => {
    expect(toCalculatorQuery(filled)).toBe(
      'amount=487500&rate=7.875&years=25&io=1&rent=3900.50&str=1&revenue=72000&expense=25&taxes=6000&insurance=1800&hoa=125&target=1.1',
    );
  });

  it('reads back what it wrote', () => {
    expect(parseCalculatorQuery(toCalculatorQuery(filled))).toEqual(filled);
    expect(parseCalculatorQuery(`?${toCalculatorQuery(filled)}`)).toEqual(filled);
  });

  it('writes money as plain dollars and reads it back with thousands separators', () => {
    const query = toCalculatorQuery(DEFAULT_CALCULATOR_FORM);
    expect(query).toContain('amount=300000&');
    expect(query).not.toMatch(/%2C|%24/);
    expect(parseCalculatorQuery(query)).toEqual(DEFAULT_CALCULATOR_FORM);
    expect(toCalculatorQuery({ ...filled, loanAmount: '$1250.5' })).toContain('amount=1250.50&');
    expect(parseCalculatorQuery('amount=1250.5&rent=%241%2C000').loanAmount).toBe('1,250.50');
    expect(parseCalculatorQuery('amount=1250.5&rent=%241%2C000').monthlyRent).toBe('1,000');
  });

  it('gives the defaults for an empty or foreign query', () => {
    expect(parseCalculatorQuery('')).toEqual(DEFAULT_CALCULATOR_FORM);
    expect(parseCalculatorQuery('?')).toEqual(DEFAULT_CALCULATOR_FORM);
    expect(parseCalculatorQuery('?utm_source=mail&fbclid=x')).toEqual(DEFAULT_CALCULATOR_FORM);
  });

  it('replaces each missing, unreadable or out-of-bounds value with its default, keeping the good ones', () => {
    const form = parseCalculatorQuery('amount=-5&rate=abc&years=400&io=yes&rent=2500&str=2&expense=95&taxes=NaN&insurance=Infinity&hoa=1e3&target=0');
    expect(form).toEqual({ ...DEFAULT_CALCULATOR_FORM, monthlyRent: '2,500' });
    expect(parseCalculatorQuery('amount=&rate=%20%20&target=1.25.1')).toEqual(DEFAULT_CALCULATOR_FORM);
    // A value typed half-way is written as it stands, and read back as the default.
    expect(parseCalculatorQuery(toCalculatorQuery({ ...filled, annualTaxes: '' })).annualTaxes).toBe(DEFAULT_CALCULATOR_FORM.annualTaxes);
  });

  it('takes the first of repeated keys and trims what it keeps', () => {
    expect(parseCalculatorQuery('rate=6.5&rate=7').interestRate).toBe('6.5');
    expect(parseCalculatorQuery('rate=%206.5%20').interestRate).toBe('6.5');
  });

  it('never throws, whatever the address holds', () => {
    const garbage = [
      '%',
      '%E0%A4%A',
      '&&&==&',
      'amount=%00',
      `amount=${'9'.repeat(5000)}`,
      'rate=%F0%9F%92%A9',
      '?io&str',
      'constructor=1&__proto__=x',
      '#rate=7',
    ];
    for (const search of garbage) {
      const form = parseCalculatorQuery(search);
      const { results } = evaluateCalculator(form);
      for (const value of Object.values(results)) if (typeof value === 'number') expect(Number.isFinite(value)).toBe(true);
      expect(parseCalculatorQuery(toCalculatorQuery(form))).toEqual(form);
    }
  });
});
