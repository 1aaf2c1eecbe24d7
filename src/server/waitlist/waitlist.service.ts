import type { Db } from '../db/client';
import type { JoinWaitlist } from '../../shared/schemas/waitlist';
import { enqueueMail } from '../platform/mail/mail-jobs';
import { waitlistConfirmation, waitlistTeamNotice } from './waitlist.mail';
import { upsertWaitlistEntry } from './waitlist.queries';

export interface WaitlistDeps {
  db: Db;
  notifyEmail: string;
  brandName: string;
  publicUrl: string;
}

export type JoinOutcome = 'created' | 'updated' | 'ignored';

/**
 * Stores the sign-up and, in the same transaction, queues the team's notice
 * and (for a new address) the visitor's confirmation. A filled honeypot is
 * accepted and forgotten.
 */
export async function joinWaitlist(deps: WaitlistDeps, input: JoinWaitlist): Promise<JoinOutcome> {
  if (input.website) return 'ignored';
  const { website: _honeypot, ...fields } = input;
  const context = { brandName: deps.brandName, publicUrl: deps.publicUrl };
  return deps.db.transaction(async (tx) => {
    const { entry, created } = await upsertWaitlistEntry(tx, fields);
    await enqueueMail(tx, waitlistTeamNotice(entry, created, deps.notifyEmail, context));
    if (created) await enqueueMail(tx, waitlistConfirmation(entry, context));
    return created ? 'created' : 'updated';
  });
}
