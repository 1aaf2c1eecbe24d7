import { NOTIFICATION_KIND_LABELS, TRANSACTIONAL_KINDS, type NoticeAudience, type NotificationKind } from '../../shared/domain/notifications';
import type { PublicConfig } from '../../shared/public-config';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { enqueueMail, simpleHtml, type MailBrand } from '../platform/mail/mail-jobs';
import type { MailMessage } from '../platform/mail/mailer';
import { signalInbox } from '../platform/realtime/signals';
import { emailsKind, insertNotification } from './notifications.queries';
import { unsubscribeToken, unsubscribeUrl } from './unsubscribe-token';

/**
 * The one way a feature tells a person something (decision 021): an inbox
 * row for someone with an account, and — if they want this kind by e-mail —
 * a mail through the outbox, both in the caller's transaction, so they exist
 * exactly when the action does and never hold it up.
 */
export interface Notice {
  /** null: someone without an account (an invitation, a third party). They get the mail only. */
  userId: string | null;
  /** Where the mail goes. */
  email: string;
  kind: NotificationKind;
  loanId: string | null;
  /**
   * Whom it is written for on its loan (null with no loan): the loan's team only, or everyone on it.
   * Its inbox row shows, and its mail is sent, only while the person's role on the loan may read that
   * (a team member who has become a borrower reads `shared` only; someone who left, nothing).
   */
  audience: NoticeAudience | null;
  /**
   * What the inbox row shows and where it links (a path under PUBLIC_URL), never a secret. `dedupKey`:
   * the same notice again (a loan's reminder to a person on one day) replaces the person's row with that key.
   */
  inbox: { title: string; body?: string; path: string; dedupKey?: string };
  /** The mail, written by the feature in its team's branding; notify adds the footer (the link, "reply in Coverly", unsubscribe). */
  mail: NoticeMail | null;
}

export interface NoticeMail {
  subject: string;
  paragraphs: string[];
  /** A team's brand (sent as "<team> via <brand>", its colours in the HTML), or the platform's name for platform mail. */
  brand: MailBrand | string;
  /** The mail's text is a key (an invitation link): it leaves the outbox once sent. */
  secret?: boolean;
  /** The same mail queued again while the first still waits is that one mail (a reminder's person, loan and day). */
  dedupKey?: string;
}

/** What notify needs of the configuration: where links point, the brand, and the secret unsubscribe tokens are signed with. */
export type NotifyConfig = Pick<Config, 'publicUrl' | 'authSecret'> & { publicConfig: Pick<PublicConfig, 'brandName'> };

export async function notify(tx: Db, notice: Notice, config: NotifyConfig): Promise<void> {
  if (!notice.inbox.path.startsWith('/')) throw new Error(`notify: the inbox path must be a path under PUBLIC_URL, not ${notice.inbox.path}`);
  if (notice.userId) {
    await insertNotification(tx, {
      userId: notice.userId,
      kind: notice.kind,
      loanId: notice.loanId,
      audience: notice.audience,
      data: { title: notice.inbox.title, ...(notice.inbox.body ? { body: notice.inbox.body } : {}), path: notice.inbox.path },
      dedupKey: notice.inbox.dedupKey,
    });
    await signalInbox(tx, notice.userId);
  }
  if (notice.mail) await mailNotice(tx, { ...notice, mail: notice.mail }, config);
}

/**
 * Queues a notice's mail if its person wants this kind by e-mail, with the
 * footer every notification mail carries. A mail to a person about a loan
 * names them, the loan and the audience as its recipient: the job that sends
 * it checks they may still read that (decision 021), so a member removed from
 * the team, or a borrower from the loan, before it goes is not sent it.
 */
export async function mailNotice(tx: Db, notice: Omit<Notice, 'mail' | 'inbox'> & { inbox: { path: string }; mail: NoticeMail }, config: NotifyConfig) {
  const transactional = TRANSACTIONAL_KINDS.includes(notice.kind);
  if (!transactional && notice.userId && !(await emailsKind(tx, notice.userId, notice.kind))) return;
  const { userId, loanId, audience } = notice;
  await enqueueMail(tx, noticeMessage(notice, config), {
    ...(notice.mail.secret ? { secret: true } : {}),
    ...(notice.mail.dedupKey ? { dedupKey: notice.mail.dedupKey } : {}),
    ...(userId && loanId && audience ? { recipient: { userId, loanId, audience } } : {}),
  });
}

/**
 * The mail as sent. A notification mail to a person with an account ends
 * with a line linking straight to what it is about and saying to reply in the
 * app (the sender's address is not read), and carries a one-click unsubscribe
 * for its kind (RFC 8058: both header fields, and the link in the text).
 * Invitations are transactional, and a third party has no account: neither.
 */
export function noticeMessage(
  { userId, email, kind, inbox, mail }: Pick<Notice, 'userId' | 'email' | 'kind'> & { inbox: { path: string }; mail: NoticeMail },
  config: NotifyConfig,
): MailMessage {
  const paragraphs = [...mail.paragraphs];
  let headers: Record<string, string> | undefined;
  // Someone without an account (a third party) cannot reply in the app or change a preference: the mail as written.
  if (userId && !TRANSACTIONAL_KINDS.includes(kind)) {
    if (!config.authSecret) throw new Error('notify needs config.authSecret to sign unsubscribe links');
    const url = unsubscribeUrl(config.publicUrl, unsubscribeToken(config.authSecret, userId, kind));
    paragraphs.push(
      `Reply in ${config.publicConfig.brandName}, not to this e-mail (nobody reads replies to it):\n${config.publicUrl}${inbox.path}`,
      `To stop e-mails about ${NOTIFICATION_KIND_LABELS[kind].toLowerCase()}, unsubscribe here:\n${url}`,
    );
    headers = { 'List-Unsubscribe': `<${url}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
  }
  return {
    to: email,
    subject: mail.subject,
    text: `${paragraphs.join('\n\n')}\n`,
    html: simpleHtml(mail.brand, paragraphs),
    ...(typeof mail.brand === 'string' ? {} : { sentFor: mail.brand.name }),
    ...(headers ? { headers } : {}),
  };
}
