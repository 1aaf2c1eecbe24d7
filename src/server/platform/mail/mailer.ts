import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';

export const MailMessageSchema = z.object({
  to: z.string().min(3),
  subject: z.string().min(1),
  text: z.string(),
  html: z.string().optional(),
  replyTo: z.string().optional(),
});
export type MailMessage = z.infer<typeof MailMessageSchema>;

export interface Mailer {
  /** Where mail goes, for the start-up log ("smtp://host:port" or the mail folder). */
  readonly describe: string;
  send(message: MailMessage): Promise<{ messageId: string }>;
  close(): void;
}

type Logger = Pick<FastifyBaseLogger, 'info'>;

const LINK = /https?:\/\/\S+/;

/** Mail over SMTP (`SMTP_URL`). Fails fast when the server is down, so the job retries later. */
export function createSmtpMailer({ url, from }: { url: string; from: string }): Mailer {
  const transport = nodemailer.createTransport({ url, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 } as SMTPTransport.Options);
  const target = new URL(url);
  return {
    describe: `${target.protocol}//${target.hostname}:${target.port || (target.protocol === 'smtps:' ? 465 : 587)}`,
    async send(message) {
      const info = await transport.sendMail({ from, ...message });
      return { messageId: info.messageId };
    },
    close: () => transport.close(),
  };
}

/**
 * The embedded default: every message becomes one `.eml` file in `dir`, and
 * the lines that carry a link are logged, so a person running Coverly locally
 * can follow invitations without a mail server.
 */
export function createFileMailer({ dir, from, logger }: { dir: string; from: string; logger: Logger }): Mailer {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    describe: dir,
    async send(message) {
      await mkdir(dir, { recursive: true });
      const info = await transport.sendMail({ from, ...message });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const file = path.join(dir, `${stamp}-${randomUUID().slice(0, 8)}.eml`);
      await writeFile(file, info.message as Buffer);
      const links = message.text.split('\n').filter((line) => LINK.test(line)).map((line) => line.trim());
      logger.info({ mail: { to: message.to, subject: message.subject, file, links } }, 'mail written to the mail drop');
      return { messageId: info.messageId };
    },
    close: () => transport.close(),
  };
}

export function createMailer(config: { smtpUrl: string | undefined; mailFrom: string; dataDir: string }, logger: Logger): Mailer {
  return config.smtpUrl
    ? createSmtpMailer({ url: config.smtpUrl, from: config.mailFrom })
    : createFileMailer({ dir: path.join(config.dataDir, 'mail'), from: config.mailFrom, logger });
}
