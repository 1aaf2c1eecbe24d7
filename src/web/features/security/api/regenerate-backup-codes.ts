import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

/** Replaces every backup code with ten new ones. */
export function regenerateBackupCodes(password: string) {
  return apiFetch<{ backupCodes: string[] }>('/api/auth/two-factor/generate-backup-codes', { method: 'POST', body: { password } });
}

export function useRegenerateBackupCodes() {
  return useMutation({ mutationFn: regenerateBackupCodes });
}
