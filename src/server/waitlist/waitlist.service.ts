import type { Db } from '../db/client';
import type { JoinWaitlist } from '../../shared/schemas/waitlist';
import { noteJobEnqueued } from '../platform/jobs/job-wake';
import { enqueueMail, MAIL_QUEUE } from '../platform/mail/mail-jobs';
import { MailMessageSchema } from '../platform/mail/mailer';
import { waitlistConfirmation, waitlistTeamNotice } from './waitlist.mail';
import { insertNewWaitlistEntry, newWaitlistEntry, upsertWaitlistEntry } from './waitlist.queries';

export interface WaitlistDeps {
  db: Db;
  notifyEmail: string;
  brandName: string;
  publicUrl: string;
}

export type JoinOutcome = 'created' | 'updated' | 'ignored';

/**
 * Stores the sign-up and, atomically with it, queues the team's notice and
 * (for a new address) the visitor's confirmation. A filled honeypot is
 * accepted and forgotten.
 *
 * Most sign-ups are a new address: the entry and both mails are then written
 * by one statement (one round trip, no transaction to open and commit). An
 * address already listed is updated and the team told, in one transaction.
 */
export async function joinWaitlist(deps: WaitlistDeps, input: JoinWaitlist): Promise<JoinOutcome> {
  if (input.website) return 'ignored';
  const { website: _honeypot, ...fields } = input;
  const context = { brandName: deps.brandName, publicUrl: deps.publicUrl };

  const entry = newWaitlistEntry(fields);
  const mails = [waitlistTeamNotice(entry, true, deps.notifyEmail, context), waitlistConfirmation(entry, context)];
  const jobs = mails.map((mail) => ({ queue: MAIL_QUEUE, payload: MailMessageSchema.parse(mail) }));
  if (await insertNewWaitlistEntry(deps.db, entry, jobs)) {
    noteJobEnqueued();
    return 'created';
  }

  return deps.db.transaction(async (tx) => {
    const { entry, created } = await upsertWaitlistEntry(tx, fields);
    await enqueueMail(tx, waitlistTeamNotice(entry, created, deps.notifyEmail, context));
    if (created) await enqueueMail(tx, waitlistConfirmation(entry, context));
    return created ? 'created' : 'updated';
  });
}
