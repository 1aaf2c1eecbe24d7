import type { JoinWaitlistInput, JoinWaitlistResult } from '../../../../shared/schemas/waitlist';
import { apiFetch } from '../../../lib/api-client';

export function joinWaitlist(input: JoinWaitlistInput): Promise<JoinWaitlistResult> {
  return apiFetch<JoinWaitlistResult>('/api/waitlist', { method: 'POST', body: input });
}
