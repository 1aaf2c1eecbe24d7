import { and, asc, count, eq, gt, isNull, sql } from 'drizzle-orm';
import type { TeamRole } from '../../shared/domain/access';
import type { Db } from '../db/client';
import { invitation, team, teamMember, user } from '../db/schema';
import { teamColumns, type TeamSummary } from '../accounts/accounts.queries';

export async function insertTeam(db: Db, values: { name: string; createdBy: string }): Promise<TeamSummary> {
  const [row] = await db.insert(team).values(values).returning(teamColumns);
  if (!row) throw new Error('insertTeam returned no row');
  return row;
}

export async function updateTeam(
  db: Db,
  teamId: string,
  values: { name?: string; accentColor?: string; dscrStrongCenti?: number; dscrEligibleCenti?: number; timeZone?: string },
): Promise<TeamSummary> {
  const [row] = await db.update(team).set(values).where(eq(team.id, teamId)).returning(teamColumns);
  if (!row) throw new Error(`updateTeam: no team ${teamId}`);
  return row;
}

/** The team's DSCR thresholds, its row locked until the transaction ends. */
export async function lockTeamThresholds(db: Db, teamId: string) {
  const [row] = await db
    .select({ dscrStrongCenti: team.dscrStrongCenti, dscrEligibleCenti: team.dscrEligibleCenti })
    .from(team)
    .where(eq(team.id, teamId))
    .for('update');
  if (!row) throw new Error(`lockTeamThresholds: no team ${teamId}`);
  return row;
}

export async function setTeamLogo(db: Db, teamId: string, logo: { bytes: Buffer; type: string; sha256: string } | null): Promise<TeamSummary> {
  const [row] = await db
    .update(team)
    .set(logo ? { logo: logo.bytes, logoType: logo.type, logoSha256: logo.sha256 } : { logo: null, logoType: null, logoSha256: null })
    .where(eq(team.id, teamId))
    .returning(teamColumns);
  if (!row) throw new Error(`setTeamLogo: no team ${teamId}`);
  return row;
}

export async function findTeamLogo(db: Db, teamId: string) {
  const [row] = await db.select({ logo: team.logo, logoType: team.logoType, logoSha256: team.logoSha256 }).from(team).where(eq(team.id, teamId));
  return row?.logo && row.logoType && row.logoSha256 ? { bytes: row.logo, type: row.logoType, sha256: row.logoSha256 } : null;
}

export async function listMembers(db: Db, teamId: string) {
  return db
    .select({ userId: user.id, name: user.name, email: user.email, role: teamMember.role, mfaEnrolled: user.twoFactorEnabled, joinedAt: teamMember.createdAt })
    .from(teamMember)
    .innerJoin(user, eq(user.id, teamMember.userId))
    .where(eq(teamMember.teamId, teamId))
    .orderBy(asc(teamMember.createdAt), asc(user.name));
}

export async function findMember(db: Db, teamId: string, userId: string) {
  const [row] = await db
    .select({ userId: user.id, email: user.email, name: user.name, role: teamMember.role })
    .from(teamMember)
    .innerJoin(user, eq(user.id, teamMember.userId))
    .where(and(eq(teamMember.teamId, teamId), eq(teamMember.userId, userId)));
  return row;
}

/** Locks the team's owner rows, so two owners demoting each other cannot leave the team without one. */
export async function lockOwners(db: Db, teamId: string): Promise<number> {
  const rows = await db
    .select({ userId: teamMember.userId })
    .from(teamMember)
    .where(and(eq(teamMember.teamId, teamId), eq(teamMember.role, 'owner')))
    .for('update');
  return rows.length;
}

export async function updateMemberRole(db: Db, teamId: string, userId: string, role: TeamRole) {
  await db
    .update(teamMember)
    .set({ role })
    .where(and(eq(teamMember.teamId, teamId), eq(teamMember.userId, userId)));
}

export async function deleteMember(db: Db, teamId: string, userId: string) {
  await db.delete(teamMember).where(and(eq(teamMember.teamId, teamId), eq(teamMember.userId, userId)));
}

/** Invitations to the team that nobody has used or withdrawn, newest first. */
export async function listOpenTeamInvitations(db: Db, teamId: string) {
  return db
    .select({ id: invitation.id, email: invitation.email, expiresAt: invitation.expiresAt, createdAt: invitation.createdAt })
    .from(invitation)
    .where(and(eq(invitation.teamId, teamId), isNull(invitation.acceptedAt), isNull(invitation.revokedAt)))
    .orderBy(sql`${invitation.createdAt} desc`);
}

/** Withdraws open invitations of the team: one by id, or every one to an address. Returns what it withdrew. */
export async function revokeTeamInvitations(db: Db, teamId: string, which: { id: string } | { email: string }) {
  return db
    .update(invitation)
    .set({ revokedAt: sql`now()` })
    .where(
      and(
        eq(invitation.teamId, teamId),
        isNull(invitation.acceptedAt),
        isNull(invitation.revokedAt),
        'id' in which ? eq(invitation.id, which.id) : eq(sql`lower(${invitation.email})`, which.email.toLowerCase()),
      ),
    )
    .returning({ id: invitation.id, email: invitation.email });
}

export async function countOpenTeamInvitations(db: Db, teamId: string) {
  const [row] = await db
    .select({ n: count() })
    .from(invitation)
    .where(and(eq(invitation.teamId, teamId), isNull(invitation.acceptedAt), isNull(invitation.revokedAt), gt(invitation.expiresAt, sql`now()`)));
  return row?.n ?? 0;
}
