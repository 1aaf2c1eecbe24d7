import { BORROWER_STAGE_MEANING } from '../../shared/domain/borrower-view';
import { formatPropertyAddress } from '../../shared/domain/loan-fields';
import { isExitStage, MAIN_STAGES, STAGE_LABELS, type LoanStage, type MainStage } from '../../shared/domain/loan-stages';
import { simpleHtml, type MailBrand } from '../platform/mail/mail-jobs';
import type { MailMessage } from '../platform/mail/mailer';
import type { NoticeMail } from '../notifications/notify';
import type { LoanRow } from '../db/schema';

/** A loan's mails are sent for its team: the brand's name (the team's) is in the From name, the subject and the text. */
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
    `${assignedBy} assigned you the ${brand.name} loan file for ${loan.borrowerName} at ${address}.`,
    `Open it here:\n${loanLink(publicUrl, loan.id)}`,
  ];
  return {
    to: to.email,
    subject: `${brand.name}: assigned to you: ${loan.borrowerName}, ${loan.propertyStreet}`,
    text: `${paragraphs.join('\n\n')}\n`,
    html: simpleHtml(brand, paragraphs),
    sentFor: brand.name,
  };
}

/**
 * Whether a stage move is mailed to the loan's borrowers: a step forward on
 * the main line, or a reopen (the loan is back on track). Not a step back
 * (a correction on the board), and not an exit to Withdrawn or Declined:
 * that news, and its reason, the team gives in person.
 */
export function mailsBorrowers(from: LoanStage, to: LoanStage): boolean {
  if (isExitStage(to)) return false;
  if (isExitStage(from)) return true;
  return MAIN_STAGES.indexOf(to as MainStage) > MAIN_STAGES.indexOf(from as MainStage);
}

/**
 * To a borrower or co-borrower: the loan moved to a new stage, what that
 * means for them, and the link to the loan. Never the stage note (notes are
 * the team's), never who moved it.
 */
export function stageChangeMail(to: { name: string }, loan: LoanRow, stage: LoanStage, { publicUrl, brand }: LoanMailContext): NoticeMail {
  const address = formatPropertyAddress(loan);
  const paragraphs = [
    `Hi ${to.name},`,
    `Your loan with ${brand.name} for ${address} is now at ${STAGE_LABELS[stage]}.`,
    BORROWER_STAGE_MEANING[stage],
    `See where it stands, and whom to contact, here:\n${loanLink(publicUrl, loan.id)}`,
  ];
  // Sent through `notify`, which adds the footer (reply in the app, unsubscribe).
  return { subject: `${brand.name}: your loan for ${loan.propertyStreet}: ${STAGE_LABELS[stage]}`, paragraphs, brand };
}
