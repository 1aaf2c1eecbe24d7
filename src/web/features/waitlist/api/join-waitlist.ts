import type { JoinWaitlistInput, JoinWaitlistResult } from '../../../../shared/schemas/waitlist';
import { apiFetch } from '../../../lib/api-client';

export const JOIN_WAITLIST_PATH = '/api/waitlist';

export function joinWaitlist(input: JoinWaitlistInput, signal?: AbortSignal): Promise<JoinWaitlistResult> {
  return apiFetch<JoinWaitlistResult>(JOIN_WAITLIST_PATH, { method: 'POST', body: input, signal });
}
