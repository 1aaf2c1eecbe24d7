import { daysOverdue, overdueLabel } from '../../../../shared/domain/reminders';
import type { ItemStatus } from '../../../../shared/domain/checklist-status';
import { formatCalendarDate } from '../../../lib/dates';

/** Today on the viewer's calendar, YYYY-MM-DD. */
const localToday = () => new Intl.DateTimeFormat('en-CA').format(new Date());

/**
 * An item's due date, for the team and for its borrowers alike: "Due Dec 3,
 * 2026", or, once it has passed while the item is still owed, in the
 * warning colour with how late it is ("Due Nov 28, 2026 · 3 days overdue").
 */
export function DueDate({ item }: { item: { dueDate: string | null; status: ItemStatus } }) {
  if (!item.dueDate) return null;
  const late = daysOverdue(item, localToday());
  const text = `Due ${formatCalendarDate(item.dueDate)}`;
  if (late === null) return <span>{text}</span>;
  return (
    <span className="font-medium text-amber-800">
      {text} · {overdueLabel(late)}
    </span>
  );
}
