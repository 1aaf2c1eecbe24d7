import { z } from 'zod';
import { NOTICE_AUDIENCES } from '../../../shared/domain/notifications';
import { escapeHtml } from '../../../shared/html';
import type { Db } from '../../db/client';
import { enqueueJob } from '../jobs/outbox';
import type { JobHandler } from '../jobs/worker';
import { MailMessageSchema, type MailMessage, type Mailer } from './mailer';

export const MAIL_QUEUE = 'mail.send';

/** The payload key naming whom a mail is for on a loan; the handler checks it before sending, and never sends it on. */
export const MAIL_RECIPIENT_KEY = '$recipient';

/**
 * Whom a mail about a loan is for: a person, the loan, and the audience it
 * was written for there (the loan's team, or everyone on it). The job that
 * sends it asks whether that person may still read that audience on the loan.
 */
export const MailRecipientSchema = z.object({ userId: z.string().min(1), loanId: z.string().min(1), audience: z.enum(NOTICE_AUDIENCES) });
export type MailRecipient = z.infer<typeof MailRecipientSchema>;

/** Asks, at send time, whether a mail's recipient may still read what it is about (accounts/loan-audience.ts, wired by the runtime). */
export type MayReceive = (recipient: MailRecipient) => Promise<boolean>;

/**
 * Queues an e-mail in the caller's transaction; the worker sends it after
 * commit, with retries. `secret`: the mail carries a link that works as a key
 * (an invitation, a password reset), so its text and HTML leave the outbox
 * once it is sent; its addressee and subject stay until the job is pruned.
 * `dedupKey`: while a mail of that key still waits, queueing another replaces
 * it rather than sending both. `recipient`: a mail to a person about a loan
 * (a team member's, a borrower's) is sent only if, when its job runs, they
 * may still read what it was written for there.
 */
export function enqueueMail(
  db: Db,
  message: MailMessage,
  { secret = false, dedupKey, recipient }: { secret?: boolean; dedupKey?: string; recipient?: MailRecipient } = {},
) {
  const payload = { ...MailMessageSchema.parse(message), ...(recipient ? { [MAIL_RECIPIENT_KEY]: MailRecipientSchema.parse(recipient) } : {}) };
  return enqueueJob(db, MAIL_QUEUE, payload, {
    ...(secret ? { secretFields: ['text', 'html'] } : {}),
    ...(dedupKey ? { dedupKey } : {}),
  });
}

/**
 * Sends a queued mail. One with a recipient is first checked with
 * `mayReceive`: when they may no longer read what it is about (removed from
 * the team or the loan since it was queued), it is not sent, and the job ends
 * done. The runtime's worker always passes it (`jobSetup`); a test's worker
 * that only delivers may leave it out.
 */
export function mailJobHandler(mailer: Mailer, mayReceive?: MayReceive): JobHandler {
  return async (payload) => {
    const recipient = (payload as Record<string, unknown>)[MAIL_RECIPIENT_KEY];
    if (recipient !== undefined && mayReceive && !(await mayReceive(MailRecipientSchema.parse(recipient)))) return;
    await mailer.send(MailMessageSchema.parse(payload));
  };
}

/**
 * Whose name heads an e-mail: the platform's, or the team's when the mail
 * goes to (or on behalf of) a team's people — with its logo and accent colour.
 */
export interface MailBrand {
  name: string;
  accentColor?: string;
  /** Absolute URL of the team's logo. */
  logoUrl?: string | null;
}

/** A plain, readable HTML body around text paragraphs; every value is escaped here. */
export function simpleHtml(brand: string | MailBrand, paragraphs: string[]): string {
  // The accent colour is only the stripe: a light brand colour must not become unreadable text.
  const { name, accentColor = '#0b2545', logoUrl = null } = typeof brand === 'string' ? { name: brand } : brand;
  const body = paragraphs.map((p) => `<p style="margin:0 0 14px">${escapeHtml(p).replace(/\n/g, '<br>')}</p>`).join('');
  const logo = logoUrl ? `<img src="${escapeHtml(logoUrl)}" alt="" height="40" style="display:block;height:40px;width:auto;margin:0 0 8px">` : '';
  return `<!doctype html><html><body style="font-family:system-ui,-apple-system,Segoe UI,Roboto,Arial,sans-serif;color:#0f172a;line-height:1.5;max-width:560px;margin:0 auto;padding:24px"><div style="border-top:4px solid ${escapeHtml(accentColor)};padding-top:16px;margin:0 0 20px">${logo}<p style="margin:0;font-weight:700;font-size:18px;color:#0b2545">${escapeHtml(name)}</p></div>${body}</body></html>`;
}
