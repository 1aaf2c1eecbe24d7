import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canMoveStage, daysInStage, loanProgress, MAIN_STAGES, stageChangeNeedsReason, STAGE_LABELS, timelineSteps } from './loan-stages';

describe('loan stages', () => {
  it('runs Lead → … → Funded with the labels the product names', () => {
    expect(MAIN_STAGES.map((s) => STAGE_LABELS[s])).toEqual([
      'Lead',
      'Application',
      'Borrower invited',
      'Documents collecting',
      'Appraisal ordered',
      'Appraisal received',
      'Underwriting',
      'Conditionally approved',
      'Clear to close',
      'Closing scheduled',
      'Funded',
    ]);
  });

  it('moves along the main line either way, exits from anywhere on it, and only reopens to where it left', () => {
    expect(canMoveStage('lead', 'underwriting')).toBe(true);
    expect(canMoveStage('underwriting', 'application')).toBe(true);
    expect(canMoveStage('funded', 'closing_scheduled')).toBe(true);
    expect(canMoveStage('underwriting', 'underwriting')).toBe(false);
    expect(canMoveStage('underwriting', 'declined')).toBe(true);
    expect(canMoveStage('declined', 'withdrawn')).toBe(false);
    expect(canMoveStage('declined', 'underwriting', { reopenTo: 'underwriting' })).toBe(true);
    expect(canMoveStage('declined', 'lead', { reopenTo: 'underwriting' })).toBe(false);
    expect(stageChangeNeedsReason('withdrawn')).toBe(true);
    expect(stageChangeNeedsReason('funded')).toBe(false);
  });

  it('shows steps as complete, current and pending; a funded loan completes every step', () => {
    const steps = timelineSteps('appraisal_ordered');
    expect(steps.filter((s) => s.state === 'complete').map((s) => s.stage)).toEqual(['lead', 'application', 'borrower_invited', 'documents_collecting']);
    expect(steps.find((s) => s.state === 'current')?.stage).toBe('appraisal_ordered');
    expect(steps.filter((s) => s.state === 'pending')).toHaveLength(6);
    expect(timelineSteps('funded').every((s) => s.state === 'complete')).toBe(true);
    expect(timelineSteps('withdrawn', 'underwriting').find((s) => s.state === 'current')?.stage).toBe('underwriting');
  });

  it('derives progress from the stage alone until there are required items', () => {
    expect(loanProgress('lead')).toBe(0);
    expect(loanProgress('appraisal_received')).toBe(50);
    expect(loanProgress('closing_scheduled')).toBe(90);
    expect(loanProgress('funded')).toBe(100);
    expect(loanProgress('declined', { leftFrom: 'underwriting' })).toBe(60);
  });

  it('adds the share of approved required items with the documented weights', () => {
    // 0.6 × 0.5 + 0.4 × (3 ÷ 4) = 0.6 → 60
    expect(loanProgress('appraisal_received', { requiredItems: 4, approvedRequiredItems: 3 })).toBe(60);
    expect(loanProgress('lead', { requiredItems: 10, approvedRequiredItems: 10 })).toBe(40);
    expect(loanProgress('funded', { requiredItems: 10, approvedRequiredItems: 0 })).toBe(100);
  });

  it('rounds an exact half up, never down by a floating-point hair', () => {
    // 0.6 × 0.2 + 0.4 × 1 ÷ 16 = 0.145 exactly: 14.5 → 15 (100 × (0.6 × 0.2 + 0.4 × 0.0625) in floating point is 14.4999…).
    expect(loanProgress('borrower_invited', { requiredItems: 16, approvedRequiredItems: 1 })).toBe(15);
  });

  it('is the exact fraction rounded half up, between the stage alone and the stage plus every document', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 9 }), fc.integer({ min: 1, max: 500 }), fc.nat(), (step, required, seed) => {
        const approved = seed % (required + 1);
        const stage = MAIN_STAGES[step]!;
        const n = 60 * step * required + 40 * 10 * approved;
        const d = 10 * required;
        const progress = loanProgress(stage, { requiredItems: required, approvedRequiredItems: approved });
        expect(progress).toBe(Math.floor((2 * n + d) / (2 * d)));
        expect(progress).toBeGreaterThanOrEqual(Math.floor(6 * step));
        expect(progress).toBeLessThanOrEqual(Math.ceil(6 * step + 40));
      }),
    );
  });

  it('counts whole days in a stage', () => {
    const entered = new Date('2026-11-01T12:00:00Z');
    expect(daysInStage(entered, new Date('2026-11-01T23:59:00Z'))).toBe(0);
    expect(daysInStage(entered, new Date('2026-11-04T12:00:00Z'))).toBe(3);
  });
});
