import { escapeHtml } from '../../../shared/html';
import type { Db } from '../../db/client';
import { enqueueJob } from '../jobs/outbox';
import type { JobHandler } from '../jobs/worker';
import { MailMessageSchema, type MailMessage, type Mailer } from './mailer';

export const MAIL_QUEUE = 'mail.send';

/** Queues an e-mail in the caller's transaction; the worker sends it after commit, with retries. */
export function enqueueMail(db: Db, message: MailMessage) {
  return enqueueJob(db, MAIL_QUEUE, MailMessageSchema.parse(message));
}

export function mailJobHandler(mailer: Mailer): JobHandler {
  return async (payload) => {
    await mailer.send(MailMessageSchema.parse(payload));
  };
}


/** A plain, readable HTML body around text paragraphs; every value is escaped here. */
export function simpleHtml(brandName: string, paragraphs: string[]): string {
  const body = paragraphs.map((p) => `<p style="margin:0 0 14px">${escapeHtml(p).replace(/\n/g, '<br>')}</p>`).join('');
  return `<!doctype html><html><body style="font-family:system-ui,-apple-system,Segoe UI,Roboto,Arial,sans-serif;color:#0f172a;line-height:1.5;max-width:560px;margin:0 auto;padding:24px"><p style="margin:0 0 20px;font-weight:700;font-size:18px;color:#0b2545">${escapeHtml(brandName)}</p>${body}</body></html>`;
}
