import type { InvitationRole } from '../db/schema';
import { simpleHtml, type MailBrand } from '../platform/mail/mail-jobs';
import type { MailMessage } from '../platform/mail/mailer';

export interface InvitationMailInput {
  email: string;
  role: InvitationRole;
  link: string;
  expiresAt: Date;
  /** For a team invitation: the team, its brand, and who invited. */
  team?: { name: string; inviterName: string; brand: MailBrand };
  /** For a borrower or co-borrower: the loan's property address (with `team`, whose loan it is). */
  loan?: { property: string };
}

export function invitationMail({ email, role, link, expiresAt, team, loan }: InvitationMailInput, { brandName }: { brandName: string }): MailMessage {
  const borrower = (role === 'borrower' || role === 'co_borrower') && team && loan;
  const invitedAs = borrower
    ? `${team.inviterName} of ${team.name} invited you to follow your loan for ${loan.property}${role === 'co_borrower' ? ' as a co-borrower' : ''}. You will see where it stands, what comes next and whom to call, on your phone or computer.`
    : role === 'assistant' && team
      ? `${team.inviterName} invited you to join ${team.name} on ${brandName} as an assistant: you will work the team's loan files with them.`
      : role === 'platform_admin'
        ? `You have been invited to join ${brandName} as a platform admin, with access to the waitlist and the teams on ${brandName}.`
        : `You have been invited to join ${brandName} as a mortgage broker, one of the first on ${brandName}. After you set your password you will set up two-step verification and create your team.`;
  const paragraphs = [
    invitedAs,
    borrower ? `Open your loan and set your password here:\n${link}` : `Accept the invitation and set your password here:\n${link}`,
    `The link works once and expires on ${expiresAt.toUTCString()}. If you were not expecting it, ignore this e-mail.`,
  ];
  const subject = borrower
    ? `${team.name}: follow your loan for ${loan.property}`
    : team
      ? `${team.inviterName} invited you to ${team.name}`
      : `Your invitation to ${brandName}`;
  // A team's invitation is sent for the team: "Harbor Lending via Coverly".
  return {
    to: email,
    subject,
    text: `${paragraphs.join('\n\n')}\n`,
    html: simpleHtml(team?.brand ?? brandName, paragraphs),
    ...(team ? { sentFor: team.name } : {}),
  };
}
