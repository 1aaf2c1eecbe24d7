import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { ApiError } from '../../lib/api-client';
import { paths } from '../../lib/paths';
import { useDocumentTitle } from '../../lib/use-page-title';
import { Button } from '../../ui/button';
import { TextField } from '../../ui/field';
import { Spinner } from '../../ui/spinner';
import { useErrorNotice, useToast } from '../../ui/toast';
import { AuthenticatorCodeField } from '../auth/components/authenticator-code-field';
import { useMe } from '../app-shell/me-context';
import { confirmTwoFactor, enableTwoFactor } from './api/two-factor';
import { BackupCodes } from './components/backup-codes';
import { QrCode } from './components/qr-code';

type Step = { kind: 'password' } | { kind: 'scan'; totpURI: string; backupCodes: string[] } | { kind: 'codes'; backupCodes: string[] };

/** The base32 secret of an otpauth URI, in groups of four for typing by hand. */
const secretOf = (totpURI: string) => (new URL(totpURI).searchParams.get('secret') ?? '').replace(/(.{4})/g, '$1 ').trim();

/**
 * Enrolment of an authenticator app: confirm the password, scan the QR code
 * (or type the key), prove it with a code, then keep the backup codes.
 * Owners, assistants and brokers land here before they see any team data,
 * platform admins before the admin console.
 */
export default function SecuritySetupPage() {
  useDocumentTitle('Set up two-step verification');
  const { me, refreshMe } = useMe();
  const navigate = useNavigate();
  const toast = useToast();
  const notifyError = useErrorNotice();
  const [step, setStep] = useState<Step>({ kind: 'password' });
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [saved, setSaved] = useState(false);

  async function onPassword(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting) return;
    const password = String(new FormData(event.currentTarget).get('password') ?? '');
    setSubmitting(true);
    setError(null);
    try {
      const { totpURI, backupCodes } = await enableTwoFactor(password);
      setStep({ kind: 'scan', totpURI, backupCodes });
    } catch (caught) {
      if (caught instanceof ApiError && caught.status === 400) setError('That is not your password.');
      else if (caught instanceof ApiError && caught.status === 429) setError('Too many attempts. Wait a minute, then try again.');
      else notifyError('Starting the setup failed', caught);
    } finally {
      setSubmitting(false);
    }
  }

  async function onCode(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting || step.kind !== 'scan') return;
    const code = String(new FormData(event.currentTarget).get('code') ?? '').replace(/\s/g, '');
    setSubmitting(true);
    setError(null);
    try {
      await confirmTwoFactor(code);
      setStep({ kind: 'codes', backupCodes: step.backupCodes });
    } catch (caught) {
      if (caught instanceof ApiError && (caught.status === 401 || caught.status === 400)) setError('That code is not right. Enter the current 6-digit code from your authenticator app.');
      else notifyError('Checking the code failed', caught);
    } finally {
      setSubmitting(false);
    }
  }

  async function onDone() {
    await refreshMe();
    toast({ title: 'Two-step verification is on', description: 'You will be asked for a code each time you sign in.' });
    // On to what the person came for: founding the team, or the team they joined.
    navigate(me.team ? paths.team : me.broker ? paths.teamNew : paths.app, { replace: true });
  }

  if (me.mfaEnrolled && step.kind === 'password') {
    return (
      <section className="mx-auto max-w-xl">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">Two-step verification is on</h1>
        <p className="mt-2 text-slate-600">
          Your account already asks for a code from your authenticator app at sign-in. Manage it under{' '}
          <Link to={paths.security} className="font-semibold text-navy-700 hover:underline">
            Security
          </Link>
          .
        </p>
      </section>
    );
  }

  return (
    <section className="mx-auto max-w-xl">
      <h1 className="text-2xl font-bold tracking-tight text-slate-900">Set up two-step verification</h1>
      {me.mustEnrolMfa && (me.broker || me.team) ? (
        <p className="mt-2 text-slate-600">
          Loan files hold borrowers&apos; financial records, so your team&apos;s data opens only after you add a second step to your sign-in: a code from an
          authenticator app on your phone (Google Authenticator, Microsoft Authenticator, 1Password, Authy…).
        </p>
      ) : me.mustEnrolMfa ? (
        <p className="mt-2 text-slate-600">
          The admin console holds the waitlist&apos;s personal data and the platform&apos;s audit log, so it opens only after you add a second step to your
          sign-in: a code from an authenticator app on your phone (Google Authenticator, Microsoft Authenticator, 1Password, Authy…).
        </p>
      ) : (
        <p className="mt-2 text-slate-600">Add a code from an authenticator app on your phone to every sign-in, so a stolen password is not enough.</p>
      )}
      <ol className="mt-6 flex gap-2 text-sm" aria-label="Progress">
        {(['Confirm your password', 'Scan the code', 'Save backup codes'] as const).map((label, index) => {
          const current = { password: 0, scan: 1, codes: 2 }[step.kind];
          return (
            <li
              key={label}
              aria-current={index === current ? 'step' : undefined}
              className={`flex-1 rounded-md border px-2 py-1.5 text-center ${index === current ? 'border-navy-600 bg-navy-50 font-semibold text-navy-900' : index < current ? 'border-slate-200 text-slate-600' : 'border-slate-200 text-slate-600'}`}
            >
              <span className="sr-only">{index < current ? 'Done: ' : ''}</span>
              {label}
            </li>
          );
        })}
      </ol>

      <div className="mt-6 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
        {step.kind === 'password' ? (
          <form className="space-y-5" onSubmit={onPassword} aria-label="Confirm your password" aria-busy={submitting}>
            <TextField label="Password" name="password" type="password" autoComplete="current-password" required error={error ?? undefined} />
            <Button type="submit" disabled={submitting}>
              {submitting ? <Spinner /> : null}
              Continue
            </Button>
          </form>
        ) : null}

        {step.kind === 'scan' ? (
          <form className="space-y-5" onSubmit={onCode} aria-label="Scan the code" aria-busy={submitting}>
            <p className="text-sm text-slate-700">Scan this QR code with your authenticator app, then enter the 6-digit code it shows.</p>
            <QrCode value={step.totpURI} label="QR code for your authenticator app" className="mx-auto size-48 sm:size-56" />
            <div className="text-sm text-slate-700">
              <p>Can&apos;t scan it? Add the account by hand with this key:</p>
              <p className="mt-1 rounded-lg bg-slate-100 px-3 py-2 text-center font-mono tracking-wider text-slate-900 select-all" data-testid="totp-secret">
                {secretOf(step.totpURI)}
              </p>
            </div>
            <AuthenticatorCodeField error={error ?? undefined} />
            <Button type="submit" disabled={submitting}>
              {submitting ? <Spinner /> : null}
              Verify
            </Button>
          </form>
        ) : null}

        {step.kind === 'codes' ? (
          <div className="space-y-5">
            <h2 className="text-lg font-semibold text-slate-900">Save your backup codes</h2>
            <p className="text-sm text-slate-700">
              If you lose your phone, each of these codes signs you in once instead of the app. Keep them somewhere safe — they are shown only now.
            </p>
            <BackupCodes codes={step.backupCodes} accountEmail={me.user.email} />
            <label className="flex items-start gap-2 text-sm text-slate-800">
              <input type="checkbox" className="mt-0.5 size-4" checked={saved} onChange={(event) => setSaved(event.target.checked)} />I have saved my backup codes
            </label>
            <Button type="button" disabled={!saved} onClick={() => void onDone()}>
              Continue
            </Button>
          </div>
        ) : null}
      </div>
    </section>
  );
}
