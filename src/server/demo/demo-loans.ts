import { pitiaCents } from '../../shared/domain/dscr';
import { MAIN_STAGES, isExitStage, type LoanStage, type MainStage } from '../../shared/domain/loan-stages';
import type { LoanPurpose, PrepaymentKind, PropertyType, UsState } from '../../shared/domain/loan-fields';
import { CreateLoanSchema, type CreateLoan, type LoanInput } from '../../shared/schemas/loans';

/*
 * The demo book of loans, made up deterministically: the same seed gives the
 * same borrowers, properties, figures, stages and history on every run (dates
 * are counted back from the day of the run, so "overdue" and "this week" stay
 * true). Pure: no database, no clock but the `now` it is given.
 */

/** mulberry32: a small, fast, seeded PRNG (public domain), good enough for made-up data. */
export function prng(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
    chance: (p: number) => next() < p,
  };
}
export type Rng = ReturnType<typeof prng>;

const FIRST_NAMES = [
  'James', 'Maria', 'Robert', 'Aisha', 'Michael', 'Linda', 'David', 'Mei', 'Carlos', 'Sarah', 'Daniel', 'Fatima', 'Kevin', 'Grace', 'Anthony',
  'Nicole', 'Brian', 'Rosa', 'Jason', 'Hannah', 'Tyrone', 'Emily', 'Luis', 'Priscilla', 'Andre', 'Rachel', 'Victor', 'Olivia', 'Samuel', 'Keisha',
  'Thomas', 'Ana', 'Derek', 'Yuki', 'Marcus', 'Leah', 'Raj', 'Monique', 'Ethan', 'Sofia',
] as const; // prettier-ignore
const LAST_NAMES = [
  'Thompson', 'Nguyen', 'Patel', 'Garcia', 'Johnson', 'Williams', 'Okafor', 'Martinez', 'Kim', 'Brooks', 'Rivera', 'Chen', 'Washington',
  'Sullivan', 'Hernandez', 'Foster', 'Ramirez', 'Coleman', 'Murphy', 'Alvarez', 'Bennett', 'Jenkins', 'Silva', 'Hughes', 'Castillo', 'Price',
  'Morales', 'Wallace', 'Tran', 'Fischer', 'Delgado', 'Barnes', 'Kowalski', 'Ortega', 'Sanders', 'Holloway', 'Reyes', 'Mitchell', 'Banerjee', 'Lowe',
] as const; // prettier-ignore
const ENTITY_SUFFIXES = ['Holdings LLC', 'Properties LLC', 'Capital LLC', 'Rentals LLC', 'Investments LLC', 'Real Estate Group LLC'] as const;

interface City {
  city: string;
  state: UsState;
  zips: readonly string[];
  /** Annual property tax, in thousandths of the value. */
  taxMilli: number;
  /** A beach or mountain market: short-term rentals and flood insurance. */
  resort?: boolean;
  coastal?: boolean;
}

const CITIES: readonly City[] = [
  { city: 'Austin', state: 'TX', zips: ['78704', '78702', '78745', '78723'], taxMilli: 19 },
  { city: 'Dallas', state: 'TX', zips: ['75204', '75214', '75208'], taxMilli: 21 },
  { city: 'Houston', state: 'TX', zips: ['77008', '77009', '77019'], taxMilli: 22, coastal: true },
  { city: 'San Antonio', state: 'TX', zips: ['78209', '78210', '78201'], taxMilli: 21 },
  { city: 'Phoenix', state: 'AZ', zips: ['85016', '85008', '85018'], taxMilli: 6 },
  { city: 'Scottsdale', state: 'AZ', zips: ['85251', '85257'], taxMilli: 6, resort: true },
  { city: 'Tampa', state: 'FL', zips: ['33606', '33603', '33611'], taxMilli: 16, coastal: true },
  { city: 'Orlando', state: 'FL', zips: ['32803', '32806', '32804'], taxMilli: 15, resort: true },
  { city: 'Jacksonville', state: 'FL', zips: ['32205', '32207', '32210'], taxMilli: 14, coastal: true },
  { city: 'Destin', state: 'FL', zips: ['32541'], taxMilli: 9, resort: true, coastal: true },
  { city: 'Atlanta', state: 'GA', zips: ['30307', '30316', '30310', '30318'], taxMilli: 11 },
  { city: 'Savannah', state: 'GA', zips: ['31401', '31404'], taxMilli: 12, resort: true, coastal: true },
  { city: 'Charlotte', state: 'NC', zips: ['28203', '28205', '28208'], taxMilli: 9 },
  { city: 'Raleigh', state: 'NC', zips: ['27603', '27604', '27610'], taxMilli: 9 },
  { city: 'Nashville', state: 'TN', zips: ['37206', '37208', '37216'], taxMilli: 8, resort: true },
  { city: 'Gatlinburg', state: 'TN', zips: ['37738'], taxMilli: 6, resort: true },
  { city: 'Memphis', state: 'TN', zips: ['38104', '38111', '38112'], taxMilli: 15 },
  { city: 'Columbus', state: 'OH', zips: ['43206', '43201', '43205'], taxMilli: 17 },
  { city: 'Cleveland', state: 'OH', zips: ['44113', '44102', '44109'], taxMilli: 20 },
  { city: 'Indianapolis', state: 'IN', zips: ['46202', '46203', '46201'], taxMilli: 10 },
  { city: 'Kansas City', state: 'MO', zips: ['64111', '64109', '64110'], taxMilli: 13 },
  { city: 'St. Louis', state: 'MO', zips: ['63104', '63118', '63110'], taxMilli: 14 },
  { city: 'Denver', state: 'CO', zips: ['80205', '80211', '80219'], taxMilli: 6 },
  { city: 'Las Vegas', state: 'NV', zips: ['89104', '89102', '89121'], taxMilli: 7 },
  { city: 'Salt Lake City', state: 'UT', zips: ['84105', '84102', '84104'], taxMilli: 6 },
  { city: 'Birmingham', state: 'AL', zips: ['35205', '35209', '35222'], taxMilli: 7 },
  { city: 'Gulf Shores', state: 'AL', zips: ['36542'], taxMilli: 5, resort: true, coastal: true },
  { city: 'Philadelphia', state: 'PA', zips: ['19125', '19146', '19134'], taxMilli: 14 },
  { city: 'Pittsburgh', state: 'PA', zips: ['15212', '15210', '15201'], taxMilli: 19 },
  { city: 'Baltimore', state: 'MD', zips: ['21224', '21218', '21230'], taxMilli: 22 },
  { city: 'Detroit', state: 'MI', zips: ['48207', '48214', '48209'], taxMilli: 25 },
  { city: 'Milwaukee', state: 'WI', zips: ['53212', '53207', '53208'], taxMilli: 22 },
];
const STREET_NAMES = [
  'Oak', 'Maple', 'Cedar', 'Magnolia', 'Elm', 'Pecan', 'Willow', 'Highland', 'Lakeview', 'Sunset', 'Park', 'Washington', 'Lincoln', 'Jefferson',
  'Riverside', 'Hillcrest', 'Franklin', 'Walnut', 'Chestnut', 'Church', 'Mill', 'Spring', 'Prospect', 'Grant', 'Fairview', 'Dogwood',
] as const; // prettier-ignore
const STREET_SUFFIXES = ['St', 'Ave', 'Dr', 'Ln', 'Rd', 'Blvd', 'Ct', 'Way'] as const;
const LENDERS = [
  'Kiavi',
  'Visio Lending',
  'Lima One Capital',
  'RCN Capital',
  'Angel Oak Mortgage',
  'Griffin Funding',
  'Deephaven Mortgage',
  'Verus Mortgage',
] as const;

/**
 * The stages of every 40 loans: each stage at least twice, more loans in the
 * middle of the line than at its ends, as a real book looks.
 */
export const STAGE_PLAN: readonly LoanStage[] = [
  ...Array<LoanStage>(3).fill('lead'),
  ...Array<LoanStage>(3).fill('application'),
  ...Array<LoanStage>(3).fill('borrower_invited'),
  ...Array<LoanStage>(4).fill('documents_collecting'),
  ...Array<LoanStage>(3).fill('appraisal_ordered'),
  ...Array<LoanStage>(3).fill('appraisal_received'),
  ...Array<LoanStage>(4).fill('underwriting'),
  ...Array<LoanStage>(3).fill('conditionally_approved'),
  ...Array<LoanStage>(2).fill('clear_to_close'),
  ...Array<LoanStage>(3).fill('closing_scheduled'),
  ...Array<LoanStage>(5).fill('funded'),
  ...Array<LoanStage>(2).fill('withdrawn'),
  ...Array<LoanStage>(2).fill('declined'),
];

const WITHDRAWN_REASONS = [
  'Borrower bought the property with cash instead',
  'Seller backed out of the contract',
  'Borrower went with another lender’s rate',
  'Borrower decided to keep the current loan',
] as const;
const DECLINED_REASONS = [
  'DSCR came in at 0.82 on the appraiser’s rent schedule; program minimum is 1.00',
  'Credit score below the program minimum of 660',
  'Appraised value short by $45,000: LTV over 80 %',
  'Title shows an unresolved lien the seller cannot clear',
] as const;
const STAGE_NOTES: Partial<Record<MainStage, readonly string[]>> = {
  application: ['1003 and entity documents received', 'Credit pulled, mid score 724'],
  appraisal_ordered: ['Ordered through the lender’s AMC, 1007 rent schedule included', 'Appraisal fee paid by card'],
  appraisal_received: ['Value supported; rent schedule matches the lease', 'Came in at value'],
  underwriting: ['Submitted with full package'],
  conditionally_approved: ['Conditions: lease, insurance binder, entity good standing'],
  clear_to_close: ['All conditions cleared'],
  closing_scheduled: ['Closing with the title company, docs out 48 h before'],
  funded: ['Wire confirmed'],
};

export interface DemoPerson {
  userId: string;
  name: string;
}

export interface DemoStageChange {
  fromStage: LoanStage | null;
  toStage: LoanStage;
  byId: string | null;
  note: string | null;
  at: Date;
}

export interface DemoActivity {
  actorId: string | null;
  kind: string;
  visibility: 'shared' | 'internal';
  data: Record<string, unknown>;
  at: Date;
}

/** One loan of the demo book: its fields (valid per the shared schema), where it stands, and how it got there. */
export interface DemoLoan {
  input: LoanInput;
  stage: LoanStage;
  leftFromStage: MainStage | null;
  archived: boolean;
  createdAt: Date;
  createdBy: string;
  stageChanges: DemoStageChange[];
  activity: DemoActivity[];
  /** The number of edits the loan has had (its version is one more). */
  edits: number;
}

const DAY = 86_400_000;
const isoDay = (date: Date) => date.toISOString().slice(0, 10);
const roundTo = (value: number, step: number) => Math.round(value / step) * step;

function propertyFigures(rng: Rng, type: PropertyType): { value: number; unitCount: number | null } {
  switch (type) {
    case 'single_family':
      return { value: roundTo(rng.int(165_000, 640_000), 1000), unitCount: null };
    case 'condo':
      return { value: roundTo(rng.int(140_000, 480_000), 1000), unitCount: null };
    case 'two_to_four': {
      const units = rng.pick([2, 2, 3, 4]);
      return { value: roundTo(rng.int(120_000, 210_000) * units, 1000), unitCount: units };
    }
    case 'five_plus': {
      const units = rng.int(5, 24);
      return { value: roundTo(rng.int(90_000, 160_000) * units, 5000), unitCount: units };
    }
    case 'short_term_rental':
      return { value: roundTo(rng.int(280_000, 1_150_000), 1000), unitCount: null };
  }
}

/** A believable DSCR loan file (fields only), valid per CreateLoanSchema. */
export function demoLoanInput(rng: Rng, { today, stage, assigneeId }: { today: Date; stage: LoanStage; assigneeId: string | null }): LoanInput {
  const first = rng.pick(FIRST_NAMES);
  const last = rng.pick(LAST_NAMES);
  const type: PropertyType = rng.pick([
    'single_family',
    'single_family',
    'single_family',
    'two_to_four',
    'two_to_four',
    'condo',
    'five_plus',
    'short_term_rental',
  ]);
  const place = type === 'short_term_rental' ? rng.pick(CITIES.filter((c) => c.resort)) : rng.pick(CITIES);
  const purpose: LoanPurpose = rng.pick(['purchase', 'purchase', 'purchase', 'rate_term_refinance', 'cash_out_refinance', 'cash_out_refinance']);
  const { value, unitCount } = propertyFigures(rng, type);
  const ltv =
    purpose === 'purchase'
      ? rng.pick([0.7, 0.75, 0.75, 0.8, 0.8])
      : purpose === 'rate_term_refinance'
        ? rng.pick([0.65, 0.7, 0.75])
        : rng.pick([0.6, 0.65, 0.7, 0.75]);
  const loanAmount = roundTo(value * ltv, 500);
  const noteRate = rng.int(51, 70) * 0.125; // 6.375 % … 8.75 %
  const interestOnly = rng.chance(0.15);
  const amortizationYears = interestOnly ? 30 : rng.chance(0.1) ? 40 : 30;
  const prepayment: { kind: PrepaymentKind; years: number | null } = rng.pick([
    { kind: 'step_down', years: 5 },
    { kind: 'step_down', years: 5 },
    { kind: 'step_down', years: 3 },
    { kind: 'fixed', years: 3 },
    { kind: 'none', years: null },
  ]);
  const taxes = roundTo((value * place.taxMilli) / 1000, 10);
  const insurance = roundTo(value * (place.coastal ? rng.int(70, 120) : rng.int(35, 70)) * 0.0001, 10);
  const hoa = type === 'condo' ? roundTo(rng.int(180, 650), 5) : rng.chance(0.15) ? roundTo(rng.int(25, 90), 5) : 0;
  const flood = place.coastal && rng.chance(0.6) ? roundTo(rng.int(600, 3200), 10) : 0;
  const cents = (dollars: number) => Math.round(dollars * 100);
  const pitia = pitiaCents({
    loanAmountCents: cents(loanAmount),
    annualRatePercent: noteRate,
    amortizationYears,
    interestOnly,
    annualTaxesCents: cents(taxes),
    annualInsuranceCents: cents(insurance),
    monthlyHoaCents: cents(hoa),
    annualFloodInsuranceCents: cents(flood),
  });
  // Most files sit around 1.0–1.4; a few are thin (and some of those get declined).
  const targetDscr = rng.int(88, 145) / 100;
  const rentCents = roundTo(pitia * targetDscr, 2500);
  const streetNumber = rng.int(100, 9899);
  const street = `${streetNumber} ${rng.pick(STREET_NAMES)} ${rng.pick(STREET_SUFFIXES)}`;
  const entity = rng.chance(0.55) ? `${rng.chance(0.5) ? last : rng.pick(STREET_NAMES)} ${rng.pick(ENTITY_SUFFIXES)}` : null;
  const onLine = isExitStage(stage) ? 3 : MAIN_STAGES.indexOf(stage);
  const closingDate = (() => {
    if (stage === 'lead' || (stage === 'application' && rng.chance(0.5)))
      return rng.chance(0.5) ? null : isoDay(new Date(today.getTime() + rng.int(45, 90) * DAY));
    if (stage === 'funded') return isoDay(new Date(today.getTime() - rng.int(3, 120) * DAY));
    // The nearer the loan is to closing, the nearer its date: some overdue, some this week, most this month or next.
    const offset = onLine >= 7 ? rng.pick([-9, -4, -1, 0, 2, 4, 6, 9, 14, 21]) : onLine >= 4 ? rng.pick([-6, 3, 12, 18, 25, 32, 40]) : rng.int(25, 60);
    return isoDay(new Date(today.getTime() + offset * DAY));
  })();
  const lenderKnown = onLine >= 4 || stage === 'withdrawn' || stage === 'declined';
  const input: CreateLoan = {
    borrowerName: `${first} ${last}`,
    borrowerEmail: `${first}.${last}${rng.int(1, 99)}@example.com`.toLowerCase(),
    borrowerPhone: `(${rng.pick(['512', '214', '404', '813', '704', '615', '480', '303', '614', '317'])}) 555-0${rng.int(100, 199)}`,
    entityName: entity,
    propertyStreet: street,
    propertyUnit: type === 'condo' ? `Unit ${rng.int(1, 30) * 100 + rng.int(1, 12)}` : null,
    propertyCity: place.city,
    propertyState: place.state,
    propertyZip: rng.pick(place.zips),
    propertyType: type,
    unitCount,
    unitRentsCents: type === 'two_to_four' ? splitRent(rng, rentCents, unitCount ?? 2) : null,
    purpose,
    valueCents: cents(value),
    loanAmountCents: cents(loanAmount),
    noteRatePercent: noteRate,
    termYears: 30,
    amortizationYears,
    interestOnly,
    interestOnlyMonths: interestOnly ? 120 : null,
    prepaymentKind: prepayment.kind,
    prepaymentYears: prepayment.years,
    monthlyRentCents: type === 'two_to_four' || type === 'short_term_rental' ? null : rentCents,
    // Revenue such that 80 % of it (the default 20 % expense factor) covers the target.
    strAnnualRevenueCents: type === 'short_term_rental' ? roundTo((rentCents * 12) / 0.8, 10000) : null,
    strExpensePercent: type === 'short_term_rental' ? rng.pick([20, 20, 25]) : null,
    annualTaxesCents: cents(taxes),
    annualInsuranceCents: cents(insurance),
    monthlyHoaCents: cents(hoa),
    annualFloodInsuranceCents: cents(flood),
    targetClosingDate: closingDate,
    assigneeId,
    lenderName: lenderKnown ? rng.pick(LENDERS) : null,
    lenderLoanNumber: lenderKnown ? `DSCR-${rng.int(240_000, 989_999)}` : null,
    internalNotes: rng.chance(0.3)
      ? rng.pick([
          'Experienced investor, owns 6 doors in the same market.',
          'First investment property; walk them through the rent schedule.',
          'Wants to close before the lease starts on the 1st.',
          'Referral from a realtor partner — keep them posted.',
          'Prefers text over e-mail.',
        ])
      : null,
  };
  return CreateLoanSchema.parse(input) as LoanInput;
}

/** `total` split over `units` rents, each a whole $25, summing to `total`. */
function splitRent(rng: Rng, total: number, units: number): number[] {
  const base = roundTo(total / units, 2500);
  const rents = Array.from({ length: units }, (_, i) => (i === units - 1 ? 0 : base + rng.pick([-5000, -2500, 0, 2500, 5000])));
  rents[units - 1] = Math.max(0, total - rents.slice(0, -1).reduce((a, b) => a + b, 0));
  return rents;
}

/**
 * The `index`th loan of the book: its stage from STAGE_PLAN, fields, and a
 * history that leads there (Lead, then each step in order, then the exit
 * with its reason), each step a few days after the last, the last one
 * `daysInStage` days before `now`.
 */
export function demoLoan(rng: Rng, index: number, { now, owner, assistant }: { now: Date; owner: DemoPerson; assistant: DemoPerson }): DemoLoan {
  const stage = STAGE_PLAN[index % STAGE_PLAN.length]!;
  const assignee = rng.pick([owner, owner, assistant, assistant, assistant, null]);
  const input = demoLoanInput(rng, { today: now, stage, assigneeId: assignee?.userId ?? null });
  const leftFromStage: MainStage | null = isExitStage(stage) ? rng.pick(MAIN_STAGES.slice(1, 7)) : null;
  const lineEnd: MainStage = leftFromStage ?? (stage as MainStage);
  const steps: LoanStage[] = [...MAIN_STAGES.slice(0, MAIN_STAGES.indexOf(lineEnd) + 1), ...(leftFromStage ? [stage] : [])];
  // Funded and closed loans are older; a lead came in this week or last.
  const daysInCurrent = stage === 'funded' ? rng.int(5, 90) : isExitStage(stage) ? rng.int(2, 60) : rng.int(0, stage === 'lead' ? 6 : 12);
  const gaps = steps.slice(1).map(() => rng.int(1, 7));
  const hoursAgo = rng.int(1, 20);
  let at = new Date(now.getTime() - daysInCurrent * DAY - gaps.reduce((a, b) => a + b, 0) * DAY - hoursAgo * 3_600_000);
  const createdAt = at;
  const by = () => (assignee ?? owner).userId;
  const createdBy = rng.chance(0.5) ? owner.userId : assistant.userId;
  const stageChanges: DemoStageChange[] = [{ fromStage: null, toStage: 'lead', byId: createdBy, note: null, at }];
  // One creation line, with its assignee, as createLoan writes it.
  const activity: DemoActivity[] = [
    {
      actorId: createdBy,
      kind: 'loan.created',
      visibility: 'shared',
      data: { stage: 'lead', ...(assignee ? { assignee: { id: assignee.userId, name: assignee.name } } : {}) },
      at,
    },
  ];
  for (let i = 1; i < steps.length; i++) {
    at = new Date(at.getTime() + gaps[i - 1]! * DAY + rng.int(0, 8) * 3_600_000);
    if (at > now) at = new Date(now.getTime() - 60_000);
    const from = steps[i - 1]!;
    const to = steps[i]!;
    const note =
      to === 'withdrawn'
        ? rng.pick(WITHDRAWN_REASONS)
        : to === 'declined'
          ? rng.pick(DECLINED_REASONS)
          : rng.chance(0.35)
            ? pickNote(rng, to as MainStage)
            : null;
    stageChanges.push({ fromStage: from, toStage: to, byId: by(), note, at });
    activity.push({ actorId: by(), kind: 'stage.changed', visibility: 'shared', data: { from, to, ...(note ? { note } : {}) }, at });
  }
  // A funded loan closed on the day it funded.
  if (stage === 'funded') input.targetClosingDate = isoDay(at);
  let edits = steps.length - 1;
  // Some files had their figures corrected once the appraisal came in.
  if (MAIN_STAGES.indexOf(lineEnd) >= MAIN_STAGES.indexOf('appraisal_received') && rng.chance(0.3)) {
    const before = input.loanAmountCents - rng.pick([5_000_00, 10_000_00, 12_500_00]);
    activity.push({
      actorId: by(),
      kind: 'loan.updated',
      visibility: 'internal',
      data: { changes: [{ field: 'loanAmountCents', from: before, to: input.loanAmountCents }] },
      at: new Date(Math.min(now.getTime() - 30_000, at.getTime() + 3_600_000)),
    });
    edits++;
  }
  // Two in every 40: an old funded file and a closed one leave the pipeline.
  const archived = index % STAGE_PLAN.length === STAGE_PLAN.indexOf('funded') || index % STAGE_PLAN.length === STAGE_PLAN.indexOf('withdrawn');
  if (archived) {
    activity.push({
      actorId: owner.userId,
      kind: 'loan.archived',
      visibility: 'internal',
      data: {},
      at: new Date(Math.min(now.getTime() - 20_000, at.getTime() + 2 * DAY)),
    });
    edits++;
  }
  return { input, stage, leftFromStage, archived, createdAt, createdBy, stageChanges, activity, edits };
}

function pickNote(rng: Rng, stage: MainStage): string | null {
  const notes = STAGE_NOTES[stage];
  return notes ? rng.pick(notes) : null;
}
