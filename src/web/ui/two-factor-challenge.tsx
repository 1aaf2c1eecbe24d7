import { useState, type FormEvent } from 'react';
import { ApiError } from '../lib/api-client';
import { verifyBackupCode } from '../lib/api/verify-backup-code';
import { verifyTotp } from '../lib/api/verify-totp';
import { AuthenticatorCodeField } from './authenticator-code-field';
import { Button } from './button';
import { TextField } from './field';
import { Spinner } from './spinner';
import { useErrorNotice } from './toast';

/** better-auth's codes for a challenge that can no longer be answered: start the sign-in again. */
const RESTART_CODES = new Set(['INVALID_TWO_FACTOR_COOKIE', 'TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE']);
/** The server's code for a right code that was used already (each code works once). */
const REUSED_CODES = new Set(['CODE_REUSED']);

/**
 * The second step of a sign-in: a code from the authenticator app, or one of
 * the backup codes. Never offers to "remember this device": every new sign-in
 * asks again.
 */
export function TwoFactorChallenge({ onVerified, onRestart }: { onVerified: () => void; onRestart: (message: string) => void }) {
  const notifyError = useErrorNotice();
  const [method, setMethod] = useState<'totp' | 'backup'>('totp');
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting) return;
    const code = String(new FormData(event.currentTarget).get('code') ?? '').replace(/\s/g, '');
    if (!code) {
      setError(method === 'totp' ? 'Enter the 6-digit code from your authenticator app.' : 'Enter one of your backup codes.');
      return;
    }
    setSubmitting(true);
    setError(null);
    try {
      await (method === 'totp' ? verifyTotp(code) : verifyBackupCode(code));
      onVerified();
    } catch (caught) {
      setSubmitting(false);
      if (caught instanceof ApiError && RESTART_CODES.has(caught.code)) onRestart('That sign-in expired or had too many wrong codes. Please sign in again.');
      else if (caught instanceof ApiError && REUSED_CODES.has(caught.code))
        setError('That code was used already. Wait for the next code from your authenticator app.');
      else if (caught instanceof ApiError && (caught.status === 401 || caught.status === 400)) {
        setError(
          method === 'totp'
            ? 'That code is not right. Enter the current code from your authenticator app.'
            : 'That backup code is not right or was already used.',
        );
      } else if (caught instanceof ApiError && caught.status === 429) setError('Too many attempts. Wait a few minutes, then try again.');
      else notifyError('Verification failed', caught);
    }
  }

  return (
    <form className="mt-8 space-y-5" onSubmit={onSubmit} aria-label="Two-step verification" aria-busy={submitting}>
      <p className="text-sm text-slate-700">
        {method === 'totp'
          ? 'Open your authenticator app and enter the 6-digit code it shows for this account.'
          : 'Enter one of the backup codes you saved when you set up two-step verification. Each works once.'}
      </p>
      {method === 'totp' ? (
        <AuthenticatorCodeField key="totp" autoFocus error={error ?? undefined} />
      ) : (
        <TextField
          key="backup"
          label="Backup code"
          name="code"
          autoComplete="off"
          spellCheck={false}
          maxLength={20}
          required
          autoFocus
          error={error ?? undefined}
        />
      )}
      <Button type="submit" size="lg" className="w-full" disabled={submitting}>
        {submitting ? <Spinner /> : null}
        Verify
      </Button>
      <button
        type="button"
        className="block w-full text-center text-sm font-medium text-navy-700 hover:text-navy-900 hover:underline"
        onClick={() => {
          setMethod(method === 'totp' ? 'backup' : 'totp');
          setError(null);
        }}
      >
        {method === 'totp' ? 'Use a backup code instead' : 'Use the authenticator app instead'}
      </button>
    </form>
  );
}
