import { setTimeout as sleep } from 'node:timers/promises';
import { AppError, invalidField } from '../../shared/errors';
import type { AcceptInvitation, InvitationSummary } from '../../shared/schemas/invitations';
import { createCredentialUser, type Auth } from '../auth/auth';
import { checkPassword } from '../auth/password-policy';
import { beginSignIn } from '../auth/throttle';
import type { Db } from '../db/client';
import { isUniqueViolation } from '../db/errors';
import type { Invitation, InvitationRole } from '../db/schema';
import {
  claimInvitation,
  findInvitationByTokenHash,
  findTeam,
  findTeamOfUser,
  findUserByEmail,
  grantBroker,
  grantPlatformAdmin,
  insertMember,
  lockUser,
} from '../accounts/accounts.queries';
import { hashInvitationToken } from '../accounts/invitation-tokens';
import { joinLoan, loanPropertyOf } from '../accounts/loan-participants';
import { recordAudit, type AuditEntry } from '../audit/audit';
import { signalInbox } from '../platform/realtime/signals';

export interface InvitationDeps {
  db: Db;
  auth: Auth;
  publicUrl: string;
  brandName: string;
}

/** The invitation a token opens, or the reason it cannot be used. */
async function usableInvitation(db: Db, token: string): Promise<Invitation> {
  const found = await findInvitationByTokenHash(db, hashInvitationToken(token));
  if (!found) throw new AppError('not_found', 'This invitation link is not valid');
  if (found.acceptedAt) throw new AppError('gone', 'This invitation has already been used');
  if (found.revokedAt) throw new AppError('gone', 'This invitation was withdrawn; ask for a new one');
  if (found.expiresAt.getTime() <= Date.now()) throw new AppError('gone', 'This invitation has expired; ask for a new one');
  return found;
}

export async function lookupInvitation(deps: Pick<InvitationDeps, 'db'>, token: string): Promise<InvitationSummary> {
  const found = await usableInvitation(deps.db, token);
  const invitedTo = found.teamId ? await findTeam(deps.db, found.teamId) : undefined;
  return {
    email: found.email,
    role: found.role,
    teamName: invitedTo?.name ?? null,
    loanProperty: found.loanId ? ((await loanPropertyOf(deps.db, found.loanId)) ?? null) : null,
    expiresAt: found.expiresAt.toISOString(),
    hasAccount: Boolean(await findUserByEmail(deps.db, found.email)),
  };
}

/**
 * Where each role lands after accepting. The app shell sends every one of them
 * (admin, broker, assistant) to set up two-step verification first, then on to these.
 */
const ROLE_HOME: Record<Exclude<InvitationRole, 'borrower' | 'co_borrower'>, string> = {
  platform_admin: '/app',
  broker: '/app/team/new',
  assistant: '/app/team',
};

/** Borrowers land on the loan they were invited to. */
const homeOf = (claimed: Invitation) =>
  claimed.role === 'borrower' || claimed.role === 'co_borrower' ? `/app/loans/${claimed.loanId}` : ROLE_HOME[claimed.role];

/** Grants what the invitation grants, inside the claiming transaction. */
async function grantInvitedRole(tx: Db, claimed: Invitation, userId: string) {
  switch (claimed.role) {
    case 'platform_admin':
      return grantPlatformAdmin(tx, userId);
    case 'broker':
      return grantBroker(tx, userId);
    case 'assistant': {
      if (!claimed.teamId) throw new Error(`assistant invitation ${claimed.id} has no team`);
      await lockUser(tx, userId);
      const current = await findTeamOfUser(tx, userId);
      if (current?.id === claimed.teamId) return;
      if (current) throw new AppError('conflict', `This account already belongs to ${current.name}; one account works in one team`);
      await insertMember(tx, { teamId: claimed.teamId, userId, role: 'assistant' });
      // The team's inbox rows of its loans are theirs to read again (someone who comes back): their open streams get the new count.
      return signalInbox(tx, userId);
    }
    case 'borrower':
    case 'co_borrower': {
      if (!claimed.loanId) throw new Error(`${claimed.role} invitation ${claimed.id} has no loan`);
      return joinLoan(tx, { loanId: claimed.loanId, userId, role: claimed.role, invitedBy: claimed.invitedBy });
    }
  }
}

/**
 * Accepts an invitation: creates the account (or checks the existing one's
 * password), grants exactly the invited role, and signs the person in.
 * Returns better-auth's sign-in response, whose cookies the route forwards.
 */
export async function acceptInvitation(
  deps: InvitationDeps,
  input: AcceptInvitation,
  origin: AuditEntry['origin'],
): Promise<{ redirectTo: string; twoFactorRequired: boolean; signIn: Response }> {
  const found = await usableInvitation(deps.db, input.token);
  const existing = await findUserByEmail(deps.db, found.email);
  const signIn = () => deps.auth.api.signInEmail({ body: { email: found.email, password: input.password }, asResponse: true });

  // The account as stored: its e-mail is lower-cased, whatever case the invitation was typed in.
  let account: { id: string; email: string };
  let response: Response | null = null;
  if (existing) {
    // Checking the account's password here is a sign-in like any other: throttled and audited.
    const attempt = await beginSignIn(deps.db, { email: existing.email, ip: origin?.ip ?? 'unknown' });
    if (attempt.delayMs > 0) await sleep(attempt.delayMs);
    response = await signIn();
    if (!response.ok) {
      await attempt.failed();
      await recordAudit(deps.db, {
        action: 'sign_in.failed',
        actor: null,
        subject: { id: existing.id, email: existing.email },
        origin,
        data: { reason: 'wrong password, accepting an invitation' },
      });
      throw invalidField('password', 'That is not the password of this account');
    }
    await attempt.succeeded();
    account = existing;
  } else {
    if (!input.name) throw invalidField('name', 'Enter your name');
    const verdict = checkPassword(input.password, { email: found.email, name: input.name, brandName: deps.brandName });
    if (!verdict.ok) throw invalidField('password', verdict.message);
    try {
      account = await createCredentialUser(deps.auth, { email: found.email, name: input.name, password: input.password });
    } catch (error) {
      // Another accept of the same invitation created the account a moment ago: single use, answered as such.
      if (isUniqueViolation(error)) throw new AppError('gone', 'This invitation has already been used');
      throw error;
    }
  }
  const userId = account.id;

  // Claiming and granting are one step: a used, withdrawn or expired invitation grants nothing.
  const claimed = await deps.db.transaction(async (tx) => {
    const row = await claimInvitation(tx, found.id, userId);
    if (!row) return null;
    await grantInvitedRole(tx, row, userId);
    await recordAudit(tx, {
      action: 'invitation.accepted',
      actor: { id: userId, email: account.email },
      teamId: row.teamId,
      origin,
      data: { role: row.role, newAccount: !existing },
    });
    return row;
  });
  if (!claimed) throw new AppError('gone', 'This invitation has already been used');

  response ??= await signIn();
  if (!response.ok) throw new Error(`Signing in after accepting an invitation failed with ${response.status}`);
  // An account with two-step verification gets its session only after a code.
  const body = (await response.clone().json()) as { twoFactorRedirect?: boolean } | null;
  if (existing && !body?.twoFactorRedirect) {
    await recordAudit(deps.db, {
      action: 'sign_in.succeeded',
      actor: { id: existing.id, email: existing.email },
      origin,
      data: { method: 'password, accepting an invitation' },
    });
  }
  return { redirectTo: homeOf(claimed), twoFactorRequired: body?.twoFactorRedirect === true, signIn: response };
}
