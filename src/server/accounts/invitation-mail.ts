import type { InvitationRole } from '../db/schema';
import type { MailBrand } from '../platform/mail/mail-jobs';
import type { NoticeMail } from '../notifications/notify';

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

/** What the invitee's inbox says when they have an account already (the link itself is only in the mail). */
export function invitationTitle({ role, team, loan }: Pick<InvitationMailInput, 'role' | 'team' | 'loan'>, { brandName }: { brandName: string }): string {
  if ((role === 'borrower' || role === 'co_borrower') && team && loan) return `${team.name} invited you to follow your loan for ${loan.property}`;
  if (team) return `${team.inviterName} invited you to ${team.name}`;
  return `You are invited to ${brandName} as ${role === 'platform_admin' ? 'a platform admin' : 'a mortgage broker'}`;
}

export function invitationMail({ role, link, expiresAt, team, loan }: InvitationMailInput, { brandName }: { brandName: string }): NoticeMail {
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
  // A team's invitation is sent for the team ("Harbor Lending via Coverly"); the link is a key, so the mail is a secret.
  return { subject, paragraphs, brand: team?.brand ?? brandName, secret: true };
}
