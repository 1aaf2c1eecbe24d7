import type { InvitationRole } from '../db/schema';
import { simpleHtml } from '../platform/mail/mail-jobs';
import type { MailMessage } from '../platform/mail/mailer';

const ROLE_TEXT: Record<InvitationRole, string> = {
  platform_admin: 'a platform admin, with access to the waitlist and the teams on',
  broker: 'a mortgage broker, one of the first on',
};

export function invitationMail(
  { email, role, link, expiresAt }: { email: string; role: InvitationRole; link: string; expiresAt: Date },
  { brandName }: { brandName: string },
): MailMessage {
  const paragraphs = [
    `You have been invited to join ${brandName} as ${ROLE_TEXT[role]} ${brandName}.`,
    `Accept the invitation and set your password here:\n${link}`,
    `The link works once and expires on ${expiresAt.toUTCString()}. If you were not expecting it, ignore this e-mail.`,
  ];
  return { to: email, subject: `Your invitation to ${brandName}`, text: `${paragraphs.join('\n\n')}\n`, html: simpleHtml(brandName, paragraphs) };
}
