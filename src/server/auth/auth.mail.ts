import { simpleHtml, type MailBrand } from '../platform/mail/mail-jobs';
import type { MailMessage } from '../platform/mail/mailer';

export function passwordResetMail(
  { email, name, link }: { email: string; name: string; link: string },
  { brandName, brand = null }: { brandName: string; brand?: MailBrand | null },
): MailMessage {
  // A team's people get the team's name on it too, as on all their mail: "Harbor Lending via Coverly".
  const account = brand ? `${brandName} account, which you use with ${brand.name}` : `${brandName} account`;
  const paragraphs = [
    `Hi ${name},`,
    `Someone asked to reset the password of your ${account}. To choose a new password, open this link within an hour:\n${link}`,
    `The link works once. Choosing a new password signs you out everywhere else.`,
    `If you did not ask for this, ignore this e-mail: your password stays as it is.`,
  ];
  return {
    to: email,
    subject: brand ? `${brand.name}: reset your ${brandName} password` : `Reset your ${brandName} password`,
    text: `${paragraphs.join('\n\n')}\n`,
    html: simpleHtml(brand ?? brandName, paragraphs),
    ...(brand ? { sentFor: brand.name } : {}),
  };
}
