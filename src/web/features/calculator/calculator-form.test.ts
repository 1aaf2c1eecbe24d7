import { describe, expect, it } from 'vitest';
import { DEFAULT_CALCULATOR_FORM, evaluateCalculator } from './calculator-form';

const dollars = (n: number) => Math.round(n * 100);

describe('evaluateCalculator', () => {
  it('computes the worked example with dscr.ts', () => {
    // $300,000 at 7.25 % over 30 years: P&I 2,046.53; + 3,600 ÷ 12 + 1,500 ÷ 12 = PITIA 2,471.53;
    // 2,800 ÷ 2,471.53 = 1.13290… → 1.133, Eligible.
    const { errors, results } = evaluateCalculator(DEFAULT_CALCULATOR_FORM);
    expect(errors).toEqual({});
    expect(results).toEqual({
      monthlyPrincipalAndInterestCents: dollars(2_046.53),
      pitiaLines: { principalAndInterestCents: dollars(2_046.53), taxesCents: dollars(300), insuranceCents: dollars(125), hoaCents: 0, floodInsuranceCents: 0 },
      pitiaCents: dollars(2_471.53),
      qualifyingRentCents: dollars(2_800),
      dscr: 1.133,
      band: 'eligible',
      maxLoanCents: dollars(266_060),
      rentNeededCents: dollars(3_089.42),
    });
  });

  it('shows PITIA as the sum of its lines, each to the cent (the issue’s example)', () => {
    const { errors, results } = evaluateCalculator({
      ...DEFAULT_CALCULATOR_FORM,
      loanAmount: '200,000',
      interestRate: '6.5',
      monthlyRent: '2,000',
      annualTaxes: '2,600',
      annualInsurance: '1,200',
    });
    expect(errors).toEqual({});
    // 1,264.14 + 216.67 + 100.00 = 1,580.81 (the unrounded total rounds to 1,580.80); 2,000 ÷ 1,580.81 → 1.265; 1.25 × 1,580.81 → 1,976.02.
    expect(results).toMatchObject({
      pitiaLines: {
        principalAndInterestCents: dollars(1_264.14),
        taxesCents: dollars(216.67),
        insuranceCents: dollars(100),
        hoaCents: 0,
        floodInsuranceCents: 0,
      },
      pitiaCents: dollars(1_580.81),
      dscr: 1.265,
      rentNeededCents: dollars(1_976.02),
    });
  });

  it('takes a short-term rental’s revenue less its expense factor instead of the rent', () => {
    const { errors, results } = evaluateCalculator({ ...DEFAULT_CALCULATOR_FORM, shortTermRental: true, monthlyRent: '', expensePercent: '25' });
    // 60,000 ÷ 12 × 0.75 = 3,750; 3,750 ÷ 2,471.53 = 1.517 → Strong. The empty rent is not in use.
    expect(errors).toEqual({});
    expect(results).toMatchObject({ qualifyingRentCents: dollars(3_750), dscr: 1.517, band: 'strong' });
  });

  it('pays interest only when asked', () => {
    const { results } = evaluateCalculator({ ...DEFAULT_CALCULATOR_FORM, interestOnly: true });
    expect(results).toMatchObject({ monthlyPrincipalAndInterestCents: dollars(1_812.5), pitiaCents: dollars(2_237.5), dscr: 1.251, band: 'strong' });
  });

  it('puts a clear message at each bad field and shows only the figures the good fields allow', () => {
    const { errors, results } = evaluateCalculator({ ...DEFAULT_CALCULATOR_FORM, loanAmount: '', monthlyHoa: '-20', targetDscr: 'abc' });
    expect(errors).toEqual({
      loanAmount: 'Enter the loan amount.',
      monthlyHoa: 'Enter a number that is not negative.',
      targetDscr: 'Enter a ratio, like 1.25.',
    });
    expect(results).toEqual({
      monthlyPrincipalAndInterestCents: null,
      pitiaLines: null,
      pitiaCents: null,
      qualifyingRentCents: dollars(2_800),
      dscr: null,
      band: null,
      maxLoanCents: null,
      rentNeededCents: null,
    });
  });

  it('words out-of-bounds values with the bounds', () => {
    const { errors } = evaluateCalculator({
      ...DEFAULT_CALCULATOR_FORM,
      loanAmount: '500',
      interestRate: '0',
      amortizationYears: '30.5',
      monthlyRent: '2,800.123',
      annualTaxes: '200,000,000',
      targetDscr: '4',
    });
    expect(errors).toEqual({
      loanAmount: 'Enter $1,000 to $100,000,000.',
      interestRate: 'Enter a rate above 0 % and at most 30 %.',
      amortizationYears: 'Enter whole years, like 30.',
      monthlyRent: 'Use at most 2 decimals (cents).',
      annualTaxes: 'Enter at most $100,000,000.',
      targetDscr: 'Enter a ratio from 0.50 to 3.00.',
    });
  });

  it('checks a short-term rental’s fields only when it is one', () => {
    expect(evaluateCalculator({ ...DEFAULT_CALCULATOR_FORM, expensePercent: '95' }).errors).toEqual({});
    expect(evaluateCalculator({ ...DEFAULT_CALCULATOR_FORM, shortTermRental: true, expensePercent: '95', annualRevenue: '' }).errors).toEqual({
      annualRevenue: 'Enter the annual rental revenue.',
      expensePercent: 'Enter 0 % to 90 %.',
    });
  });

  it('has a max loan of $0 when the escrows alone miss the target', () => {
    const { results } = evaluateCalculator({ ...DEFAULT_CALCULATOR_FORM, monthlyRent: '400' });
    expect(results.maxLoanCents).toBe(0);
    expect(results.band).toBe('no-ratio');
  });
});
