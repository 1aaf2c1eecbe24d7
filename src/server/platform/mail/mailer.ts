import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import addressparser from 'nodemailer/lib/addressparser';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';

export const MailMessageSchema = z.object({
  to: z.string().min(3),
  subject: z.string().min(1),
  text: z.string(),
  html: z.string().optional(),
  replyTo: z.string().optional(),
  /** The team a mail is sent for: its From name becomes "<team> via <brand>", at the configured address. */
  sentFor: z.string().trim().min(1).max(200).optional(),
  /** Extra header fields, passed to nodemailer as they are (a notification's `List-Unsubscribe` and `List-Unsubscribe-Post`). */
  headers: z.record(z.string().regex(/^[A-Za-z][A-Za-z0-9-]*$/), z.string()).optional(),
});
export type MailMessage = z.infer<typeof MailMessageSchema>;

export interface Mailer {
  /** Where mail goes, for the start-up log ("smtp://host:port" or the mail folder). */
  readonly describe: string;
  send(message: MailMessage): Promise<{ messageId: string }>;
  close(): void;
}

type Logger = Pick<FastifyBaseLogger, 'info'>;

/** The longest line RFC 5322 allows (without the line break); an unencoded part must keep to it. */
const MAX_LINE_OCTETS = 998;

/**
 * Every http(s) URL in `text`, each once, in order, without punctuation that
 * ends a sentence or closes a bracket around it ("…here: <https://x/y>.").
 */
export function extractLinks(text: string): string[] {
  const found = (text.match(/https?:\/\/[^\s<>"]+/g) ?? []).map((url) => url.replace(/[.,;:!?'")\]}]+$/, ''));
  return [...new Set(found.filter((url) => /^https?:\/\/[^/?#\s]+/.test(url)))];
}

/**
 * The transfer encoding that leaves `text` as written, line by line: "7bit"
 * for ASCII, "8bit" for UTF-8; null when a line is too long for either, or the
 * text holds control characters, so it needs quoted-printable after all.
 */
function unencodedTransferEncoding(text: string): '7bit' | '8bit' | null {
  const isControl = (code: number) => (code < 0x20 && code !== 0x09 && code !== 0x0a) || code === 0x7f;
  if (text === '' || [...text].some((char) => isControl(char.charCodeAt(0)))) return null;
  if (text.split('\n').some((line) => Buffer.byteLength(line) > MAX_LINE_OCTETS)) return null;
  return /^[\t\n\x20-\x7e]*$/.test(text) ? '7bit' : '8bit';
}

/**
 * A one-part message (text only) with `text` as its body, unencoded: its
 * header block (Content-Transfer-Encoding set to `encoding`), a blank line, the text.
 */
function withUnencodedBody(message: string, text: string, encoding: '7bit' | '8bit'): string {
  const head = message
    .slice(0, message.indexOf('\n\n'))
    .split('\n')
    .filter((line) => !/^Content-Transfer-Encoding:/i.test(line));
  return `${[...head, `Content-Transfer-Encoding: ${encoding}`].join('\n')}\n\n${text}`;
}

/**
 * The `.txt` beside each `.eml`: To, Subject and the plain text as written.
 * A link that shares its line with other words is listed again at the end,
 * alone on its line, so every link can be copied whole.
 */
export function mailDropText(message: Pick<MailMessage, 'to' | 'subject'>, text: string, links: string[]): string {
  const lines = new Set(text.split('\n').map((line) => line.trim()));
  const inline = links.filter((link) => !lines.has(link));
  const body = text.endsWith('\n') ? text : `${text}\n`;
  return `To: ${message.to}\nSubject: ${message.subject}\n\n${body}${inline.length ? `\nLinks:\n${inline.join('\n')}\n` : ''}`;
}

/** Who a mail comes from: MAIL_FROM, or for a team "Harbor Lending via Coverly" at MAIL_FROM's address. */
interface SenderOptions {
  /** MAIL_FROM: `Coverly <no-reply@coverly.localhost>`. */
  from: string;
  /** BRAND_NAME: after "via" when MAIL_FROM has no display name. */
  brandName?: string;
}

/**
 * The sender of each message: MAIL_FROM as it is, or — for a mail sent for a
 * team — the team's name "via" MAIL_FROM's display name (or the brand), at
 * MAIL_FROM's address. nodemailer quotes and encodes the name.
 */
export function senderFor({ from, brandName = 'Coverly' }: SenderOptions): (sentFor: string | undefined) => string | { name: string; address: string } {
  const [parsed] = addressparser(from, { flatten: true });
  const address = parsed?.address ?? from;
  const via = parsed?.name || brandName;
  return (sentFor) => (sentFor ? { name: `${sentFor} via ${via}`, address } : from);
}

/** A message as nodemailer takes it: `sentFor` turned into its From. */
function forNodemailer({ sentFor, ...message }: MailMessage, sender: ReturnType<typeof senderFor>) {
  return { from: sender(sentFor), ...message };
}

/** Mail over SMTP (`SMTP_URL`). Fails fast when the server is down, so the job retries later. */
export function createSmtpMailer({ url, ...sender }: { url: string } & SenderOptions): Mailer {
  const transport = nodemailer.createTransport({ url, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 } as SMTPTransport.Options);
  const target = new URL(url);
  const senderOf = senderFor(sender);
  return {
    describe: `${target.protocol}//${target.hostname}:${target.port || (target.protocol === 'smtps:' ? 465 : 587)}`,
    async send(message) {
      const info = await transport.sendMail(forNodemailer(message, senderOf));
      return { messageId: info.messageId };
    },
    close: () => transport.close(),
  };
}

/**
 * The embedded default: every message becomes one `.eml` file in `dir`, with
 * a `.txt` of the same name beside it (To, Subject, the plain text), and its
 * links are logged, so a person running Coverly locally can follow
 * invitations without a mail server. The `.eml` carries its plain text
 * unencoded (7bit/8bit) rather than quoted-printable, so a link in it stays
 * whole on one line; the HTML part keeps nodemailer's encoding.
 */
export function createFileMailer({ dir, logger, ...sender }: { dir: string; logger: Logger } & SenderOptions): Mailer {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const senderOf = senderFor(sender);
  return {
    describe: dir,
    async send(message) {
      await mkdir(dir, { recursive: true });
      const text = message.text.replace(/\r\n?/g, '\n');
      const encoding = unencodedTransferEncoding(text);
      // nodemailer re-encodes any text it is given as quoted-printable once a line passes 76
      // characters, whatever Content-Transfer-Encoding it is told; a raw part is written as is.
      const textPart =
        encoding && message.html ? { raw: `Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: ${encoding}\r\n\r\n${text}` } : text;
      const info = await transport.sendMail({ ...forNodemailer(message, senderOf), text: textPart });
      const composed = (info.message as Buffer).toString('utf8');
      const eml = encoding && !message.html ? withUnencodedBody(composed, text, encoding) : composed;
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const base = path.join(dir, `${stamp}-${randomUUID().slice(0, 8)}`);
      const links = extractLinks(text);
      await writeFile(`${base}.txt`, mailDropText(message, text, links));
      await writeFile(`${base}.eml`, eml);
      logger.info({ mail: { to: message.to, subject: message.subject, file: `${base}.eml`, text: `${base}.txt`, links } }, 'mail written to the mail drop');
      return { messageId: info.messageId };
    },
    close: () => transport.close(),
  };
}

export function createMailer(
  config: { smtpUrl: string | undefined; mailFrom: string; dataDir: string; publicConfig: { brandName: string } },
  logger: Logger,
): Mailer {
  const sender = { from: config.mailFrom, brandName: config.publicConfig.brandName };
  return config.smtpUrl
    ? createSmtpMailer({ url: config.smtpUrl, ...sender })
    : createFileMailer({ dir: path.join(config.dataDir, 'mail'), logger, ...sender });
}
