import type { ChecklistItemRow } from '../db/schema';

/**
 * What an item takes when it is owed again (asked for again, sent back for
 * a new version): its reminder count starts over, and its schedule runs from
 * now. The checklist and the documents features write it with the new tag;
 * the expiry sweep's SQL sets the same columns.
 */
export const owedAgain = (now = new Date()): Pick<ChecklistItemRow, 'remindersSent' | 'lastRemindedAt' | 'requestedAt'> => ({
  remindersSent: 0,
  lastRemindedAt: null,
  requestedAt: now,
});
