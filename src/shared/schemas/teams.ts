import { z } from 'zod';
import { TEAM_ROLES } from '../domain/access';
import { TimeZoneSchema } from './reminders';
import { text } from './text';

export const TEAM_NAME_MAX = 80;
/** Logos are shown small; 256 KB is plenty for a crisp PNG, JPEG or WebP. */
export const LOGO_MAX_BYTES = 256 * 1024;
export const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export type LogoType = (typeof LOGO_TYPES)[number];
export const DEFAULT_ACCENT_COLOR = '#1d4ed8';

const TeamName = text('Team name')
  .trim()
  .min(1, { error: 'Team name is required' })
  .max(TEAM_NAME_MAX, { error: `Team name must be at most ${TEAM_NAME_MAX} characters` });

const AccentColor = text('Accent colour')
  .trim()
  .regex(/^#[0-9a-fA-F]{6}$/, { error: `Use a colour like ${DEFAULT_ACCENT_COLOR}` })
  .transform((value) => value.toLowerCase());

const Email = text('Email')
  .trim()
  .min(1, { error: 'Email is required' })
  .max(254, { error: 'Email must be at most 254 characters' })
  .pipe(z.email({ error: 'Enter a valid email address' }));

/** A DSCR band threshold, with DscrThresholdsSchema's bounds (0.50–3.00, 2 decimals). */
const DscrThreshold = (label: string) =>
  z
    .number({ error: `${label} threshold must be a number` })
    .min(0.5, { error: `${label} threshold must be at least 0.50` })
    .max(3, { error: `${label} threshold must be at most 3.00` })
    .multipleOf(0.01, { error: `${label} threshold takes at most 2 decimals` });

export const CreateTeamSchema = z.strictObject({ name: TeamName });
export type CreateTeam = z.infer<typeof CreateTeamSchema>;

/**
 * PATCH /api/teams/:teamId (owners): the name, the accent colour, and the
 * DSCR bands' thresholds (inclusive, to 2 decimals), checked like
 * DscrThresholdsSchema against each other once merged with the stored ones.
 */
export const UpdateTeamSchema = z
  .strictObject({
    name: TeamName.optional(),
    accentColor: AccentColor.optional(),
    dscrStrong: DscrThreshold('Strong').optional(),
    dscrEligible: DscrThreshold('Eligible').optional(),
    /** The IANA zone whose weekdays and office hours reminders keep. */
    timeZone: TimeZoneSchema.optional(),
  })
  .refine((value) => Object.values(value).some((field) => field !== undefined), { error: 'Send a name, an accent colour, DSCR thresholds or a time zone' })
  .refine((value) => value.dscrStrong === undefined || value.dscrEligible === undefined || value.dscrEligible <= value.dscrStrong, {
    error: 'Eligible can’t be above Strong',
    path: ['dscrEligible'],
  });
export type UpdateTeam = z.input<typeof UpdateTeamSchema>;

export const TeamRoleSchema = z.enum(TEAM_ROLES, { error: 'Use owner or assistant' });

/** A team as its members see it. `logoUrl` changes whenever the logo does. */
export const TeamSchema = z.object({
  id: z.string(),
  name: z.string(),
  accentColor: z.string(),
  logoUrl: z.string().nullable(),
  role: TeamRoleSchema,
  /** The DSCR bands (inclusive): Strong at ≥ strong, Eligible at ≥ eligible, No-ratio below. */
  dscrThresholds: z.object({ strong: z.number(), eligible: z.number() }),
  /** The IANA zone reminders keep office hours in. */
  timeZone: z.string(),
});
export type TeamView = z.infer<typeof TeamSchema>;

export const TeamMemberSchema = z.object({
  userId: z.string(),
  name: z.string(),
  email: z.string(),
  role: TeamRoleSchema,
  mfaEnrolled: z.boolean(),
  joinedAt: z.string(),
});
export type TeamMemberView = z.infer<typeof TeamMemberSchema>;

export const PendingInvitationSchema = z.object({
  id: z.string(),
  email: z.string(),
  expiresAt: z.string(),
  createdAt: z.string(),
  expired: z.boolean(),
});
export type PendingInvitation = z.infer<typeof PendingInvitationSchema>;

export const TeamMembersSchema = z.object({
  members: z.array(TeamMemberSchema),
  invitations: z.array(PendingInvitationSchema),
});
export type TeamMembers = z.infer<typeof TeamMembersSchema>;

export const InviteAssistantSchema = z.strictObject({ email: Email });
export type InviteAssistant = z.infer<typeof InviteAssistantSchema>;

export const ChangeRoleSchema = z.strictObject({ role: TeamRoleSchema });
export type ChangeRole = z.infer<typeof ChangeRoleSchema>;

/**
 * `DELETE /api/teams/:teamId/members/:userId` may name another member to hand
 * the leaving member's loans to; without one (or without a body) they are left
 * unassigned.
 */
export const RemoveMemberSchema = z.strictObject({
  handOverTo: z
    .string({ error: 'Choose a member of your team' })
    .min(1, { error: 'Choose a member of your team' })
    .max(64, { error: 'Not a member id' })
    .optional(),
});
export type RemoveMember = z.infer<typeof RemoveMemberSchema>;

export const TeamIdParamsSchema = z.object({ teamId: z.uuid({ error: 'Not a team id' }) });
