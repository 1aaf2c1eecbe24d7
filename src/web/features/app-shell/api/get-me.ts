import type { Me } from '../../../../shared/schemas/me';
import { apiFetch } from '../../../lib/api-client';

export function getMe(signal?: AbortSignal) {
  return apiFetch<Me>('/api/me', { signal });
}
