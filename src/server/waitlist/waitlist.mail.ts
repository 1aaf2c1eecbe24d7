import type { MailMessage } from '../platform/mail/mailer';
import { simpleHtml } from '../platform/mail/mail-jobs';
import type { WaitlistEntry } from '../db/schema';

interface Context {
  brandName: string;
  publicUrl: string;
}

/** To the team (NOTIFY_EMAIL): who signed up, with everything they gave. */
export function waitlistTeamNotice(entry: WaitlistEntry, created: boolean, to: string, { brandName }: Context): MailMessage {
  const lines = [
    `Name: ${entry.fullName}`,
    `Email: ${entry.email}`,
    `Phone: ${entry.phone ?? '—'}`,
    `Company: ${entry.company ?? '—'}`,
    `First signed up: ${entry.createdAt.toISOString()}`,
    ...(created ? [] : [`Sign-ups from this address: ${entry.submissions}`]),
  ];
  const intro = created
    ? `${entry.fullName} joined the ${brandName} waitlist.`
    : `${entry.fullName} signed up for the ${brandName} waitlist again; the entry now holds these details.`;
  return {
    to,
    replyTo: entry.email,
    subject: created ? `New waitlist sign-up: ${entry.fullName}` : `Waitlist sign-up updated: ${entry.fullName}`,
    text: `${intro}\n\n${lines.join('\n')}\n`,
    html: simpleHtml(brandName, [intro, lines.join('\n')]),
  };
}

/** To the person who signed up: a short confirmation, sent once per address. */
export function waitlistConfirmation(entry: WaitlistEntry, { brandName, publicUrl }: Context): MailMessage {
  const paragraphs = [
    `Hi ${entry.fullName},`,
    `Thank you for joining the ${brandName} waitlist. We'll be in touch soon with updates and your early access.`,
    `${brandName} gives every DSCR loan one shared file: a stage timeline, a document checklist with status tags, versioned encrypted uploads and threaded comments.`,
    `If you did not sign up, you can ignore this e-mail.`,
    `— The ${brandName} team\n${publicUrl}`,
  ];
  return {
    to: entry.email,
    subject: `You're on the ${brandName} waitlist`,
    text: `${paragraphs.join('\n\n')}\n`,
    html: simpleHtml(brandName, paragraphs),
  };
}
