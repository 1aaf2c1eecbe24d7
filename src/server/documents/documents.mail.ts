import { formatPropertyAddress } from '../../shared/domain/loan-fields';
import type { LoanRow } from '../db/schema';
import { simpleHtml, type MailBrand } from '../platform/mail/mail-jobs';
import type { MailMessage } from '../platform/mail/mailer';
import type { NoticeMail } from '../notifications/notify';

/**
 * The documents' e-mails, each sent for the loan's team (its name in the
 * From name, the subject and the text; its colour and logo in the HTML).
 */
export interface DocumentMailContext {
  publicUrl: string;
  brand: MailBrand;
}

interface Recipient {
  name: string;
  email: string;
}

type LoanPlace = Pick<LoanRow, 'id' | 'borrowerName' | 'propertyStreet' | 'propertyUnit' | 'propertyCity' | 'propertyState' | 'propertyZip'>;

const loanPage = (publicUrl: string, loanId: string) => `${publicUrl}/app/loans/${loanId}`;

function teamMail(to: Recipient, subject: string, paragraphs: string[], brand: MailBrand): MailMessage {
  return { to: to.email, subject, text: `${paragraphs.join('\n\n')}\n`, html: simpleHtml(brand, paragraphs), sentFor: brand.name };
}

/**
 * To a third party (title company, insurance agent, appraiser): the link that
 * uploads one document to one item. It works as a key, so it is queued as a
 * secret (its text leaves the outbox once sent). It names the property by its
 * city and state only: the address was typed by hand and may be wrong.
 */
export function uploadLinkMail(
  to: Recipient,
  { itemLabel, city, state, link, expiresAt }: { itemLabel: string; city: string; state: string; link: string; expiresAt: Date },
  { brand }: DocumentMailContext,
): MailMessage {
  return teamMail(
    to,
    `${brand.name} asks you for: ${itemLabel}`,
    [
      `Hello ${to.name},`,
      `${brand.name} asks you for the ${itemLabel} of a property in ${city}, ${state}.`,
      `Upload it here, from your phone or computer (no account needed):\n${link}`,
      `The link works for one upload, of one or more files, and expires on ${expiresAt.toUTCString()}. If you were not expecting it, ignore this e-mail.`,
    ],
    brand,
  );
}

/** To the loan's assignee: a new version arrived on one of its items (sent through `notify`, which adds the footer). */
export function uploadedMail(
  to: Pick<Recipient, 'name'>,
  loan: LoanPlace,
  { itemLabel, versionNumber, fileCount, uploaderName }: { itemLabel: string; versionNumber: number; fileCount: number; uploaderName: string },
  { publicUrl, brand }: DocumentMailContext,
): NoticeMail {
  const files = fileCount === 1 ? '1 file' : `${fileCount} files`;
  return {
    subject: `${brand.name}: ${itemLabel} uploaded: ${loan.borrowerName}, ${loan.propertyStreet}`,
    paragraphs: [
      `Hi ${to.name},`,
      `${uploaderName} uploaded version ${versionNumber} of ${itemLabel} (${files}) to the loan file of ${loan.borrowerName} at ${formatPropertyAddress(loan)}.`,
      `Review it here:\n${loanPage(publicUrl, loan.id)}`,
    ],
    brand,
  };
}

export type ReviewOutcome = { kind: 'approved' } | { kind: 'needs_revision'; reason: string };

/**
 * To whoever uploaded a version: the team's review of it. A borrower or team
 * member gets the link to the loan; a third party, whose link worked once,
 * is told the team sends a new one.
 */
export function reviewMail(
  to: Pick<Recipient, 'name'> & { kind: 'user' | 'link' },
  loan: LoanPlace,
  { itemLabel, versionNumber, outcome }: { itemLabel: string; versionNumber: number; outcome: ReviewOutcome },
  { publicUrl, brand }: DocumentMailContext,
): NoticeMail {
  const place = to.kind === 'link' ? `a property in ${loan.propertyCity}, ${loan.propertyState}` : formatPropertyAddress(loan);
  const what = `${itemLabel} (version ${versionNumber})`;
  if (outcome.kind === 'approved') {
    return {
      subject: `${brand.name}: ${itemLabel} approved`,
      paragraphs: [
        `Hi ${to.name},`,
        `${brand.name} approved the ${what} you sent for ${place}. Thank you.`,
        ...(to.kind === 'user' ? [`See what else is needed here:\n${loanPage(publicUrl, loan.id)}`] : []),
      ],
      brand,
    };
  }
  return {
    subject: `${brand.name}: ${itemLabel} needs a new version`,
    paragraphs: [
      `Hi ${to.name},`,
      `${brand.name} looked at the ${what} you sent for ${place}, and needs a new version:`,
      outcome.reason,
      to.kind === 'user' ? `Upload the new version here:\n${loanPage(publicUrl, loan.id)}` : `${brand.name} will send you a new upload link for it.`,
    ],
    brand,
  };
}
