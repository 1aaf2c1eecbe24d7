import type { Me, UpdateProfile } from '../../../../shared/schemas/me';
import { apiFetch } from '../../../lib/api-client';

export function updateProfile(input: UpdateProfile) {
  return apiFetch<Me>('/api/me', { method: 'PATCH', body: input });
}
