import type { SignedInPrincipal } from '../../shared/domain/access';
import { toMyLoanCard } from '../../shared/domain/borrower-view';
import { formatPropertyAddress } from '../../shared/domain/loan-fields';
import { AppError } from '../../shared/errors';
import type { InviteParticipant, LoanInvitationView, LoanParticipants, MyLoans } from '../../shared/schemas/participants';
import { findTeam } from '../accounts/accounts.queries';
import { createInvitationIn } from '../accounts/invitations';
import type { AppContext } from '../app-context';
import { recordAudit, type AuditEntry } from '../audit/audit';
import { recordActivity } from '../activity/activity-log';
import { unreadCommentCounts } from '../comments/unread-counts';
import type { Db } from '../db/client';
import type { LoanParticipantRole } from '../../shared/domain/access';
import { logoPath } from '../teams/logo';
import { teamMailBrand } from '../teams/team-brand';
import * as loans from './loans.queries';
import * as q from './participants.queries';

export type ParticipantDeps = Pick<AppContext, 'db' | 'publicUrl' | 'brandName'>;
type Origin = AuditEntry['origin'];

const actorOf = (principal: SignedInPrincipal) => ({ id: principal.userId, email: principal.email });

/** A loan has this many open invitations at most: a brake on a compromised account mailing strangers. */
export const MAX_OPEN_LOAN_INVITATIONS = 20;

async function mustFindLoan(db: Db, loanId: string, { lock = false } = {}) {
  const row = lock ? await loans.lockLoan(db, loanId) : await loans.findLoan(db, loanId);
  if (!row) throw new AppError('not_found', 'This loan does not exist');
  return row;
}

const invitationView = (row: { id: string; email: string; role: string; createdAt: Date; expiresAt: Date }, now = Date.now()): LoanInvitationView => ({
  id: row.id,
  email: row.email,
  role: row.role as LoanParticipantRole,
  createdAt: row.createdAt.toISOString(),
  expiresAt: row.expiresAt.toISOString(),
  expired: row.expiresAt.getTime() <= now,
});

/** The loan's borrowers and co-borrowers, and the invitations nobody has used or withdrawn yet. */
export async function listLoanParticipants(deps: ParticipantDeps, loanId: string): Promise<LoanParticipants> {
  const [participants, invitations] = await Promise.all([q.listParticipants(deps.db, loanId), q.listOpenLoanInvitations(deps.db, loanId)]);
  const now = Date.now();
  return {
    participants: participants.map((p) => ({ ...p, joinedAt: p.joinedAt.toISOString() })),
    invitations: invitations.map((i) => invitationView(i, now)),
  };
}

/**
 * Invites a borrower or co-borrower to the loan: a single-use 7-day link
 * (only its hash stored), mailed in the team's branding. Inviting the same
 * address again withdraws the earlier link. The stage is left as it is:
 * moving to "Borrower invited" stays the team's choice.
 */
export async function inviteParticipant(
  deps: ParticipantDeps,
  principal: SignedInPrincipal,
  loanId: string,
  input: InviteParticipant,
  origin: Origin,
): Promise<LoanInvitationView> {
  return deps.db.transaction(async (tx) => {
    const row = await mustFindLoan(tx, loanId, { lock: true });
    const team = await findTeam(tx, row.teamId);
    if (!team) throw new AppError('not_found', 'This loan does not exist');
    if (await loans.findTeamMemberByEmail(tx, row.teamId, input.email)) {
      throw new AppError('conflict', `${input.email} is a member of ${team.name} and sees this loan already`);
    }
    if (await q.findParticipantByEmail(tx, loanId, input.email)) throw new AppError('conflict', `${input.email} is on this loan already`);
    const withdrawn = await q.revokeLoanInvitations(tx, loanId, { email: input.email });
    for (const old of withdrawn) {
      await recordAudit(tx, {
        action: 'invitation.revoked',
        actor: actorOf(principal),
        subject: { id: null, email: old.email },
        teamId: row.teamId,
        origin,
        data: { loanId, reason: 'sent again' },
      });
    }
    if ((await q.countOpenLoanInvitations(tx, loanId)) >= MAX_OPEN_LOAN_INVITATIONS) {
      throw new AppError('conflict', `This loan already has ${MAX_OPEN_LOAN_INVITATIONS} open invitations; withdraw some first`);
    }
    const property = formatPropertyAddress(row);
    const { invitation } = await createInvitationIn(tx, deps, {
      email: input.email,
      role: input.role,
      inviter: actorOf(principal),
      origin,
      team: { id: row.teamId, name: team.name, inviterName: principal.name, brand: teamMailBrand(team, deps.publicUrl) },
      loan: { id: loanId, property },
    });
    await recordActivity(tx, loanId, {
      actorId: principal.userId,
      kind: 'participant.invited',
      visibility: 'internal',
      data: { email: invitation.email, role: input.role, ...(withdrawn.length > 0 ? { again: true } : {}) },
    });
    return invitationView(invitation);
  });
}

/** Withdraws an open invitation to the loan: its link stops working at once. */
export async function withdrawInvitation(deps: ParticipantDeps, principal: SignedInPrincipal, loanId: string, invitationId: string, origin: Origin) {
  await deps.db.transaction(async (tx) => {
    const row = await mustFindLoan(tx, loanId);
    const [revoked] = await q.revokeLoanInvitations(tx, loanId, { id: invitationId });
    if (!revoked) throw new AppError('not_found', 'No open invitation with this id on this loan');
    await recordAudit(tx, {
      action: 'invitation.revoked',
      actor: actorOf(principal),
      subject: { id: null, email: revoked.email },
      teamId: row.teamId,
      origin,
      data: { loanId },
    });
    await recordActivity(tx, loanId, {
      actorId: principal.userId,
      kind: 'participant.invitation_withdrawn',
      visibility: 'internal',
      data: { email: revoked.email, role: revoked.role },
    });
  });
}

/**
 * Takes a borrower or co-borrower off the loan. The access layer reads
 * loan_participant on every request, so their next request is a 404.
 */
export async function removeParticipant(deps: ParticipantDeps, principal: SignedInPrincipal, loanId: string, userId: string, origin: Origin) {
  await deps.db.transaction(async (tx) => {
    const row = await mustFindLoan(tx, loanId, { lock: true });
    const participant = await q.findParticipant(tx, loanId, userId);
    if (!participant) throw new AppError('not_found', 'No borrower with this id on this loan');
    await q.deleteParticipant(tx, loanId, userId);
    await recordActivity(tx, loanId, {
      actorId: principal.userId,
      kind: 'participant.removed',
      visibility: 'internal',
      data: { name: participant.name, email: participant.email, role: participant.role },
    });
    await recordAudit(tx, {
      action: 'participant.removed',
      actor: actorOf(principal),
      subject: { id: participant.userId, email: participant.email },
      teamId: row.teamId,
      origin,
      data: { loanId, role: participant.role, property: formatPropertyAddress(row) },
    });
  });
}

/** The caller's loans as a borrower or co-borrower, possibly of several teams, each a card in its team's branding. */
export async function myLoans(deps: Pick<ParticipantDeps, 'db'>, principal: SignedInPrincipal): Promise<MyLoans> {
  const rows = await q.loansOfParticipant(deps.db, principal.userId);
  // As a borrower on each of them: shared comments only, even for a team member who borrows on another team's loan.
  const unread = await unreadCommentCounts(deps.db, { userId: principal.userId, audience: 'borrowers', loanIds: rows.map((row) => row.loan.id) });
  const now = new Date();
  return {
    loans: rows.map(({ loan, role, team }) =>
      toMyLoanCard(
        {
          loan,
          role,
          team: { name: team.name, accentColor: team.accentColor, logoUrl: logoPath(team.id, team.logoSha256) },
          unreadComments: unread.get(loan.id) ?? 0,
        },
        now,
      ),
    ),
  };
}
