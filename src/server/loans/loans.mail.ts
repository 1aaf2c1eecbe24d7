import { formatPropertyAddress } from '../../shared/domain/loan-fields';
import { simpleHtml, type MailBrand } from '../platform/mail/mail-jobs';
import type { MailMessage } from '../platform/mail/mailer';
import type { LoanRow } from '../db/schema';

export interface LoanMailContext {
  publicUrl: string;
  brand: MailBrand;
}

export const loanLink = (publicUrl: string, loanId: string) => `${publicUrl}/app/loans/${loanId}`;

/** To a team member a loan was just assigned to, in the team's branding. */
export function assignmentMail(to: { email: string; name: string }, loan: LoanRow, assignedBy: string, { publicUrl, brand }: LoanMailContext): MailMessage {
  const address = formatPropertyAddress(loan);
  const paragraphs = [
    `Hi ${to.name},`,
    `${assignedBy} assigned you the loan file for ${loan.borrowerName} at ${address}.`,
    `Open it here:\n${loanLink(publicUrl, loan.id)}`,
  ];
  return {
    to: to.email,
    subject: `Assigned to you: ${loan.borrowerName}, ${loan.propertyStreet}`,
    text: `${paragraphs.join('\n\n')}\n`,
    html: simpleHtml(brand, paragraphs),
  };
}
