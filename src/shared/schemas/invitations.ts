import { z } from 'zod';
import { PasswordSchema } from './password';
import { text } from './text';

/** Invitation tokens are 32 random bytes, base64url: 43 characters. */
const InvitationToken = z.string({ error: 'The invitation token is missing' }).regex(/^[A-Za-z0-9_-]{43}$/, { error: 'This invitation link is not valid' });

export const LookupInvitationSchema = z.strictObject({ token: InvitationToken });

export const InvitationSummarySchema = z.object({
  email: z.string(),
  role: z.enum(['platform_admin', 'broker', 'assistant', 'borrower', 'co_borrower']),
  /** The team an assistant is invited to join, or whose loan a borrower is invited to follow. */
  teamName: z.string().nullable(),
  /** For a borrower or co-borrower: the loan's property address. */
  loanProperty: z.string().nullable(),
  expiresAt: z.string(),
  /** The address already has an account: accepting asks for its password instead of a new one. */
  hasAccount: z.boolean(),
});
export type InvitationSummary = z.infer<typeof InvitationSummarySchema>;

export const AcceptInvitationSchema = z.strictObject({
  token: InvitationToken,
  /** Required for a new account; ignored when the address already has one. */
  name: text('Name').trim().min(1, { error: 'Enter your name' }).max(120, { error: 'Use at most 120 characters' }).optional(),
  password: PasswordSchema,
});
export type AcceptInvitation = z.infer<typeof AcceptInvitationSchema>;

export const AcceptInvitationResultSchema = z.object({
  redirectTo: z.string(),
  /** The account has two-step verification: enter a code to finish signing in. */
  twoFactorRequired: z.boolean(),
});
export type AcceptInvitationResult = z.infer<typeof AcceptInvitationResultSchema>;

export const InviteAdminSchema = z.object({
  email: text('Email')
    .max(254)
    .pipe(z.email({ error: 'Enter a valid email address' })),
});
