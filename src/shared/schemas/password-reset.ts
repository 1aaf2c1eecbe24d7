import { z } from 'zod';
import { PasswordSchema } from './password';
import { text } from './text';

export const RequestPasswordResetSchema = z.strictObject({
  email: text('Email')
    .trim()
    .min(1, { error: 'Enter your email' })
    .max(254, { error: 'Email must be at most 254 characters' })
    .pipe(z.email({ error: 'Enter a valid email address' })),
});

export const ResetPasswordSchema = z.strictObject({
  token: text('Reset token').min(1, { error: 'This reset link is not valid' }).max(200, { error: 'This reset link is not valid' }),
  newPassword: PasswordSchema,
});
export type ResetPassword = z.infer<typeof ResetPasswordSchema>;
