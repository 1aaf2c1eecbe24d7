import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  computeDscr,
  dscrBand,
  loanToValuePercent,
  maxLoanAtTargetCents,
  monthlyPrincipalAndInterestCents,
  pitiaCents,
  pitiaLines,
  qualifyingRentCents,
  rentNeededForTargetCents,
  type DscrInputs,
} from './dscr';

const dollars = (n: number) => Math.round(n * 100);

describe('monthly principal and interest', () => {
  // Published amortization values (standard fixed-rate tables), to the cent.
  it.each([
    [100_000, 6, 30, 599.55],
    [200_000, 6.5, 30, 1_264.14],
    [250_000, 5, 30, 1_342.05],
    [300_000, 4, 15, 2_219.06],
    [150_000, 7, 30, 997.95],
    [400_000, 7.25, 30, 2_728.71],
    [487_500, 7.875, 30, 3_534.71],
  ])('$%d at %d%% over %d years is $%d a month', (amount, rate, years, payment) => {
    expect(monthlyPrincipalAndInterestCents({ loanAmountCents: dollars(amount), annualRatePercent: rate, amortizationYears: years })).toBe(dollars(payment));
  });

  it('is amount × rate ÷ 12 when interest-only, to the cent', () => {
    expect(monthlyPrincipalAndInterestCents({ loanAmountCents: dollars(400_000), annualRatePercent: 7.25, amortizationYears: 30, interestOnly: true })).toBe(
      dollars(2_416.67),
    );
    expect(monthlyPrincipalAndInterestCents({ loanAmountCents: dollars(100_000), annualRatePercent: 6, amortizationYears: 30, interestOnly: true })).toBe(
      dollars(500),
    );
  });

  it('divides evenly at a zero rate, and is zero without a term', () => {
    expect(monthlyPrincipalAndInterestCents({ loanAmountCents: dollars(360_000), annualRatePercent: 0, amortizationYears: 30 })).toBe(dollars(1_000));
    expect(monthlyPrincipalAndInterestCents({ loanAmountCents: dollars(360_000), annualRatePercent: 7, amortizationYears: 0 })).toBe(0);
  });
});

describe('PITIA and qualifying rent', () => {
  it('is the sum of its lines as shown, each to the cent (the issue’s example)', () => {
    const inputs = {
      loanAmountCents: dollars(200_000),
      annualRatePercent: 6.5,
      amortizationYears: 30,
      annualTaxesCents: dollars(2_600),
      annualInsuranceCents: dollars(1_200),
    };
    // 1,264.136… + 216.666… + 100 = 1,580.80 unrounded; the lines shown, 1,264.14 + 216.67 + 100.00, make 1,580.81.
    expect(pitiaLines(inputs)).toEqual({
      principalAndInterestCents: dollars(1_264.14),
      taxesCents: dollars(216.67),
      insuranceCents: dollars(100),
      hoaCents: 0,
      floodInsuranceCents: 0,
    });
    expect(pitiaCents(inputs)).toBe(dollars(1_580.81));
    const result = computeDscr({ ...inputs, income: { kind: 'long-term', monthlyRentCents: dollars(2_000) } });
    expect(result).toMatchObject({ monthlyPrincipalAndInterestCents: dollars(1_264.14), pitiaCents: dollars(1_580.81) });
    // DSCR and the rent needed follow from that PITIA: 2,000 ÷ 1,580.81 = 1.26518 → 1.265; 1.25 × 1,580.81 = 1,976.0125 → $1,976.02.
    expect(result.dscr).toBe(1.265);
    expect(rentNeededForTargetCents(inputs, 1.25)).toBe(dollars(1_976.02));
  });

  it('always equals the sum of the lines shown, whatever the inputs', () => {
    const cents = fc.integer({ min: 0, max: 100_000_000_00 });
    fc.assert(
      fc.property(
        fc.record({
          loanAmountCents: fc.integer({ min: 1_000_00, max: 100_000_000_00 }),
          annualRatePercent: fc.integer({ min: 1, max: 30_000 }).map((milli) => milli / 1000),
          amortizationYears: fc.integer({ min: 1, max: 40 }),
          interestOnly: fc.boolean(),
          annualTaxesCents: cents,
          annualInsuranceCents: cents,
          monthlyHoaCents: cents,
          annualFloodInsuranceCents: cents,
        }),
        (inputs) => {
          const lines = pitiaLines(inputs);
          for (const line of Object.values(lines)) expect(Number.isInteger(line)).toBe(true);
          const shown = lines.principalAndInterestCents + lines.taxesCents + lines.insuranceCents + lines.hoaCents + lines.floodInsuranceCents;
          expect(pitiaCents(inputs)).toBe(shown);
          expect(lines.principalAndInterestCents).toBe(monthlyPrincipalAndInterestCents(inputs));
          expect(computeDscr({ ...inputs, income: { kind: 'long-term', monthlyRentCents: 0 } })).toMatchObject({ lines, pitiaCents: shown });
        },
      ),
    );
  });

  it('adds taxes, insurance and flood insurance by the month, and HOA as it is', () => {
    const pitia = pitiaCents({
      loanAmountCents: dollars(400_000),
      annualRatePercent: 7.25,
      amortizationYears: 30,
      annualTaxesCents: dollars(6_000),
      annualInsuranceCents: dollars(1_800),
      monthlyHoaCents: dollars(125),
      annualFloodInsuranceCents: dollars(900),
    });
    // 2,728.71 + 500 + 150 + 125 + 75 = 3,578.71
    expect(pitia).toBe(dollars(3_578.71));
  });

  it('sums the unit rents of a 2–4 unit property', () => {
    expect(qualifyingRentCents({ kind: 'long-term', monthlyRentCents: [dollars(1_500), dollars(1_450), dollars(1_600)] })).toBe(dollars(4_550));
  });

  it('takes short-term-rental revenue ÷ 12 less the expense factor, 20 % by default', () => {
    expect(qualifyingRentCents({ kind: 'short-term', annualRevenueCents: dollars(60_000) })).toBe(dollars(4_000));
    expect(qualifyingRentCents({ kind: 'short-term', annualRevenueCents: dollars(60_000), expensePercent: 35 })).toBe(dollars(3_250));
  });
});

describe('DSCR', () => {
  const example: DscrInputs = {
    loanAmountCents: dollars(400_000),
    annualRatePercent: 7.25,
    amortizationYears: 30,
    annualTaxesCents: dollars(6_000),
    annualInsuranceCents: dollars(1_800),
    income: { kind: 'long-term', monthlyRentCents: dollars(4_200) },
  };

  it('divides the rent by PITIA: a lender worked example', () => {
    // P&I 2,728.71 + taxes 500 + insurance 150 = PITIA 3,378.71; 4,200 ÷ 3,378.71 = 1.24308 → 1.243, Eligible.
    expect(computeDscr(example)).toEqual({
      monthlyPrincipalAndInterestCents: dollars(2_728.71),
      lines: { principalAndInterestCents: dollars(2_728.71), taxesCents: dollars(500), insuranceCents: dollars(150), hoaCents: 0, floodInsuranceCents: 0 },
      pitiaCents: dollars(3_378.71),
      qualifyingRentCents: dollars(4_200),
      dscr: 1.243,
      band: 'eligible',
    });
  });

  it('rounds the ratio half up to 3 decimals, never truncating', () => {
    // 1,000 ÷ 800.40 = 1.24937… → 1.249; 1,000 ÷ 800 = 1.25 exactly.
    const ratio = (rent: number, pitia: number) =>
      computeDscr({
        loanAmountCents: 0,
        annualRatePercent: 0,
        amortizationYears: 30,
        monthlyHoaCents: dollars(pitia),
        income: { kind: 'long-term', monthlyRentCents: dollars(rent) },
      }).dscr;
    expect(ratio(1_000, 800.4)).toBe(1.249);
    expect(ratio(1_000, 800)).toBe(1.25);
    // 1,249.5 ÷ 1,000 = 1.2495 exactly: half up gives 1.250, truncation would give 1.249.
    expect(ratio(1_249.5, 1_000)).toBe(1.25);
    expect(ratio(1_000.5, 1_000)).toBe(1.001);
  });

  it('bands inclusively: 1.25 is Strong, 1.00 is Eligible, below is No-ratio; thresholds are the team’s', () => {
    expect(dscrBand(1.25)).toBe('strong');
    expect(dscrBand(1.249)).toBe('eligible');
    expect(dscrBand(1)).toBe('eligible');
    expect(dscrBand(0.999)).toBe('no-ratio');
    expect(dscrBand(1.2, { strong: 1.2, eligible: 1.1 })).toBe('strong');
    expect(dscrBand(1.05, { strong: 1.2, eligible: 1.1 })).toBe('no-ratio');
  });

  it('covers interest-only, HOA, flood, 2–4 units and short-term rentals together', () => {
    const result = computeDscr({
      loanAmountCents: dollars(300_000),
      annualRatePercent: 8,
      amortizationYears: 30,
      interestOnly: true,
      annualTaxesCents: dollars(3_600),
      annualInsuranceCents: dollars(2_400),
      monthlyHoaCents: dollars(250),
      annualFloodInsuranceCents: dollars(1_200),
      income: { kind: 'long-term', monthlyRentCents: [dollars(1_700), dollars(1_650)] },
    });
    // IO 2,000 + 300 + 200 + 250 + 100 = 2,850; 3,350 ÷ 2,850 = 1.17544 → 1.175.
    expect(result).toMatchObject({ monthlyPrincipalAndInterestCents: dollars(2_000), pitiaCents: dollars(2_850), dscr: 1.175, band: 'eligible' });
    const str = computeDscr({ ...example, income: { kind: 'short-term', annualRevenueCents: dollars(72_000), expensePercent: 25 } });
    // 72,000 ÷ 12 × 0.75 = 4,500; 4,500 ÷ 3,378.71 = 1.33186 → 1.332.
    expect(str).toMatchObject({ qualifyingRentCents: dollars(4_500), dscr: 1.332, band: 'strong' });
  });

  it('has no ratio when there is nothing to cover', () => {
    expect(
      computeDscr({ loanAmountCents: 0, annualRatePercent: 7, amortizationYears: 30, income: { kind: 'long-term', monthlyRentCents: dollars(2_000) } }),
    ).toMatchObject({ dscr: null, band: null });
  });
});

describe('max loan and rent needed at a target DSCR', () => {
  const terms = {
    annualRatePercent: 7.25,
    amortizationYears: 30,
    annualTaxesCents: dollars(6_000),
    annualInsuranceCents: dollars(1_800),
    income: { kind: 'long-term' as const, monthlyRentCents: dollars(4_200) },
  };

  it('finds the largest whole-dollar amount whose exact DSCR meets the target', () => {
    // 4,200 ÷ 1.25 − 650 = 2,710 of P&I. $397,258 pays 2,709.9986 → $2,710.00: PITIA 3,360.00, exactly 1.25;
    // $397,259 pays 2,710.0054 → $2,710.01: PITIA 3,360.01, 1.2499963.
    expect(maxLoanAtTargetCents(terms, 1.25)).toBe(dollars(397_258));
    // Interest-only, $448,552 pays 2,710.0017 → $2,710.00, still 1.25 as shown; $448,553 pays 2,710.0077 → $2,710.01.
    expect(maxLoanAtTargetCents({ ...terms, interestOnly: true }, 1.25)).toBe(dollars(448_552));
  });

  it('measures “exact” on the figures shown: rent ÷ PITIA as the sum of its lines, before the ratio is rounded', () => {
    // Taxes 1,000 a year show as 83.33 a month, insurance 500 as 41.67; rent 2,000 at 1.25 leaves P&I 1,475.00 at most.
    // At 7 % over 30 years $221,704 pays 1,475.0022 → $1,475.00: PITIA 1,600.00 as shown, DSCR 1.250 (the unrounded
    // payment would miss by a fraction of a cent and stop at $221,703); $221,705 pays 1,475.0089 → $1,475.01.
    const inputs = {
      annualRatePercent: 7,
      amortizationYears: 30,
      annualTaxesCents: dollars(1_000),
      annualInsuranceCents: dollars(500),
      income: { kind: 'long-term' as const, monthlyRentCents: dollars(2_000) },
    };
    const max = maxLoanAtTargetCents(inputs, 1.25);
    expect(max).toBe(dollars(221_704));
    expect(computeDscr({ ...inputs, loanAmountCents: dollars(221_704) })).toMatchObject({ pitiaCents: dollars(1_600), dscr: 1.25, band: 'strong' });
    expect(computeDscr({ ...inputs, loanAmountCents: dollars(221_705) }).pitiaCents).toBe(dollars(1_600.01));
  });

  it('quotes a max loan the figures meet, and a dollar more they do not', () => {
    fc.assert(
      fc.property(
        fc.record({
          annualRatePercent: fc.integer({ min: 1, max: 15_000 }).map((milli) => milli / 1000),
          amortizationYears: fc.integer({ min: 5, max: 40 }),
          interestOnly: fc.boolean(),
          annualTaxesCents: fc.integer({ min: 0, max: 50_000_00 }),
          annualInsuranceCents: fc.integer({ min: 0, max: 20_000_00 }),
          monthlyHoaCents: fc.integer({ min: 0, max: 2_000_00 }),
          annualFloodInsuranceCents: fc.integer({ min: 0, max: 10_000_00 }),
          income: fc.record({ kind: fc.constant('long-term' as const), monthlyRentCents: fc.integer({ min: 0, max: 50_000_00 }) }),
        }),
        fc.integer({ min: 50, max: 300 }).map((centi) => centi / 100),
        (inputs, target) => {
          const max = maxLoanAtTargetCents(inputs, target);
          expect(max).not.toBeNull();
          const ratio = (loanAmountCents: number) => {
            const result = computeDscr({ ...inputs, loanAmountCents });
            return result.qualifyingRentCents / result.pitiaCents;
          };
          if (max! > 0) expect(ratio(max!)).toBeGreaterThanOrEqual(target);
          expect(ratio(max! + 100)).toBeLessThan(target);
        },
      ),
    );
  });

  it('is zero when the escrows alone fail the target, and undefined when the amount changes nothing', () => {
    expect(maxLoanAtTargetCents({ ...terms, income: { kind: 'long-term', monthlyRentCents: dollars(700) } }, 1.25)).toBe(0);
    expect(maxLoanAtTargetCents({ ...terms, annualRatePercent: 0, amortizationYears: 0 }, 1.25)).toBeNull();
  });

  it('quotes the rent that meets the target at the current amount, rounded up to the cent', () => {
    // 1.25 × PITIA 3,378.71 = 4,223.3875 → $4,223.39
    expect(rentNeededForTargetCents({ ...terms, loanAmountCents: dollars(400_000) }, 1.25)).toBe(dollars(4_223.39));
  });

  it('derives LTV from the amount and the value', () => {
    expect(loanToValuePercent(dollars(400_000), dollars(533_333))).toBe(75);
    expect(loanToValuePercent(dollars(300_000), 0)).toBeNull();
  });
});
