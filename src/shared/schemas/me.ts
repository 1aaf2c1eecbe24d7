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
  /** A team member's work phone (shown to the borrowers of loans assigned to them); null outside a team or when not given. */
  workPhone: z.string().nullable(),
  /** How many loans this person follows as a borrower or co-borrower: the app shows them "My loans" when there are any. */
  participantLoans: z.number().int().min(0),
  /** When the session ends unless it is refreshed (ISO 8601). */
  sessionExpiresAt: z.string(),
});
export type Me = z.infer<typeof MeSchema>;

/** A work phone as people write it: digits, spaces, + ( ) . - ; empty clears it. */
export const WorkPhoneSchema = text('Work phone')
  .trim()
  .max(40, { error: 'Work phone must be at most 40 characters' })
  .refine((value) => value === '' || (/^[+0-9 ().-]{7,40}$/.test(value) && (value.match(/\d/g) ?? []).length >= 7), {
    error: 'Enter a phone number like (512) 555-0100',
  })
  .transform((value) => (value === '' ? null : value));

export const UpdateProfileSchema = z.strictObject({
  name: text('Name').trim().min(1, { error: 'Name is required' }).max(120, { error: 'Name must be at most 120 characters' }),
  /** Team members only: the work phone borrowers see on the loans assigned to them. */
  phone: WorkPhoneSchema.nullable().optional(),
});
export type UpdateProfile = z.infer<typeof UpdateProfileSchema>;
