import { and, eq, gt, inArray, isNull, lte, sql } from 'drizzle-orm';
import type { TeamRole } from '../../shared/domain/access';
import type { Db } from '../db/client';
import { broker, invitation, platformAdmin, session, team, teamMember, user, type Invitation, type InvitationRole, type Team } from '../db/schema';

/*
 * People, the teams they belong to, and what they were granted: the
 * directory every feature may read (the access layer, sign-in, invitations,
 * teams, me). Features keep their own queries; what is about who someone is
 * and what they may do lives here.
 */

/** The team without its logo bytes. */
export const teamColumns = {
  id: team.id,
  name: team.name,
  accentColor: team.accentColor,
  logoSha256: team.logoSha256,
  dscrStrongCenti: team.dscrStrongCenti,
  dscrEligibleCenti: team.dscrEligibleCenti,
  timeZone: team.timeZone,
  createdAt: team.createdAt,
};
export type TeamSummary = Pick<Team, keyof typeof teamColumns>;

export async function findTeam(db: Db, teamId: string): Promise<TeamSummary | undefined> {
  const [row] = await db.select(teamColumns).from(team).where(eq(team.id, teamId));
  return row;
}

export async function findUserByEmail(db: Db, email: string) {
  const [row] = await db
    .select()
    .from(user)
    .where(eq(sql`lower(${user.email})`, email.toLowerCase()));
  return row;
}

/**
 * Locks a person's account row until the transaction ends, so two requests
 * that would each put them in a team (two tabs founding one, an accept racing
 * another) run one after the other and the second sees the first's team.
 */
export async function lockUser(db: Db, userId: string) {
  await db.select({ id: user.id }).from(user).where(eq(user.id, userId)).for('update');
}

/** The team a person belongs to, with their role, if any. */
export async function findTeamOfUser(db: Db, userId: string): Promise<(TeamSummary & { role: TeamRole }) | undefined> {
  const [row] = await db
    .select({ ...teamColumns, role: teamMember.role })
    .from(teamMember)
    .innerJoin(team, eq(team.id, teamMember.teamId))
    .where(eq(teamMember.userId, userId));
  return row;
}

/**
 * Everything the access table needs to know about one account, in one query
 * (also what `requiresMfa` asks about, for the rule that keeps an authenticator on).
 */
export async function grantsOf(db: Db, userId: string) {
  const [row] = await db
    .select({ admin: platformAdmin.userId, broker: broker.userId, teamId: teamMember.teamId, role: teamMember.role })
    .from(user)
    .leftJoin(platformAdmin, eq(platformAdmin.userId, user.id))
    .leftJoin(broker, eq(broker.userId, user.id))
    .leftJoin(teamMember, eq(teamMember.userId, user.id))
    .where(eq(user.id, userId));
  return {
    platformAdmin: Boolean(row?.admin),
    broker: Boolean(row?.broker),
    team: row?.teamId && row.role ? { id: row.teamId, role: row.role } : null,
  };
}

/**
 * A session by its token with its person and their grants, in one statement:
 * what the access layer reads on every request (auth/session-cookie.ts says
 * when it may, instead of asking better-auth). Undefined when no session has
 * that token.
 */
export async function principalOfSession(db: Db, token: string) {
  const [row] = await db
    .select({
      expiresAt: session.expiresAt,
      userId: user.id,
      email: user.email,
      name: user.name,
      twoFactorEnabled: user.twoFactorEnabled,
      admin: platformAdmin.userId,
      broker: broker.userId,
      teamId: teamMember.teamId,
      role: teamMember.role,
    })
    .from(session)
    .innerJoin(user, eq(user.id, session.userId))
    .leftJoin(platformAdmin, eq(platformAdmin.userId, user.id))
    .leftJoin(broker, eq(broker.userId, user.id))
    .leftJoin(teamMember, eq(teamMember.userId, user.id))
    .where(eq(session.token, token));
  if (!row) return undefined;
  return {
    expiresAt: row.expiresAt,
    user: { id: row.userId, email: row.email, name: row.name, twoFactorEnabled: row.twoFactorEnabled === true },
    grants: { platformAdmin: Boolean(row.admin), broker: Boolean(row.broker), team: row.teamId && row.role ? { id: row.teamId, role: row.role } : null },
  };
}

/**
 * Slides a session's expiry forward to `expiresAt` if it is still due to
 * (it ends after `now` and no later than `dueBy`), in one statement that never
 * waits: a request that finds the row locked by another one sliding it, or
 * already slid, writes nothing. So however many of one session's requests
 * arrive at once when it is due, one writes the row and none waits for it
 * (issue 23). The new end when this call slid it, else undefined.
 */
export async function slideSession(db: Db, token: string, { expiresAt, dueBy, now }: { expiresAt: Date; dueBy: Date; now: Date }) {
  const due = db
    .select({ id: session.id })
    .from(session)
    .where(and(eq(session.token, token), gt(session.expiresAt, now), lte(session.expiresAt, dueBy)))
    .for('update', { skipLocked: true });
  const [row] = await db.update(session).set({ expiresAt, updatedAt: now }).where(inArray(session.id, due)).returning({ expiresAt: session.expiresAt });
  return row?.expiresAt;
}

export async function grantPlatformAdmin(db: Db, userId: string) {
  await db.insert(platformAdmin).values({ userId }).onConflictDoNothing();
}

export async function grantBroker(db: Db, userId: string) {
  await db.insert(broker).values({ userId }).onConflictDoNothing();
}

export async function insertMember(db: Db, values: { teamId: string; userId: string; role: TeamRole }) {
  await db.insert(teamMember).values(values);
}

/** A person's display name (PATCH /api/me). */
export async function updateUserName(db: Db, userId: string, name: string) {
  await db.update(user).set({ name }).where(eq(user.id, userId));
}

/** A team member's work phone (null clears it). */
export async function updateMemberPhone(db: Db, teamId: string, userId: string, phone: string | null) {
  await db
    .update(teamMember)
    .set({ phone })
    .where(and(eq(teamMember.teamId, teamId), eq(teamMember.userId, userId)));
}

export async function findMemberPhone(db: Db, teamId: string, userId: string): Promise<string | null> {
  const [row] = await db
    .select({ phone: teamMember.phone })
    .from(teamMember)
    .where(and(eq(teamMember.teamId, teamId), eq(teamMember.userId, userId)));
  return row?.phone ?? null;
}

export async function insertInvitation(
  db: Db,
  values: { email: string; role: InvitationRole; teamId: string | null; loanId?: string | null; tokenHash: string; invitedBy: string | null; expiresAt: Date },
): Promise<Invitation> {
  const [row] = await db.insert(invitation).values(values).returning();
  if (!row) throw new Error('insertInvitation returned no row');
  return row;
}

export async function findInvitationByTokenHash(db: Db, tokenHash: string): Promise<Invitation | undefined> {
  const [row] = await db.select().from(invitation).where(eq(invitation.tokenHash, tokenHash));
  return row;
}

/** Marks the invitation used, once: null when it was used, withdrawn or has expired meanwhile. */
export async function claimInvitation(db: Db, id: string, userId: string): Promise<Invitation | null> {
  const [row] = await db
    .update(invitation)
    .set({ acceptedAt: sql`now()`, acceptedBy: userId })
    .where(and(eq(invitation.id, id), isNull(invitation.acceptedAt), isNull(invitation.revokedAt), gt(invitation.expiresAt, sql`now()`)))
    .returning();
  return row ?? null;
}
