import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createLogger, createRuntime, type Runtime } from '../runtime';
import { job, waitlistEntry } from '../db/schema';
import { backends, createTestDatabase, type TestDatabase } from '../../test/databases';
import { testConfig } from '../../test/config';
import { SmtpPeer, waitFor } from '../../test/smtp-peer';

describe.each(backends)('waitlist mail through a real SMTP peer on %s', (backend) => {
  const smtp = new SmtpPeer();
  let runtime: Runtime;
  let pgDatabase: TestDatabase | null = null;

  beforeAll(async () => {
    await smtp.start();
    if (backend === 'postgres') pgDatabase = await createTestDatabase('postgres');
    const config = testConfig({ SMTP_URL: smtp.url, ...(pgDatabase?.url ? { DATABASE_URL: pgDatabase.url } : {}) });
    runtime = await createRuntime(config, {
      logger: createLogger({ logLevel: 'silent' }),
      distDir: '/nonexistent',
      worker: { pollMs: 50, baseBackoffMs: 100, maxBackoffMs: 300 },
    });
    runtime.worker.start();
  });
  afterAll(async () => {
    await runtime?.stop();
    await smtp.stop();
    await pgDatabase?.destroy();
  });

  const signUp = (fullName: string, email: string) => runtime.app.inject({ method: 'POST', url: '/api/waitlist', payload: { fullName, email } });
  const mailsTo = (address: string) => smtp.received.filter((m) => m.to.includes(address));

  it('delivers the team notice and the confirmation', async () => {
    expect((await signUp('Ada Lender', 'ada@example.com')).statusCode).toBe(200);
    await waitFor(() => mailsTo('team@coverly.test').length === 1 && mailsTo('ada@example.com').length === 1, { what: 'both mails' });
    expect(mailsTo('team@coverly.test')[0]?.raw).toContain('Subject: New waitlist sign-up: Ada Lender');
    expect(mailsTo('ada@example.com')[0]?.raw).toMatch(/Subject: You're on the Coverly waitlist/);
  });

  it('keeps accepting sign-ups while SMTP is down, and sends every mail once it is back', async () => {
    const port = smtp.port;
    await smtp.stop();
    const people = ['down1@example.com', 'down2@example.com', 'down3@example.com'];
    for (const [i, email] of people.entries()) {
      const response = await signUp(`Outage Person ${i}`, email);
      expect(response.statusCode).toBe(200);
    }
    const db = runtime.database.db;
    for (const email of people) expect(await db.$count(waitlistEntry, eq(waitlistEntry.emailKey, email))).toBe(1);

    // The worker tried, failed, and recorded why; nothing was dropped.
    await waitFor(async () => (await db.select().from(job).where(eq(job.status, 'pending'))).some((j) => j.attempts > 0 && j.lastError), {
      what: 'a failed delivery attempt',
    });
    expect(await db.$count(job, eq(job.status, 'dead'))).toBe(0);

    await smtp.start(port);
    await waitFor(() => people.every((email) => mailsTo(email).length === 1), { what: 'the confirmations after SMTP came back' });
    await waitFor(() => mailsTo('team@coverly.test').length === 4, { what: 'the team notices' });
    await waitFor(async () => (await db.$count(job, eq(job.status, 'done'))) === 8, { what: 'every job done' });
    // Exactly once each.
    for (const email of people) expect(mailsTo(email)).toHaveLength(1);
  });
});
