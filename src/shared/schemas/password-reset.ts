import { z } from 'zod';
import { PasswordSchema } from './password';

export const RequestPasswordResetSchema = z.strictObject({
  email: z.string().trim().min(1, { error: 'Enter your email' }).pipe(z.email({ error: 'Enter a valid email address' })),
});

export const ResetPasswordSchema = z.strictObject({
  token: z.string().min(1, { error: 'This reset link is not valid' }),
  newPassword: PasswordSchema,
});
export type ResetPassword = z.infer<typeof ResetPasswordSchema>;
