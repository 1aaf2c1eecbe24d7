import type { ChecklistItemRow } from '../db/schema';
import type { MailBrand } from '../platform/mail/mail-jobs';
import type { NoticeMail } from '../notifications/notify';

/** A calendar date (YYYY-MM-DD) as people read it: "December 1, 2026". */
const longDate = (date: string) =>
  new Date(`${date}T00:00:00Z`).toLocaleDateString('en-US', { timeZone: 'UTC', year: 'numeric', month: 'long', day: 'numeric' });

/**
 * To a borrower or co-borrower: the documents their loan's team asks them
 * for (those still requested when the mail is written), each with its due
 * date, and the link to the loan where they upload them.
 */
export function documentsRequestedMail(
  to: { name: string },
  loan: { id: string; property: string },
  items: Pick<ChecklistItemRow, 'label' | 'dueDate'>[],
  { publicUrl, brand }: { publicUrl: string; brand: MailBrand },
): NoticeMail {
  const list = items.map((item) => `• ${item.label}${item.dueDate ? ` (due ${longDate(item.dueDate)})` : ''}`).join('\n');
  const paragraphs = [
    `Hi ${to.name},`,
    items.length === 1
      ? `${brand.name} needs a document from you for your loan for ${loan.property}:`
      : `${brand.name} needs ${items.length} documents from you for your loan for ${loan.property}:`,
    list,
    `Upload ${items.length === 1 ? 'it' : 'them'} from your phone or computer here:\n${publicUrl}/app/loans/${loan.id}`,
  ];
  // Sent through `notify`, which adds the footer (reply in the app, unsubscribe).
  return { subject: `${brand.name}: ${items.length === 1 ? `please upload ${items[0]!.label}` : `${items.length} documents requested`}`, paragraphs, brand };
}
