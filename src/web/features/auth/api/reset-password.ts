import type { ResetPassword } from '../../../../shared/schemas/password-reset';
import { apiFetch } from '../../../lib/api-client';

export function resetPassword(input: ResetPassword) {
  return apiFetch<unknown>('/api/auth/reset-password', { method: 'POST', body: input });
}
