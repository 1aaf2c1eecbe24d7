import { describe, expect, it } from 'vitest';
import { checklistFor, DSCR_TEMPLATE } from '../../shared/domain/checklist-templates';
import { isItemSettled } from '../../shared/domain/checklist-status';
import { daysOverdue } from '../../shared/domain/reminders';
import { isExitStage } from '../../shared/domain/loan-stages';
import { demoChecklist } from './demo-checklist';
import { demoLoan, prng } from './demo-loans';
import { DEMO_SEED } from './seed-demo';

describe("the demo's due dates", () => {
  it('fall around today on open loans: most ahead, a few overdue, none on a closed loan moved', () => {
    const now = new Date('2026-03-10T15:00:00Z');
    const today = '2026-03-10';
    const people = { now, owner: { userId: 'o', name: 'Owner' }, assistant: { userId: 'a', name: 'Assistant' } };
    const rng = prng(DEMO_SEED);
    const checklistRng = prng(7);
    let id = 0;
    const newId = () => `id-${++id}`;
    const open: { dueDate: string; status: Parameters<typeof daysOverdue>[0]['status'] }[] = [];
    for (let i = 0; i < 40; i++) {
      const file = demoLoan(rng, i, people);
      const template = checklistFor(DSCR_TEMPLATE, file.input.purpose, file.input.propertyType);
      const { items } = demoChecklist(checklistRng, file, template, template.map(newId), { now, newId, people: { ...people, borrower: null } });
      const closed = file.stage === 'funded' || isExitStage(file.stage) || file.archived;
      items.forEach((item, index) => {
        const dueInDays = template[index]!.dueInDays;
        // Every item with a due date in the template has one, and only those.
        expect(item.dueDate === null, item.key).toBe(!dueInDays);
        if (!item.dueDate) return;
        if (closed || isItemSettled(item.status, item.notApplicableConfirmed)) return;
        open.push({ dueDate: item.dueDate, status: item.status });
      });
    }
    const owed = open.filter((item) => ['requested', 'needs_revision', 'expired'].includes(item.status));
    const overdue = owed.filter((item) => daysOverdue(item, today) !== null);
    const ahead = open.filter((item) => item.dueDate > today);
    expect(ahead.length).toBeGreaterThan(open.length / 2);
    expect(overdue.length).toBeGreaterThan(0);
    expect(overdue.length).toBeLessThan(owed.length / 3);
    // Within three weeks of today either way.
    for (const item of open) {
      expect(Math.abs(Date.parse(item.dueDate) - Date.parse(today)) / 86_400_000).toBeLessThanOrEqual(21);
    }
  });
});
