import { z } from 'zod';
import { TeamSchema } from './teams';
import { text } from './text';

/** The signed-in person, as the app shell needs them. */
export const MeSchema = z.object({
  user: z.object({ id: z.string(), name: z.string(), email: z.string() }),
  platformAdmin: z.boolean(),
  /** Invited as a broker: may found a team. */
  broker: z.boolean(),
  mfaEnrolled: z.boolean(),
  /** Team data stays closed until an authenticator is enrolled. */
  mustEnrolMfa: z.boolean(),
  team: TeamSchema.nullable(),
  /** When the session ends unless it is refreshed (ISO 8601). */
  sessionExpiresAt: z.string(),
});
export type Me = z.infer<typeof MeSchema>;

export const UpdateProfileSchema = z.strictObject({
  name: text('Name').trim().min(1, { error: 'Name is required' }).max(120, { error: 'Name must be at most 120 characters' }),
});
export type UpdateProfile = z.infer<typeof UpdateProfileSchema>;
