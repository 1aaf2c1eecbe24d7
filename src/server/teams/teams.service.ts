import type { z } from 'zod';
import type { SignedInPrincipal, TeamRole } from '../../shared/domain/access';
import { AppError, invalidField } from '../../shared/errors';
import { LOGO_MAX_BYTES, type CreateTeam, type TeamMembers, type TeamView, type UpdateTeamSchema } from '../../shared/schemas/teams';
import { recordAudit, type AuditEntry } from '../audit/audit';
import type { Db } from '../db/client';
import { releaseAssignments } from '../accounts/assignments';
import { createInvitationIn } from '../accounts/invitations';
import * as accounts from '../accounts/accounts.queries';
import { logoVersion, sniffLogoType } from './logo';
import { teamView } from './team-view';
import { teamMailBrand } from './team-brand';
import * as q from './teams.queries';

export interface TeamDeps {
  db: Db;
  publicUrl: string;
  brandName: string;
}

type Origin = AuditEntry['origin'];
type UpdateTeamInput = z.output<typeof UpdateTeamSchema>;

const actorOf = (principal: SignedInPrincipal) => ({ id: principal.userId, email: principal.email });

const mustFindTeam = async (db: Db, teamId: string) => {
  const found = await accounts.findTeam(db, teamId);
  // The access layer let the caller in, so the team exists; a race with its deletion reads as gone.
  if (!found) throw new AppError('not_found', 'This team does not exist');
  return found;
};

/** A broker founds their team and becomes its owner. One team per person. */
export async function createTeam(deps: TeamDeps, principal: SignedInPrincipal, input: CreateTeam, origin: Origin): Promise<TeamView> {
  return deps.db.transaction(async (tx) => {
    await accounts.lockUser(tx, principal.userId);
    const current = await accounts.findTeamOfUser(tx, principal.userId);
    if (current) throw new AppError('conflict', `You already belong to ${current.name}`);
    const created = await q.insertTeam(tx, { name: input.name, createdBy: principal.userId });
    await accounts.insertMember(tx, { teamId: created.id, userId: principal.userId, role: 'owner' });
    await recordAudit(tx, { action: 'team.created', actor: actorOf(principal), teamId: created.id, origin, data: { name: created.name } });
    return teamView(created, 'owner');
  });
}

export async function getTeam(deps: TeamDeps, principal: SignedInPrincipal, teamId: string): Promise<TeamView> {
  const found = await mustFindTeam(deps.db, teamId);
  return teamView(found, principal.team?.role ?? 'assistant');
}

export async function updateBranding(deps: TeamDeps, principal: SignedInPrincipal, teamId: string, input: UpdateTeamInput, origin: Origin): Promise<TeamView> {
  return deps.db.transaction(async (tx) => {
    const values = {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.accentColor !== undefined ? { accentColor: input.accentColor } : {}),
      ...(input.dscrStrong !== undefined ? { dscrStrongCenti: Math.round(input.dscrStrong * 100) } : {}),
      ...(input.dscrEligible !== undefined ? { dscrEligibleCenti: Math.round(input.dscrEligible * 100) } : {}),
      ...(input.timeZone !== undefined ? { timeZone: input.timeZone } : {}),
    };
    if (values.dscrStrongCenti !== undefined || values.dscrEligibleCenti !== undefined) {
      // One threshold may change alone: checked against the stored other, with the row locked so two owners cannot cross them.
      const stored = await q.lockTeamThresholds(tx, teamId);
      const strong = values.dscrStrongCenti ?? stored.dscrStrongCenti;
      const eligible = values.dscrEligibleCenti ?? stored.dscrEligibleCenti;
      if (eligible > strong) throw invalidField('dscrEligible', `Eligible can’t be above Strong (${(strong / 100).toFixed(2)})`);
    }
    const updated = await q.updateTeam(tx, teamId, values);
    const { dscrStrongCenti, dscrEligibleCenti, ...branding } = values;
    const data = {
      ...branding,
      ...(dscrStrongCenti !== undefined ? { dscrStrong: dscrStrongCenti / 100 } : {}),
      ...(dscrEligibleCenti !== undefined ? { dscrEligible: dscrEligibleCenti / 100 } : {}),
    };
    await recordAudit(tx, { action: 'team.branding_updated', actor: actorOf(principal), teamId, origin, data });
    return teamView(updated, 'owner');
  });
}

/** Replaces the logo with an image whose bytes are checked, not its declared type. */
export async function setLogo(deps: TeamDeps, principal: SignedInPrincipal, teamId: string, bytes: Buffer, origin: Origin): Promise<TeamView> {
  if (bytes.length === 0) throw invalidField('logo', 'Choose an image file');
  if (bytes.length > LOGO_MAX_BYTES) throw new AppError('payload_too_large', `The logo must be at most ${LOGO_MAX_BYTES / 1024} KB`);
  const type = sniffLogoType(bytes);
  if (!type) throw new AppError('unsupported_media_type', 'The logo must be a PNG, JPEG or WebP image');
  return deps.db.transaction(async (tx) => {
    const sha256 = logoVersion(bytes);
    const updated = await q.setTeamLogo(tx, teamId, { bytes, type, sha256 });
    await recordAudit(tx, { action: 'team.branding_updated', actor: actorOf(principal), teamId, origin, data: { logo: `${type}, ${bytes.length} bytes` } });
    return teamView(updated, 'owner');
  });
}

export async function removeLogo(deps: TeamDeps, principal: SignedInPrincipal, teamId: string, origin: Origin): Promise<TeamView> {
  return deps.db.transaction(async (tx) => {
    const updated = await q.setTeamLogo(tx, teamId, null);
    await recordAudit(tx, { action: 'team.branding_updated', actor: actorOf(principal), teamId, origin, data: { logo: 'removed' } });
    return teamView(updated, 'owner');
  });
}

/** The members, and for owners (who manage them) the open invitations. */
export async function listTeamMembers(deps: TeamDeps, teamId: string, callerRole: TeamRole): Promise<TeamMembers> {
  const members = await q.listMembers(deps.db, teamId);
  const invitations = callerRole === 'owner' ? await q.listOpenTeamInvitations(deps.db, teamId) : [];
  const now = Date.now();
  return {
    members: members.map((m) => ({ ...m, mfaEnrolled: m.mfaEnrolled === true, joinedAt: m.joinedAt.toISOString() })),
    invitations: invitations.map((i) => ({
      id: i.id,
      email: i.email,
      createdAt: i.createdAt.toISOString(),
      expiresAt: i.expiresAt.toISOString(),
      expired: i.expiresAt.getTime() <= now,
    })),
  };
}

/** A team has this many open invitations at most: a brake on a compromised owner account spamming addresses. */
export const MAX_OPEN_TEAM_INVITATIONS = 50;

/**
 * Invites an assistant by e-mail. Inviting the same address again withdraws
 * the earlier link and sends a fresh one.
 */
export async function inviteAssistant(deps: TeamDeps, principal: SignedInPrincipal, teamId: string, email: string, origin: Origin) {
  return deps.db.transaction(async (tx) => {
    const found = await mustFindTeam(tx, teamId);
    const members = await q.listMembers(tx, teamId);
    if (members.some((m) => m.email.toLowerCase() === email.toLowerCase())) throw new AppError('conflict', `${email} is already a member of ${found.name}`);
    for (const withdrawn of await q.revokeTeamInvitations(tx, teamId, { email })) {
      await recordAudit(tx, {
        action: 'invitation.revoked',
        actor: actorOf(principal),
        subject: { id: null, email: withdrawn.email },
        teamId,
        origin,
        data: { reason: 'sent again' },
      });
    }
    if ((await q.countOpenTeamInvitations(tx, teamId)) >= MAX_OPEN_TEAM_INVITATIONS) {
      throw new AppError('conflict', `${found.name} already has ${MAX_OPEN_TEAM_INVITATIONS} open invitations; withdraw some first`);
    }
    const { invitation } = await createInvitationIn(tx, deps, {
      email,
      role: 'assistant',
      inviter: actorOf(principal),
      origin,
      team: { id: teamId, name: found.name, inviterName: principal.name, brand: teamMailBrand(found, deps.publicUrl) },
    });
    return {
      id: invitation.id,
      email: invitation.email,
      createdAt: invitation.createdAt.toISOString(),
      expiresAt: invitation.expiresAt.toISOString(),
      expired: false,
    };
  });
}

export async function revokeInvitation(deps: TeamDeps, principal: SignedInPrincipal, teamId: string, invitationId: string, origin: Origin) {
  await deps.db.transaction(async (tx) => {
    const [revoked] = await q.revokeTeamInvitations(tx, teamId, { id: invitationId });
    if (!revoked) throw new AppError('not_found', 'No open invitation with this id in your team');
    await recordAudit(tx, { action: 'invitation.revoked', actor: actorOf(principal), subject: { id: null, email: revoked.email }, teamId, origin });
  });
}

const LAST_OWNER = 'A team needs at least one owner: make someone else an owner first';

export async function changeRole(deps: TeamDeps, principal: SignedInPrincipal, teamId: string, userId: string, role: TeamRole, origin: Origin) {
  await deps.db.transaction(async (tx) => {
    const owners = await q.lockOwners(tx, teamId);
    const member = await q.findMember(tx, teamId, userId);
    if (!member) throw new AppError('not_found', 'No member with this id in your team');
    if (member.role === role) return;
    if (member.role === 'owner' && owners <= 1) throw new AppError('conflict', LAST_OWNER);
    await q.updateMemberRole(tx, teamId, userId, role);
    await recordAudit(tx, {
      action: 'member.role_changed',
      actor: actorOf(principal),
      subject: { id: member.userId, email: member.email },
      teamId,
      origin,
      data: { from: member.role, to: role },
    });
  });
}

/**
 * Removes a member. Access is checked on every request, so their open sessions
 * lose the team at once. In the same transaction the loans assigned to them go
 * to `handOverTo` (another member) or to nobody, so no mail about them is
 * queued to the person who left (and one already queued is not sent: the mail
 * job checks membership when it sends, decision 021).
 */
export async function removeMember(
  deps: TeamDeps,
  principal: SignedInPrincipal,
  teamId: string,
  userId: string,
  origin: Origin,
  { handOverTo }: { handOverTo?: string | undefined } = {},
) {
  await deps.db.transaction(async (tx) => {
    const owners = await q.lockOwners(tx, teamId);
    const member = await q.findMember(tx, teamId, userId);
    if (!member) throw new AppError('not_found', 'No member with this id in your team');
    if (member.role === 'owner' && owners <= 1) throw new AppError('conflict', LAST_OWNER);
    const heir = handOverTo === undefined ? null : handOverTo === userId ? undefined : await q.findMember(tx, teamId, handOverTo);
    if (heir === undefined) throw invalidField('handOverTo', 'Choose another member of your team to take over their loans');
    await q.deleteMember(tx, teamId, userId);
    const handedOver = await releaseAssignments(tx, { teamId, userId, to: heir && { id: heir.userId, name: heir.name }, by: principal.userId });
    await recordAudit(tx, {
      action: 'member.removed',
      actor: actorOf(principal),
      subject: { id: member.userId, email: member.email },
      teamId,
      origin,
      data: { role: member.role, ...(handedOver > 0 ? { loans: handedOver, ...(heir ? { handedOverTo: heir.userId } : {}) } : {}) },
    });
  });
}
