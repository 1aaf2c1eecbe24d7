import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { simpleHtml } from './mail-jobs';
import { createFileMailer, extractLinks, type MailMessage } from './mailer';

const LINK = `http://localhost:4000/invite#${'A1b2_C3d4-'.repeat(12)}`;

describe('createFileMailer', () => {
  let dir: string;
  let logged: { obj: { mail: { file: string; text: string; links: string[] } }; msg: string }[];
  const logger = { info: (obj: unknown, msg: string) => logged.push({ obj, msg } as (typeof logged)[number]) } as never;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'coverly-mail-'));
    logged = [];
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  async function send(message: MailMessage) {
    const mailer = createFileMailer({ dir, from: 'Coverly <no-reply@coverly.localhost>', logger });
    try {
      await mailer.send(message);
    } finally {
      mailer.close();
    }
    const files = (await readdir(dir)).sort();
    const eml = files.filter((f) => f.endsWith('.eml'));
    const txt = files.filter((f) => f.endsWith('.txt'));
    expect(eml).toHaveLength(1);
    expect(txt).toEqual([eml[0]!.replace(/\.eml$/, '.txt')]);
    return {
      eml: await readFile(path.join(dir, eml[0]!), 'utf8'),
      txt: await readFile(path.join(dir, txt[0]!), 'utf8'),
      log: logged,
    };
  }

  const paragraphs = [
    'You have been invited to join Coverly — as a platform admin.',
    `Accept the invitation and set your password here:\n${LINK}`,
    'If you were not expecting it, see https://coverly.example/help.',
  ];
  const invitation: MailMessage = {
    to: 'you@example.com',
    subject: 'Your invitation to Coverly',
    text: `${paragraphs.join('\n\n')}\n`,
    html: simpleHtml('Coverly', paragraphs),
  };

  it('writes the .eml with its text part unwrapped, so a long link stays whole on one line', async () => {
    expect(LINK.length).toBeGreaterThan(100);
    const { eml } = await send(invitation);
    expect(eml.split('\n')).toContain(LINK);
    const textPart = eml.slice(eml.indexOf('Content-Type: text/plain'), eml.indexOf('Content-Type: text/html'));
    expect(textPart).toContain('Content-Transfer-Encoding: 8bit');
    expect(textPart).toContain('Coverly — as a platform admin.');
    expect(textPart).not.toMatch(/=\n/);
    // The parts a mail reader needs are all there.
    expect(eml).toContain('To: you@example.com');
    expect(eml).toContain('Subject: Your invitation to Coverly');
    expect(eml).toMatch(/Content-Type: multipart\/alternative/);
    expect(eml).toMatch(/Content-Type: text\/html; charset=utf-8\nContent-Transfer-Encoding: quoted-printable/);
  });

  it('writes a .txt beside it with To, Subject and the plain text, each link whole on its line', async () => {
    const { txt } = await send(invitation);
    expect(txt.startsWith('To: you@example.com\nSubject: Your invitation to Coverly\n\nYou have been invited')).toBe(true);
    expect(txt.split('\n')).toContain(LINK);
    // The help link shares its line with words: it is listed again, alone.
    expect(txt.endsWith('\nLinks:\nhttps://coverly.example/help\n')).toBe(true);
  });

  it('logs each link once, whole, and nothing around it', async () => {
    const { log } = await send({ ...invitation, text: `${invitation.text}\nAgain: ${LINK}\n` });
    expect(log).toHaveLength(1);
    expect(log[0]!.msg).toBe('mail written to the mail drop');
    expect(log[0]!.obj.mail.links).toEqual([LINK, 'https://coverly.example/help']);
    expect(log[0]!.obj.mail.file.endsWith('.eml')).toBe(true);
    expect(log[0]!.obj.mail.text).toBe(log[0]!.obj.mail.file.replace(/\.eml$/, '.txt'));
  });

  it('keeps a text-only message unwrapped too', async () => {
    const { eml } = await send({ to: 'you@example.com', subject: 'Plain', text: `Open:\n${LINK}\n` });
    expect(eml).toMatch(/^Content-Type: text\/plain; charset=utf-8$/m);
    expect(eml).toMatch(/^Content-Transfer-Encoding: 7bit$/m);
    expect(eml).not.toMatch(/quoted-printable/);
    expect(eml.endsWith(`\n\nOpen:\n${LINK}\n`)).toBe(true);
  });

  it('falls back to quoted-printable for a line too long to send unencoded, and the .txt still has it whole', async () => {
    const huge = `http://localhost:4000/invite#${'x'.repeat(1200)}`;
    const { eml, txt } = await send({ ...invitation, text: `Open:\n${huge}\n` });
    expect(eml).toMatch(/Content-Type: text\/plain; charset=utf-8\nContent-Transfer-Encoding: quoted-printable/);
    expect(eml.split('\n').every((line) => line.length <= 998)).toBe(true);
    expect(txt.split('\n')).toContain(huge);
  });
});

describe('extractLinks', () => {
  it('takes the URL itself, not the line or the punctuation around it', () => {
    expect(extractLinks('See <https://a.example/x?y=1>. Or (http://b.example/p), then http://b.example/p again.\nhttp://c.example/#t_1-2')).toEqual([
      'https://a.example/x?y=1',
      'http://b.example/p',
      'http://c.example/#t_1-2',
    ]);
    expect(extractLinks('no links here, http:// alone')).toEqual([]);
  });
});
