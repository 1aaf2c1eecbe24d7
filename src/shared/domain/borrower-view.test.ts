import { describe, expect, it } from 'vitest';
import { LOAN_DEFAULTS, type LoanDetail, type LoanInput } from '../schemas/loans';
import {
  BORROWER_STAGE_MEANING,
  borrowerActivityActor,
  borrowerActivityData,
  isBorrowerActivityKind,
  toBorrowerLoanView,
  toMyLoanCard,
  type BorrowerLoanView,
  type MyLoanCard,
} from './borrower-view';
import { analyseLoan } from './loan-dscr';
import { LOAN_STAGES } from './loan-stages';

const input: LoanInput = {
  ...LOAN_DEFAULTS,
  borrowerName: 'Dana Borrower',
  borrowerEmail: 'dana@borrower.test',
  borrowerPhone: '512 555 0199',
  entityName: 'Dana Holdings LLC',
  propertyStreet: '12 Harbor Way',
  propertyUnit: 'Unit 2',
  propertyCity: 'Austin',
  propertyState: 'TX',
  propertyZip: '78701',
  propertyType: 'single_family',
  purpose: 'purchase',
  valueCents: 400_000_00,
  loanAmountCents: 300_000_00,
  noteRatePercent: 7.25,
  monthlyRentCents: 2_900_00,
  annualTaxesCents: 6_000_00,
  annualInsuranceCents: 1_800_00,
  lenderName: 'Acme Capital',
  lenderLoanNumber: 'LN-SECRET-4471',
  internalNotes: 'INTERNAL: borrower credit is thin',
  assigneeId: 'user-asha',
  targetClosingDate: '2027-03-15',
};

const detail: LoanDetail = {
  ...input,
  id: 'loan-1',
  teamId: 'team-1',
  version: 3,
  stage: 'underwriting',
  leftFromStage: null,
  stageEnteredAt: '2027-01-10T12:00:00.000Z',
  daysInStage: 4,
  progress: 60,
  archivedAt: null,
  createdAt: '2027-01-01T12:00:00.000Z',
  updatedAt: '2027-01-10T12:00:00.000Z',
  lastActivityAt: '2027-01-10T12:00:00.000Z',
  assignee: { id: 'user-asha', name: 'Asha Assistant', email: 'asha@team.test' },
  dscr: analyseLoan(input, { strong: 1.25, eligible: 1 }),
  thresholds: { strong: 1.25, eligible: 1 },
  stageHistory: [
    { id: 1, from: null, to: 'lead', note: null, by: { id: 'u', name: 'Owner Name', email: 'owner@team.test' }, at: '2027-01-01T12:00:00.000Z' },
    {
      id: 2,
      from: 'lead',
      to: 'underwriting',
      note: 'NOTE: rate lock expires',
      by: { id: 'u', name: 'Owner Name', email: 'owner@team.test' },
      at: '2027-01-10T12:00:00.000Z',
    },
  ],
};

const team = { name: 'Harbor Lending', accentColor: '#0f766e', logoUrl: '/api/team-logos/team-1/abc' };
const contact = { name: 'Asha Assistant', email: 'asha@team.test', phone: '(512) 555-0100' };

/** Every key a borrower may see, and nothing else. */
const ALLOWED: (keyof BorrowerLoanView)[] = [
  'id',
  'role',
  'team',
  'borrowerName',
  'entityName',
  'propertyStreet',
  'propertyUnit',
  'propertyCity',
  'propertyState',
  'propertyZip',
  'propertyType',
  'purpose',
  'loanAmountCents',
  'noteRatePercent',
  'termYears',
  'amortizationYears',
  'interestOnly',
  'interestOnlyMonths',
  'prepaymentKind',
  'prepaymentYears',
  'targetClosingDate',
  'stage',
  'leftFromStage',
  'stageEnteredAt',
  'daysInStage',
  'progress',
  'stageHistory',
  'contact',
];

describe('toBorrowerLoanView', () => {
  // The team's progress (60) counts internal items too; the borrower's is over their visible ones: 0.6 × 0.6 + 0.4 × 5 ÷ 10 → 56.
  const documents = { borrowerRequiredItems: 10, borrowerApprovedItems: 5 };
  const view = toBorrowerLoanView({ loan: detail, documents, role: 'co_borrower', team, contact });

  it('has exactly the allow-listed keys', () => {
    expect(Object.keys(view).sort()).toEqual([...ALLOWED].sort());
    expect(Object.keys(view.team).sort()).toEqual(['accentColor', 'logoUrl', 'name']);
    expect(Object.keys(view.contact ?? {}).sort()).toEqual(['email', 'name', 'phone']);
    for (const step of view.stageHistory) expect(Object.keys(step).sort()).toEqual(['at', 'to']);
  });

  it('copies each allowed field as the team stores it', () => {
    expect(view).toEqual({
      id: 'loan-1',
      role: 'co_borrower',
      team,
      borrowerName: 'Dana Borrower',
      entityName: 'Dana Holdings LLC',
      propertyStreet: '12 Harbor Way',
      propertyUnit: 'Unit 2',
      propertyCity: 'Austin',
      propertyState: 'TX',
      propertyZip: '78701',
      propertyType: 'single_family',
      purpose: 'purchase',
      loanAmountCents: 300_000_00,
      noteRatePercent: 7.25,
      termYears: 30,
      amortizationYears: 30,
      interestOnly: false,
      interestOnlyMonths: null,
      prepaymentKind: 'none',
      prepaymentYears: null,
      targetClosingDate: '2027-03-15',
      stage: 'underwriting',
      leftFromStage: null,
      stageEnteredAt: '2027-01-10T12:00:00.000Z',
      daysInStage: 4,
      progress: 56,
      stageHistory: [
        { to: 'lead', at: '2027-01-01T12:00:00.000Z' },
        { to: 'underwriting', at: '2027-01-10T12:00:00.000Z' },
      ],
      contact,
    });
  });

  it('never carries internal notes, the DSCR, thresholds, rents, taxes, value, the lender’s loan number, stage notes or who moved the loan', () => {
    const text = JSON.stringify(view);
    for (const secret of [
      'INTERNAL',
      'NOTE: rate lock',
      'LN-SECRET-4471',
      'Owner Name',
      'owner@team.test',
      'dana@borrower.test',
      '512 555 0199',
      'Acme Capital',
    ]) {
      expect(text, secret).not.toContain(secret);
    }
    for (const key of [
      'internalNotes',
      'dscr',
      'thresholds',
      'monthlyRentCents',
      'annualTaxesCents',
      'annualInsuranceCents',
      'valueCents',
      'lenderLoanNumber',
      'lenderName',
      'teamId',
      'assignee',
      'version',
      'borrowerEmail',
      'borrowerPhone',
    ]) {
      expect(view, key).not.toHaveProperty(key);
    }
    expect(text).not.toContain(String(2_900_00));
    expect(text).not.toContain(String(400_000_00));
  });

  it('has no contact when the loan has no assignee', () => {
    expect(toBorrowerLoanView({ loan: detail, documents, role: 'borrower', team, contact: null }).contact).toBeNull();
  });
});

describe('toMyLoanCard', () => {
  const source = {
    loan: {
      ...detail,
      stageEnteredAt: new Date('2027-01-10T12:00:00.000Z'),
      borrowerRequiredItems: 0,
      borrowerApprovedItems: 0,
    },
    role: 'borrower' as const,
    team: { ...team, id: 'team-1', secret: 'not copied' },
  };

  it('has exactly its allow-listed keys, with progress and days in stage derived', () => {
    const card = toMyLoanCard(source, new Date('2027-01-13T13:00:00.000Z'));
    const expected: MyLoanCard = {
      id: 'loan-1',
      role: 'borrower',
      team,
      propertyStreet: '12 Harbor Way',
      propertyUnit: 'Unit 2',
      propertyCity: 'Austin',
      propertyState: 'TX',
      propertyZip: '78701',
      loanAmountCents: 300_000_00,
      stage: 'underwriting',
      leftFromStage: null,
      progress: 60,
      daysInStage: 3,
      unreadComments: 0,
    };
    expect(card).toEqual(expected);
    expect(Object.keys(card.team).sort()).toEqual(['accentColor', 'logoUrl', 'name']);
  });

  it('derives progress for an exited loan from where it left', () => {
    const card = toMyLoanCard({ ...source, loan: { ...source.loan, stage: 'withdrawn', leftFromStage: 'underwriting' } });
    expect(card.progress).toBe(60);
  });

  it('counts the borrower-visible documents only, as the loan page does', () => {
    // 0.6 × 0.6 + 0.4 × 3 ÷ 4 = 0.66
    expect(toMyLoanCard({ ...source, loan: { ...source.loan, borrowerRequiredItems: 4, borrowerApprovedItems: 3 } }).progress).toBe(66);
  });
});

describe('BORROWER_STAGE_MEANING', () => {
  it('says what every stage means for the borrower', () => {
    for (const stage of LOAN_STAGES) expect(BORROWER_STAGE_MEANING[stage].length, stage).toBeGreaterThan(10);
  });
});

describe('the borrower’s activity', () => {
  it('names the team, never the team member or their id, for what the team did', () => {
    for (const kind of ['loan.created', 'stage.changed', 'stage.reopened']) {
      const actor = borrowerActivityActor(kind, {}, { teamName: 'Harbor Lending' });
      expect(actor, kind).toEqual({ name: 'Harbor Lending' });
      expect(Object.keys(actor ?? {}), kind).toEqual(['name']);
    }
  });

  it('names a participant who joined by the name the row carries, without their id', () => {
    expect(borrowerActivityActor('participant.joined', { name: 'Cody Coborrower', role: 'co_borrower' }, { teamName: 'Harbor Lending' })).toEqual({
      name: 'Cody Coborrower',
    });
    expect(borrowerActivityActor('participant.joined', {}, { teamName: 'Harbor Lending' })).toEqual({ name: 'A borrower' });
    expect(borrowerActivityActor('participant.joined', { name: 42 }, { teamName: 'Harbor Lending' })).toEqual({ name: 'A borrower' });
  });

  it('has no actor for kinds a borrower never sees', () => {
    for (const kind of ['loan.updated', 'loan.assigned', 'participant.invited', 'loan.archived']) {
      expect(isBorrowerActivityKind(kind), kind).toBe(false);
      expect(borrowerActivityActor(kind, {}, { teamName: 'Harbor Lending' }), kind).toBeNull();
    }
  });

  it('keeps only the allow-listed data of each kind: no stage notes, no assignee, no e-mails', () => {
    expect(borrowerActivityData('loan.created', { stage: 'lead', assignee: { id: 'user-asha', name: 'Asha Assistant' } })).toEqual({ stage: 'lead' });
    expect(borrowerActivityData('stage.changed', { from: 'lead', to: 'application', note: 'internal' })).toEqual({ from: 'lead', to: 'application' });
    expect(borrowerActivityData('stage.reopened', { from: 'declined', to: 'application', note: 'internal' })).toEqual({
      from: 'declined',
      to: 'application',
    });
    expect(borrowerActivityData('participant.joined', { name: 'Bea', role: 'borrower', email: 'bea@x.test', userId: 'u' })).toEqual({
      name: 'Bea',
      role: 'borrower',
    });
    expect(borrowerActivityData('loan.updated', { changes: [] })).toEqual({});
  });
});
