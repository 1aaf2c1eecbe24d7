import type { Db } from '../db/client';
import type { Invitation, InvitationRole } from '../db/schema';
import { recordAudit, type AuditEntry, type AuditPerson } from '../audit/audit';
import { notify } from '../notifications/notify';
import { findUserByEmail, insertInvitation } from './accounts.queries';
import { invitationMail, invitationTitle, type InvitationMailInput } from './invitation-mail';
import { hashInvitationToken, INVITATION_TTL_MS, newInvitationToken } from './invitation-tokens';

/*
 * Sending an invitation: to the platform (admins, from the command line), as
 * a broker (admins, from the waitlist), to a team (owners). Accepting one is
 * the invitations feature's (src/server/invitations/).
 */

export interface InvitationSenderDeps {
  publicUrl: string;
  brandName: string;
}

/** The link a person opens; the token travels in the fragment, so it never reaches a server log. */
export const invitationLink = (publicUrl: string, token: string) => `${publicUrl}/invite#${token}`;

export interface NewInvitation {
  email: string;
  role: InvitationRole;
  /** Who sends it; null from the command line. */
  inviter: AuditPerson | null;
  origin?: AuditEntry['origin'];
  /** An assistant's invitation names the team they join, with what its e-mail shows. */
  team?: { id: string } & NonNullable<InvitationMailInput['team']>;
  /** A borrower's or co-borrower's invitation names the loan they follow (and `team`, the loan's team). */
  loan?: { id: string } & NonNullable<InvitationMailInput['loan']>;
  now?: Date;
}

/** Stores the invitation (only the token's hash) and queues its e-mail in one transaction. */
export async function createInvitation(deps: InvitationSenderDeps & { db: Db }, input: NewInvitation): Promise<{ invitation: Invitation; link: string }> {
  return deps.db.transaction((tx) => createInvitationIn(tx, deps, input));
}

/**
 * The same, inside the caller's transaction `tx`, for an action that must
 * commit together with its invitation (inviting a waitlist entry marks it).
 * It opens no transaction of its own: PGlite has one connection, so a second
 * top-level transaction would wait forever on the first.
 */
export async function createInvitationIn(tx: Db, deps: InvitationSenderDeps, input: NewInvitation): Promise<{ invitation: Invitation; link: string }> {
  const token = newInvitationToken();
  const link = invitationLink(deps.publicUrl, token);
  const expiresAt = new Date((input.now ?? new Date()).getTime() + INVITATION_TTL_MS);
  const invitation = await insertInvitation(tx, {
    email: input.email.trim(),
    role: input.role,
    teamId: input.team?.id ?? null,
    loanId: input.loan?.id ?? null,
    tokenHash: hashInvitationToken(token),
    invitedBy: input.inviter?.id ?? null,
    expiresAt,
  });
  // A loan invitation is the team's 'participant.invited' (naming the loan); any other, 'invitation.sent'.
  await recordAudit(tx, {
    action: input.loan ? 'participant.invited' : 'invitation.sent',
    actor: input.inviter,
    subject: { id: null, email: invitation.email },
    teamId: invitation.teamId,
    ...(input.origin ? { origin: input.origin } : {}),
    data: {
      role: invitation.role,
      ...(input.loan ? { loanId: input.loan.id, property: input.loan.property } : {}),
      ...(input.inviter ? {} : { via: 'command line' }),
    },
  });
  const mailInput = {
    email: invitation.email,
    role: invitation.role,
    link,
    expiresAt,
    ...(input.team ? { team: input.team } : {}),
    ...(input.loan ? { loan: input.loan } : {}),
  };
  // Someone who has an account already sees it in their inbox too; the link itself is only ever in the mail.
  const account = await findUserByEmail(tx, invitation.email);
  await notify(
    tx,
    {
      userId: account?.id ?? null,
      email: invitation.email,
      kind: 'invitation',
      // Not the loan's: they hold no role on it until they accept, and the inbox shows only loans they are on.
      loanId: null,
      audience: null,
      inbox: { title: invitationTitle(mailInput, deps), body: `Open the invitation e-mail sent to ${invitation.email} to accept it.`, path: '/app' },
      mail: invitationMail(mailInput, deps),
    },
    // Invitations are transactional: always mailed, no unsubscribe, so nothing is signed.
    { publicUrl: deps.publicUrl, authSecret: undefined, publicConfig: { brandName: deps.brandName } },
  );
  return { invitation, link };
}
