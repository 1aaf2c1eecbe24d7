import type { CreateLoan } from '../shared/schemas/loans';

// Plain data, no server code: API tests (through factories.ts) and the browser specs both use it.

/** A valid new loan (a single-family purchase in Austin, DSCR about 1.1), with overrides. */
export function sampleLoan(overrides: Partial<CreateLoan> = {}): CreateLoan {
  return {
    borrowerName: 'Dana Borrower',
    borrowerEmail: 'dana@borrower.test',
    propertyStreet: '1200 Barton Springs Rd',
    propertyCity: 'Austin',
    propertyState: 'TX',
    propertyZip: '78704',
    propertyType: 'single_family',
    purpose: 'purchase',
    valueCents: 400_000_00,
    loanAmountCents: 300_000_00,
    noteRatePercent: 7.25,
    monthlyRentCents: 2_900_00,
    annualTaxesCents: 6_000_00,
    annualInsuranceCents: 1_800_00,
    ...overrides,
  };
}
