import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { z } from 'zod';
import { text } from '../../../shared/schemas/text';
import { meQueryOptions } from '../../lib/api/get-me';
import { useFailureNotice, useMe } from '../../lib/me-context';
import { paths } from '../../lib/paths';
import { useAppForm } from '../../lib/use-app-form';
import { useDocumentTitle } from '../../lib/use-page-title';
import { AuthenticatorCodeField } from '../../ui/authenticator-code-field';
import { Button } from '../../ui/button';
import { TextField } from '../../ui/field';
import { Spinner } from '../../ui/spinner';
import { useToast } from '../../ui/toast';
import { useConfirmTwoFactor } from './api/confirm-two-factor';
import { useEnableTwoFactor } from './api/enable-two-factor';
import { BackupCodes } from './components/backup-codes';
import { QrCode } from './components/qr-code';

type Step = { kind: 'password' } | { kind: 'scan'; totpURI: string; backupCodes: string[] } | { kind: 'codes'; backupCodes: string[] };

const PasswordStepSchema = z.object({ password: text('Password') });
/** The code as the app shows it, a space in the middle allowed. */
const CodeStepSchema = z.object({ code: text('Authenticator code').transform((code) => code.replace(/\s/g, '')) });

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
  const me = useMe();
  const navigate = useNavigate();
  const toast = useToast();
  const notifyFailure = useFailureNotice();
  const queryClient = useQueryClient();
  const enableTwoFactor = useEnableTwoFactor();
  const confirmTwoFactor = useConfirmTwoFactor();
  const [step, setStep] = useState<Step>({ kind: 'password' });
  const [saved, setSaved] = useState(false);

  const passwordStep = useAppForm({
    schema: PasswordStepSchema,
    defaultValues: { password: '' },
    onSubmit: async ({ password }) => {
      const { totpURI, backupCodes } = await enableTwoFactor.mutateAsync(password);
      setStep({ kind: 'scan', totpURI, backupCodes });
    },
    explain: (error) =>
      error.status === 400
        ? { field: 'password', message: 'That is not your password.' }
        : error.status === 429
          ? { field: 'password', message: 'Too many attempts. Wait a minute, then try again.' }
          : null,
    onFailure: (failure) => notifyFailure('Starting the setup failed', failure),
  });

  const codeStep = useAppForm({
    schema: CodeStepSchema,
    defaultValues: { code: '' },
    onSubmit: async ({ code }) => {
      if (step.kind !== 'scan') return;
      await confirmTwoFactor.mutateAsync(code);
      setStep({ kind: 'codes', backupCodes: step.backupCodes });
    },
    explain: (error) =>
      error.status === 401 || error.status === 400
        ? { field: 'code', message: 'That code is not right. Enter the current 6-digit code from your authenticator app.' }
        : null,
    onFailure: (failure) => notifyFailure('Checking the code failed', failure),
  });

  async function onDone() {
    await queryClient.invalidateQueries({ queryKey: meQueryOptions().queryKey });
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
          <form className="space-y-5" onSubmit={passwordStep.onSubmit} aria-label="Confirm your password" aria-busy={passwordStep.submitting}>
            <TextField label="Password" type="password" autoComplete="current-password" required {...passwordStep.field('password')} />
            <Button type="submit" disabled={passwordStep.submitting}>
              {passwordStep.submitting ? <Spinner /> : null}
              Continue
            </Button>
          </form>
        ) : null}

        {step.kind === 'scan' ? (
          <form className="space-y-5" onSubmit={codeStep.onSubmit} aria-label="Scan the code" aria-busy={codeStep.submitting}>
            <p className="text-sm text-slate-700">Scan this QR code with your authenticator app, then enter the 6-digit code it shows.</p>
            <QrCode value={step.totpURI} label="QR code for your authenticator app" className="mx-auto size-48 sm:size-56" />
            <div className="text-sm text-slate-700">
              <p>Can&apos;t scan it? Add the account by hand with this key:</p>
              <p className="mt-1 rounded-lg bg-slate-100 px-3 py-2 text-center font-mono tracking-wider text-slate-900 select-all" data-testid="totp-secret">
                {secretOf(step.totpURI)}
              </p>
            </div>
            <AuthenticatorCodeField {...codeStep.field('code')} />
            <Button type="submit" disabled={codeStep.submitting}>
              {codeStep.submitting ? <Spinner /> : null}
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
              <input type="checkbox" className="mt-0.5 size-4" checked={saved} onChange={(event) => setSaved(event.target.checked)} />I have saved my backup
              codes
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
