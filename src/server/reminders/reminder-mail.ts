import type { ItemStatus } from '../../shared/domain/checklist-status';
import type { Db } from '../db/client';
import { noticePaths } from '../../shared/domain/notifications';
import { notify, type NoticeMail, type NotifyConfig } from '../notifications/notify';
import type { MailBrand } from '../platform/mail/mail-jobs';

/** A calendar date (YYYY-MM-DD) as people read it: "December 1, 2026". */
const longDate = (date: string) =>
  new Date(`${date}T00:00:00Z`).toLocaleDateString('en-US', { timeZone: 'UTC', year: 'numeric', month: 'long', day: 'numeric' });

export interface RemindedItem {
  label: string;
  status: ItemStatus;
  dueDate: string | null;
}

function itemLine(item: RemindedItem, today: string): string {
  const due = item.dueDate ? (item.dueDate < today ? ` (was due ${longDate(item.dueDate)})` : ` (due ${longDate(item.dueDate)})`) : '';
  const why = item.status === 'needs_revision' ? ' — please send a new version' : item.status === 'expired' ? ' — the one we have is no longer current' : '';
  return `• ${item.label}${due}${why}`;
}

/** To a borrower or co-borrower: every document they still owe on one loan, and the link to it (notify adds the footer). */
export function reminderMail(
  to: { name: string },
  loan: { id: string; property: string },
  items: RemindedItem[],
  { publicUrl, brand, today }: { publicUrl: string; brand: MailBrand; today: string },
): NoticeMail {
  return {
    subject: `${brand.name}: a reminder ${items.length === 1 ? `to upload ${items[0]!.label}` : `of ${items.length} documents still needed`}`,
    paragraphs: [
      `Hi ${to.name},`,
      items.length === 1
        ? `A reminder: ${brand.name} is still waiting for a document for your loan for ${loan.property}:`
        : `A reminder: ${brand.name} is still waiting for ${items.length} documents for your loan for ${loan.property}:`,
      items.map((item) => itemLine(item, today)).join('\n'),
      `Upload ${items.length === 1 ? 'it' : 'them'} from your phone or computer here:\n${publicUrl}${noticePaths.loan(loan.id)}`,
    ],
    brand,
  };
}

export interface ReminderMailInput {
  to: { userId: string; name: string; email: string };
  loan: { id: string; property: string };
  items: RemindedItem[];
  brand: MailBrand;
  /** The team's local date: one reminder of a loan per person and day is queued at most once. */
  today: string;
}

/**
 * Tells one person of what they owe on one loan, in the caller's transaction
 * (the one that counted it), through `notify` of kind `reminder`: an inbox
 * row, and the mail with its footer and unsubscribe unless they chose in-app
 * only. The deduplication key makes a second queueing of the same day's
 * reminder one inbox row (the newest text) and, while the first mail still
 * waits, that same mail.
 */
export async function queueReminderMail(tx: Db, input: ReminderMailInput, config: NotifyConfig): Promise<void> {
  const { to, loan, items } = input;
  const mail = reminderMail(to, loan, items, { publicUrl: config.publicUrl, brand: input.brand, today: input.today });
  await notify(
    tx,
    {
      userId: to.userId,
      email: to.email,
      kind: 'reminder',
      loanId: loan.id,
      audience: 'shared',
      inbox: {
        title: items.length === 1 ? `Reminder: ${items[0]!.label} for ${loan.property}` : `Reminder: ${items.length} documents for ${loan.property}`,
        body: items.map((item) => item.label).join(', '),
        path: noticePaths.loan(loan.id),
        dedupKey: reminderDedupKey(loan.id, to.userId, input.today),
      },
      mail: { ...mail, dedupKey: reminderDedupKey(loan.id, to.userId, input.today) },
    },
    config,
  );
}

export const reminderDedupKey = (loanId: string, userId: string, today: string) => `reminder:${loanId}:${userId}:${today}`;
