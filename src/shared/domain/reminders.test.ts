import { describe, expect, it } from 'vitest';
import {
  addDays,
  daysOverdue,
  isOfficeHours,
  isReminderDue,
  isTimeZone,
  localClock,
  nextLoanReminder,
  nextReminderOn,
  overdueLabel,
  REMINDER_POLICY,
  type ItemReminderState,
} from './reminders';

/** Runs the schedule day by day from `from` to `to`, reminding whenever due: the days it reminded. */
function remindedDays(
  start: Omit<ItemReminderState, 'remindersSent' | 'lastRemindedOn'>,
  from: string,
  to: string,
  skip: (day: string) => boolean = () => false,
) {
  const state: ItemReminderState = { ...start, remindersSent: 0, lastRemindedOn: null };
  const days: string[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) {
    if (skip(day) || !isReminderDue(state, day)) continue;
    days.push(day);
    state.remindersSent += 1;
    state.lastRemindedOn = day;
  }
  return days;
}

describe('the reminder schedule', () => {
  it('with a due date: the day before, the day itself, then every 4 days, at most 5', () => {
    expect(remindedDays({ dueDate: '2026-12-10', requestedOn: '2026-11-20' }, '2026-11-20', '2027-01-31')).toEqual([
      '2026-12-09',
      '2026-12-10',
      '2026-12-14',
      '2026-12-18',
      '2026-12-22',
    ]);
  });

  it('without a due date: 3 days after the request, then every 4 days, at most 5', () => {
    expect(remindedDays({ dueDate: null, requestedOn: '2026-12-01' }, '2026-12-01', '2027-02-01')).toEqual([
      '2026-12-04',
      '2026-12-08',
      '2026-12-12',
      '2026-12-16',
      '2026-12-20',
    ]);
  });

  it('folds the days it could not send (a weekend) into one reminder, never two on a day', () => {
    // Due on Sunday 2026-12-06: the day before is Saturday. Weekends are skipped, so Monday reminds once.
    const weekend = (day: string) => [6, 0].includes(new Date(`${day}T12:00:00Z`).getUTCDay());
    expect(remindedDays({ dueDate: '2026-12-06', requestedOn: '2026-11-20' }, '2026-11-20', '2027-01-31', weekend)).toEqual([
      '2026-12-07',
      '2026-12-10',
      '2026-12-14',
      '2026-12-18',
      '2026-12-22',
    ]);
  });

  it('says nothing on the day an item is asked for, even when it is due tomorrow', () => {
    expect(isReminderDue({ dueDate: '2026-12-02', requestedOn: '2026-12-01', remindersSent: 0, lastRemindedOn: null }, '2026-12-01')).toBe(false);
    expect(isReminderDue({ dueDate: '2026-12-02', requestedOn: '2026-12-01', remindersSent: 0, lastRemindedOn: null }, '2026-12-02')).toBe(true);
  });

  it('reminds an item asked for after its due date passed at the next point of its schedule', () => {
    expect(nextReminderOn({ dueDate: '2026-12-01', requestedOn: '2026-12-03', remindersSent: 0, lastRemindedOn: null })).toBe('2026-12-05');
  });

  it('has no next reminder after the fifth', () => {
    expect(nextReminderOn({ dueDate: null, requestedOn: '2026-12-01', remindersSent: REMINDER_POLICY.maxPerItem, lastRemindedOn: '2026-12-20' })).toBeNull();
  });
});

describe('office hours in the team’s zone', () => {
  // Auckland is UTC+13 in December: its Monday morning is Sunday evening in UTC.
  const zone = 'Pacific/Auckland';
  it('reads the wall clock there', () => {
    expect(localClock(new Date('2026-12-06T21:00:00Z'), zone)).toEqual({ date: '2026-12-07', weekday: 1, hour: 10 });
    expect(localClock(new Date('2026-12-06T21:00:00Z'), 'America/New_York')).toEqual({ date: '2026-12-06', weekday: 7, hour: 16 });
  });

  it('is open 8:00–18:00 Monday to Friday only', () => {
    const local = (stamp: string) => new Date(`${stamp}+13:00`);
    expect(isOfficeHours(local('2026-12-07T08:00:00'), zone)).toBe(true);
    expect(isOfficeHours(local('2026-12-07T07:59:00'), zone)).toBe(false);
    expect(isOfficeHours(local('2026-12-07T17:59:00'), zone)).toBe(true);
    expect(isOfficeHours(local('2026-12-07T18:00:00'), zone)).toBe(false);
    expect(isOfficeHours(local('2026-12-05T10:00:00'), zone)).toBe(false); // Saturday
    expect(isOfficeHours(local('2026-12-06T10:00:00'), zone)).toBe(false); // Sunday
    // A Friday afternoon in UTC is Saturday morning there.
    expect(isOfficeHours(new Date('2026-12-04T20:00:00Z'), zone)).toBe(false);
    expect(isOfficeHours(new Date('2026-12-04T20:00:00Z'), 'UTC')).toBe(false);
    expect(isOfficeHours(new Date('2026-12-04T15:00:00Z'), 'UTC')).toBe(true);
  });

  it('knows an IANA zone from anything else', () => {
    for (const zone of ['America/New_York', 'Pacific/Auckland', 'UTC', 'Asia/Kolkata']) expect(isTimeZone(zone), zone).toBe(true);
    for (const zone of ['', 'Mars/Olympus', 'New York', '+05:00x', 'x'.repeat(80)]) expect(isTimeZone(zone), zone).toBe(false);
  });
});

describe("a loan's next reminder", () => {
  const zone = 'America/Chicago';
  /** A moment on the wall clock in Chicago (UTC−6 in December). */
  const chicago = (stamp: string) => new Date(`${stamp}-06:00`);
  const owedSince = (requestedOn: string, dueDate: string | null = null): ItemReminderState => ({
    dueDate,
    requestedOn,
    remindersSent: 0,
    lastRemindedOn: null,
  });
  const loan = (owed: ItemReminderState[], over: Partial<{ enabled: boolean; closed: boolean; recipients: number }> = {}) => ({
    enabled: true,
    closed: false,
    recipients: 1,
    owed,
    ...over,
  });

  it('is never a day already past: a missed day goes at the next run, today', () => {
    // Due on Nov 16 (its schedule's day Nov 15), never sent: the item's own next day is in the past.
    const item = owedSince('2026-11-01', '2026-11-16');
    expect(nextReminderOn(item)).toBe('2026-11-15');
    // Tuesday Dec 1, 10:00 in Chicago: inside office hours, so the very next run.
    expect(nextLoanReminder(loan([item]), chicago('2026-12-01T10:00:00'), zone)).toEqual({ kind: 'scheduled', on: '2026-12-01', soon: true });
    // 7:00: today, once the office opens.
    expect(nextLoanReminder(loan([item]), chicago('2026-12-01T07:00:00'), zone)).toEqual({ kind: 'scheduled', on: '2026-12-01', soon: false });
    // 19:00: tomorrow. Friday evening: Monday.
    expect(nextLoanReminder(loan([item]), chicago('2026-12-01T19:00:00'), zone)).toEqual({ kind: 'scheduled', on: '2026-12-02', soon: false });
    expect(nextLoanReminder(loan([item]), chicago('2026-12-04T19:00:00'), zone)).toEqual({ kind: 'scheduled', on: '2026-12-07', soon: false });
    // In the team's zone: 02:00 UTC on Dec 2 is still Dec 1, 20:00, in Chicago.
    expect(nextLoanReminder(loan([item]), new Date('2026-12-02T02:00:00Z'), zone)).toEqual({ kind: 'scheduled', on: '2026-12-02', soon: false });
  });

  it('is the earliest owed item’s day when it lies ahead, moved past a weekend', () => {
    const later = owedSince('2026-11-30', '2026-12-10');
    const sooner = owedSince('2026-11-30', '2026-12-06'); // Its first day, Dec 5, is a Saturday.
    expect(nextLoanReminder(loan([later, sooner]), chicago('2026-12-01T10:00:00'), zone)).toEqual({ kind: 'scheduled', on: '2026-12-07', soon: false });
  });

  it('says why none will go', () => {
    const item = owedSince('2026-11-30', '2026-12-10');
    const at = chicago('2026-12-01T10:00:00');
    expect(nextLoanReminder(loan([item], { enabled: false }), at, zone)).toEqual({ kind: 'none', why: 'off' });
    expect(nextLoanReminder(loan([item], { closed: true }), at, zone)).toEqual({ kind: 'none', why: 'closed' });
    expect(nextLoanReminder(loan([]), at, zone)).toEqual({ kind: 'none', why: 'nothing_owed' });
    expect(nextLoanReminder(loan([item], { recipients: 0 }), at, zone)).toEqual({ kind: 'none', why: 'no_borrower' });
    const spent = { ...item, remindersSent: REMINDER_POLICY.maxPerItem, lastRemindedOn: '2026-11-30' };
    expect(nextLoanReminder(loan([spent]), at, zone)).toEqual({ kind: 'none', why: 'all_sent' });
  });
});

describe('overdue items', () => {
  it('counts the days since the due date of an item still owed, and nothing else', () => {
    expect(daysOverdue({ dueDate: '2026-12-01', status: 'requested' }, '2026-12-02')).toBe(1);
    expect(daysOverdue({ dueDate: '2026-11-28', status: 'needs_revision' }, '2026-12-02')).toBe(4);
    expect(daysOverdue({ dueDate: '2026-12-02', status: 'requested' }, '2026-12-02')).toBeNull();
    expect(daysOverdue({ dueDate: null, status: 'requested' }, '2026-12-02')).toBeNull();
    for (const status of ['uploaded', 'in_review', 'approved', 'waived', 'not_applicable'] as const) {
      expect(daysOverdue({ dueDate: '2026-11-01', status }, '2026-12-02'), status).toBeNull();
    }
    expect([overdueLabel(1), overdueLabel(3)]).toEqual(['1 day overdue', '3 days overdue']);
  });
});
