import { describe, expect, it } from 'vitest';
import { addDays, isOfficeHours, isReminderDue, isTimeZone, localClock, nextReminderOn, REMINDER_POLICY, type ItemReminderState } from './reminders';

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
