import { z } from 'zod';
import { TEAM_ROLES } from '../domain/access';
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

export const CreateTeamSchema = z.strictObject({ name: TeamName });
export type CreateTeam = z.infer<typeof CreateTeamSchema>;

export const UpdateTeamSchema = z
  .strictObject({ name: TeamName.optional(), accentColor: AccentColor.optional() })
  .refine((value) => value.name !== undefined || value.accentColor !== undefined, { error: 'Send a name or an accent colour' });
export type UpdateTeam = z.input<typeof UpdateTeamSchema>;

export const TeamRoleSchema = z.enum(TEAM_ROLES, { error: 'Use owner or assistant' });

/** A team as its members see it. `logoUrl` changes whenever the logo does. */
export const TeamSchema = z.object({
  id: z.string(),
  name: z.string(),
  accentColor: z.string(),
  logoUrl: z.string().nullable(),
  role: TeamRoleSchema,
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

export const TeamIdParamsSchema = z.object({ teamId: z.uuid({ error: 'Not a team id' }) });
