import { escapeHtml } from '../../../shared/html';
import type { Db } from '../../db/client';
import { enqueueJob } from '../jobs/outbox';
import type { JobHandler } from '../jobs/worker';
import { MailMessageSchema, type MailMessage, type Mailer } from './mailer';

export const MAIL_QUEUE = 'mail.send';

/**
 * Queues an e-mail in the caller's transaction; the worker sends it after
 * commit, with retries. `secret`: the mail carries a link that works as a key
 * (an invitation, a password reset), so its text and HTML leave the outbox
 * once it is sent; its addressee and subject stay until the job is pruned.
 */
/**
 * Queues a mail in the caller's transaction. `dedupKey`: while a mail of that
 * key still waits, queueing another replaces it rather than sending both.
 */
export function enqueueMail(db: Db, message: MailMessage, { secret = false, dedupKey }: { secret?: boolean; dedupKey?: string } = {}) {
  return enqueueJob(db, MAIL_QUEUE, MailMessageSchema.parse(message), {
    ...(secret ? { secretFields: ['text', 'html'] } : {}),
    ...(dedupKey ? { dedupKey } : {}),
  });
}

export function mailJobHandler(mailer: Mailer): JobHandler {
  return async (payload) => {
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
