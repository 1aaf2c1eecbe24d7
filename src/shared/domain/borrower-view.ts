import type { LoanDetail } from '../schemas/loans';
import type { LoanParticipantRole } from './access';
import type { LoanPurpose, PrepaymentKind, PropertyType, UsState } from './loan-fields';
import { daysInStage, loanProgress, type LoanStage, type MainStage } from './loan-stages';

/**
 * What a borrower or co-borrower may see of their loan: one projection,
 * built field by field from an allow-list (never by deleting fields from the
 * team's view, so a field added to the loan later stays hidden until it is
 * added here on purpose). Left out: internal notes, the DSCR analysis and
 * the team's thresholds, rents, taxes and insurance, value and LTV, the
 * lender's loan number, the change history, notes on stage moves, who moved
 * them, and any other person's contact details but the assignee's.
 */
export interface BorrowerLoanView {
  id: string;
  role: LoanParticipantRole;
  team: { name: string; accentColor: string; logoUrl: string | null };
  borrowerName: string;
  entityName: string | null;
  propertyStreet: string;
  propertyUnit: string | null;
  propertyCity: string;
  propertyState: UsState;
  propertyZip: string;
  propertyType: PropertyType;
  purpose: LoanPurpose;
  loanAmountCents: number;
  noteRatePercent: number;
  termYears: number;
  amortizationYears: number;
  interestOnly: boolean;
  interestOnlyMonths: number | null;
  prepaymentKind: PrepaymentKind;
  prepaymentYears: number | null;
  targetClosingDate: string | null;
  stage: LoanStage;
  leftFromStage: MainStage | null;
  stageEnteredAt: string;
  daysInStage: number;
  /** The loan's progress over the borrower-visible checklist only (`borrowerProgress`): no internal item moves it. */
  progress: number;
  /** When the loan reached each stage (no notes, no names). */
  stageHistory: { to: LoanStage; at: string }[];
  /** The team's contact for this loan: the assignee. */
  contact: { name: string; email: string; phone: string | null } | null;
}

/** The loan's required documents among its borrower-visible items (the loan row's `borrower_*_items` counters). */
export interface BorrowerDocumentCounts {
  borrowerRequiredItems: number;
  borrowerApprovedItems: number;
}

/**
 * A loan's progress as its borrowers see it: the same formula (`loanProgress`)
 * over the borrower-visible items alone. The team's figure counts internal
 * items too, and a borrower who knows their own items could work the number
 * of internal ones out of it; this one says nothing about them.
 */
export const borrowerProgress = (loan: { stage: LoanStage; leftFromStage: MainStage | null } & BorrowerDocumentCounts): number =>
  loanProgress(loan.stage, { leftFrom: loan.leftFromStage, requiredItems: loan.borrowerRequiredItems, approvedRequiredItems: loan.borrowerApprovedItems });

export interface BorrowerViewSource {
  loan: LoanDetail;
  /** Counted over the borrower-visible items: what `progress` is made of. */
  documents: BorrowerDocumentCounts;
  role: LoanParticipantRole;
  team: { name: string; accentColor: string; logoUrl: string | null };
  contact: { name: string; email: string; phone: string | null } | null;
}

export function toBorrowerLoanView({ loan, documents, role, team, contact }: BorrowerViewSource): BorrowerLoanView {
  return {
    id: loan.id,
    role,
    team: { name: team.name, accentColor: team.accentColor, logoUrl: team.logoUrl },
    borrowerName: loan.borrowerName,
    entityName: loan.entityName,
    propertyStreet: loan.propertyStreet,
    propertyUnit: loan.propertyUnit,
    propertyCity: loan.propertyCity,
    propertyState: loan.propertyState,
    propertyZip: loan.propertyZip,
    propertyType: loan.propertyType,
    purpose: loan.purpose,
    loanAmountCents: loan.loanAmountCents,
    noteRatePercent: loan.noteRatePercent,
    termYears: loan.termYears,
    amortizationYears: loan.amortizationYears,
    interestOnly: loan.interestOnly,
    interestOnlyMonths: loan.interestOnlyMonths,
    prepaymentKind: loan.prepaymentKind,
    prepaymentYears: loan.prepaymentYears,
    targetClosingDate: loan.targetClosingDate,
    stage: loan.stage,
    leftFromStage: loan.leftFromStage,
    stageEnteredAt: loan.stageEnteredAt,
    daysInStage: loan.daysInStage,
    progress: borrowerProgress({ stage: loan.stage, leftFromStage: loan.leftFromStage, ...documents }),
    stageHistory: loan.stageHistory.map((change) => ({ to: change.to, at: change.at })),
    contact: contact ? { name: contact.name, email: contact.email, phone: contact.phone } : null,
  };
}

/**
 * What each stage means for the borrower, in their words: the stage e-mail
 * and the borrower's loan page say it under the stage's name.
 */
export const BORROWER_STAGE_MEANING: Readonly<Record<LoanStage, string>> = {
  lead: 'Your broker has opened a file for your loan.',
  application: 'Your broker is preparing your loan application.',
  borrower_invited: 'You have been invited to follow your loan here.',
  documents_collecting: 'Your broker is collecting the documents the lender needs from you. Send them as soon as you can.',
  appraisal_ordered: 'An appraisal of the property has been ordered. The appraiser may contact you to visit it.',
  appraisal_received: 'The appraisal is back and your broker is reviewing it.',
  underwriting: 'The lender is reviewing your file. Your broker will tell you if they need anything more.',
  conditionally_approved: 'The lender has approved your loan on conditions. Your broker will tell you what is still needed.',
  clear_to_close: 'All conditions are met: your loan is cleared to close.',
  closing_scheduled: 'Your closing is scheduled. Your broker will confirm the date, place and what to bring.',
  funded: 'Your loan has funded. Congratulations!',
  withdrawn: 'This loan has been withdrawn. Contact your broker with any questions.',
  declined: 'This loan has been declined. Contact your broker with any questions.',
};

/**
 * One loan on a participant's "My loans" (GET /api/my-loans): a card, built
 * from an allow-list like the loan view. No borrower name (a co-borrower's
 * card need not repeat it), no terms, no contacts: the loan page has those.
 */
export interface MyLoanCard {
  id: string;
  role: LoanParticipantRole;
  team: { name: string; accentColor: string; logoUrl: string | null };
  propertyStreet: string;
  propertyUnit: string | null;
  propertyCity: string;
  propertyState: UsState;
  propertyZip: string;
  loanAmountCents: number;
  stage: LoanStage;
  leftFromStage: MainStage | null;
  progress: number;
  daysInStage: number;
  /** Shared comments by others the participant has not read (internal ones are never counted). */
  unreadComments: number;
}

export interface MyLoanCardSource {
  loan: BorrowerDocumentCounts & {
    id: string;
    propertyStreet: string;
    propertyUnit: string | null;
    propertyCity: string;
    propertyState: UsState;
    propertyZip: string;
    loanAmountCents: number;
    stage: LoanStage;
    leftFromStage: MainStage | null;
    stageEnteredAt: Date;
  };
  role: LoanParticipantRole;
  team: { name: string; accentColor: string; logoUrl: string | null };
  /** From the comments feature's count for borrowers (shared comments only); none counted when left out. */
  unreadComments?: number;
}

export function toMyLoanCard({ loan, role, team, unreadComments = 0 }: MyLoanCardSource, now: Date = new Date()): MyLoanCard {
  return {
    id: loan.id,
    role,
    team: { name: team.name, accentColor: team.accentColor, logoUrl: team.logoUrl },
    propertyStreet: loan.propertyStreet,
    propertyUnit: loan.propertyUnit,
    propertyCity: loan.propertyCity,
    propertyState: loan.propertyState,
    propertyZip: loan.propertyZip,
    loanAmountCents: loan.loanAmountCents,
    stage: loan.stage,
    leftFromStage: loan.leftFromStage,
    progress: borrowerProgress(loan),
    daysInStage: daysInStage(loan.stageEnteredAt, now),
    unreadComments,
  };
}

/**
 * The activity data a borrower may read, per kind (an allow-list again):
 * stage moves without their notes, the loan's creation (without its
 * assignee), people joining. Kinds not listed are internal and never reach a
 * borrower at all.
 */
const SHARED_ACTIVITY_DATA: Readonly<Record<string, readonly string[]>> = {
  'loan.created': ['stage'],
  'stage.changed': ['from', 'to'],
  'stage.reopened': ['from', 'to'],
  'participant.joined': ['name', 'role'],
  // Checklist events of borrower-visible items (internal items' events are internal rows).
  'checklist.item_added': ['itemId', 'label'],
  'checklist.item_removed': ['itemId', 'label'],
  'checklist.item_waived': ['itemId', 'label', 'reason'],
  'checklist.item_reopened': ['itemId', 'label'],
  'checklist.item_not_applicable': ['itemId', 'label', 'reason', 'byName'],
  'checklist.not_applicable_confirmed': ['itemId', 'label'],
  'checklist.not_applicable_rejected': ['itemId', 'label'],
  'checklist.item_expired': ['itemId', 'label', 'documentDate', 'validThrough', 'mustBeGoodOn'],
  // Versions of borrower-visible items and their review (the reviewer reads as the team).
  'document.uploaded': ['itemId', 'label', 'versionNumber', 'fileCount', 'uploadedAs', 'byName'],
  'document.review_started': ['itemId', 'label', 'versionNumber'],
  'document.approved': ['itemId', 'label', 'versionNumber'],
  'document.needs_revision': ['itemId', 'label', 'versionNumber', 'reason'],
  // Shared comments (internal ones are internal rows). No text: the discussion shows it, and an edit's earlier text stays with the team.
  'comment.posted': ['commentId', 'parentId', 'byName'],
  'comment.edited': ['commentId', 'byName'],
  'comment.deleted': ['commentId', 'byName'],
};

export const isBorrowerActivityKind = (kind: string) => Object.hasOwn(SHARED_ACTIVITY_DATA, kind);

export function borrowerActivityData(kind: string, data: Record<string, unknown>): Record<string, unknown> {
  const allowed = SHARED_ACTIVITY_DATA[kind] ?? [];
  return Object.fromEntries(allowed.filter((key) => Object.hasOwn(data, key)).map((key) => [key, data[key]]));
}

/** Who did something, as a borrower reads it: a name, never an id. */
export interface BorrowerActivityActor {
  name: string;
}

/**
 * Who did what, as a borrower may see it (decision 010): what the team did
 * (open the file, move or reopen it) reads as the team's name, never the
 * team member's name or id; someone joining the loan reads as the name the
 * row carries (the borrowers of one loan see each other's names, as they see
 * `participant.joined`'s data). Null for a kind a borrower never sees.
 */
export function borrowerActivityActor(kind: string, data: Record<string, unknown>, { teamName }: { teamName: string }): BorrowerActivityActor | null {
  if (!isBorrowerActivityKind(kind)) return null;
  if (kind === 'participant.joined') return { name: typeof data.name === 'string' && data.name !== '' ? data.name : 'A borrower' };
  // What a borrower did themselves names them (the row carries their name).
  // A comment is signed by its author's name, as the discussion shows it (decision 019).
  if (kind === 'checklist.item_not_applicable' || (kind === 'document.uploaded' && data.uploadedAs === 'borrower') || kind.startsWith('comment.')) {
    return { name: typeof data.byName === 'string' && data.byName !== '' ? data.byName : 'A borrower' };
  }
  return { name: teamName };
}
