/**
 * A loan file's stages (PRODUCT.md §1): the main line from Lead to Funded,
 * the side exits Withdrawn and Declined, and Reopen back to where the loan
 * left the line. Pure rules, shared by the server (which enforces them) and
 * the web (which offers only the moves they allow).
 */

export const MAIN_STAGES = [
  'lead',
  'application',
  'borrower_invited',
  'documents_collecting',
  'appraisal_ordered',
  'appraisal_received',
  'underwriting',
  'conditionally_approved',
  'clear_to_close',
  'closing_scheduled',
  'funded',
] as const;
export type MainStage = (typeof MAIN_STAGES)[number];

export const EXIT_STAGES = ['withdrawn', 'declined'] as const;
export type ExitStage = (typeof EXIT_STAGES)[number];

export const LOAN_STAGES = [...MAIN_STAGES, ...EXIT_STAGES] as const;
export type LoanStage = (typeof LOAN_STAGES)[number];

export const STAGE_LABELS: Readonly<Record<LoanStage, string>> = {
  lead: 'Lead',
  application: 'Application',
  borrower_invited: 'Borrower invited',
  documents_collecting: 'Documents collecting',
  appraisal_ordered: 'Appraisal ordered',
  appraisal_received: 'Appraisal received',
  underwriting: 'Underwriting',
  conditionally_approved: 'Conditionally approved',
  clear_to_close: 'Clear to close',
  closing_scheduled: 'Closing scheduled',
  funded: 'Funded',
  withdrawn: 'Withdrawn',
  declined: 'Declined',
};

export const isExitStage = (stage: LoanStage): stage is ExitStage => (EXIT_STAGES as readonly string[]).includes(stage);

/**
 * Whether a loan at `from` may move to `to`. On the main line a loan moves to
 * any other step, forward or back (a broker corrects a mis-click on the
 * board). Any main-line step may exit to Withdrawn or Declined (with a
 * reason). An exited loan only reopens: back to the step it left from.
 */
export function canMoveStage(from: LoanStage, to: LoanStage, { reopenTo }: { reopenTo?: MainStage | null } = {}): boolean {
  if (from === to) return false;
  if (isExitStage(from)) return !isExitStage(to) && to === reopenTo;
  return true;
}

/** Exits need a reason; a note is optional on every other move. */
export const stageChangeNeedsReason = (to: LoanStage) => isExitStage(to);

export type StepState = 'complete' | 'current' | 'pending';

/**
 * The timeline's steps as the landing page's mockup shows them: every main
 * step before the current one complete, the current one current, the rest
 * pending. An exited loan shows the line as it was when it left.
 */
export function timelineSteps(stage: LoanStage, leftFrom?: MainStage | null): { stage: MainStage; state: StepState }[] {
  const at = isExitStage(stage) ? (leftFrom ?? 'lead') : stage;
  const index = MAIN_STAGES.indexOf(at);
  return MAIN_STAGES.map((step, i) => ({ stage: step, state: i < index ? 'complete' : i === index ? (at === 'funded' ? 'complete' : 'current') : 'pending' }));
}

/**
 * Progress (0–100), derived, never typed in:
 *
 *   stage share    = position on the main line, Lead = 0 … Funded = 1
 *   document share = approved required checklist items ÷ required items
 *   progress       = round(100 × stage share)                                  without required items
 *                  = round(100 × (STAGE_WEIGHT × stage share + (1 − STAGE_WEIGHT) × document share))  with them
 *
 * Required items are those still needed: a waived item, or one confirmed not
 * applicable, leaves both counts (`documentCounts` in checklist-status.ts).
 * Funded is always 100. An exited loan keeps the progress of the step it left.
 *
 * Computed as one fraction of whole numbers, so the result is exact (a half
 * rounds up, never down by a floating-point hair) and PostgreSQL's `round` of
 * the same fraction, which the pipeline sorts by, agrees with it
 * (`progressSortKey` in server/loans/loans.queries.ts).
 */
export const STAGE_WEIGHT_PERCENT = 60;
export const STAGE_WEIGHT = STAGE_WEIGHT_PERCENT / 100;
/** The main line's last index (Funded): the stage share's denominator. */
export const MAIN_STAGE_STEPS = MAIN_STAGES.length - 1;

export function loanProgress(
  stage: LoanStage,
  {
    leftFrom = null,
    requiredItems = 0,
    approvedRequiredItems = 0,
  }: { leftFrom?: MainStage | null; requiredItems?: number; approvedRequiredItems?: number } = {},
): number {
  const at = isExitStage(stage) ? (leftFrom ?? 'lead') : stage;
  if (at === 'funded') return 100;
  const step = MAIN_STAGES.indexOf(at);
  if (requiredItems <= 0) return Math.round((100 * step) / MAIN_STAGE_STEPS);
  const approved = Math.min(requiredItems, Math.max(0, approvedRequiredItems));
  // 100 × (W × step ÷ S + (1 − W) × approved ÷ required), over the common denominator S × required.
  const numerator = STAGE_WEIGHT_PERCENT * step * requiredItems + (100 - STAGE_WEIGHT_PERCENT) * MAIN_STAGE_STEPS * approved;
  return Math.round(numerator / (MAIN_STAGE_STEPS * requiredItems));
}

/** Whole days a loan has spent in its stage, counted from when it entered it. */
export function daysInStage(enteredAt: Date, now: Date = new Date()): number {
  return Math.max(0, Math.floor((now.getTime() - enteredAt.getTime()) / 86_400_000));
}
