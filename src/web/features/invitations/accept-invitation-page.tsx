import '../../lib/zod-config';
import { useEffect, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import type { InvitationSummary } from '../../../shared/schemas/invitations';
import { AcceptInvitationSchema } from '../../../shared/schemas/invitations';
import { toFieldIssues } from '../../../shared/schemas/validation';
import { ApiError } from '../../lib/api-client';
import { paths } from '../../lib/paths';
import { useDocumentTitle } from '../../lib/use-page-title';
import { AuthCardLayout } from '../../ui/auth-card-layout';
import { Button } from '../../ui/button';
import { TextField } from '../../ui/field';
import { Logo } from '../../ui/logo';
import { NewPasswordField } from '../../ui/new-password-field';
import { Spinner } from '../../ui/spinner';
import { useErrorNotice } from '../../ui/toast';
import { TwoFactorChallenge } from '../../ui/two-factor-challenge';
import { acceptInvitation } from './api/accept-invitation';
import { lookupInvitation } from './api/lookup-invitation';

/** Why an invitation link cannot be used, in words for the person holding it. */
function invalidMessage(error: unknown): string {
  if (!(error instanceof ApiError) || error.status === 0 || error.status >= 500) return 'We could not check this invitation. Reload the page to try again.';
  // Used or expired (410): the server says which. Malformed or unknown: one message.
  return error.status === 410 ? error.message : 'This invitation link is not valid';
}

type State =
  | { kind: 'loading' }
  | { kind: 'invalid'; message: string }
  | { kind: 'ready'; invitation: InvitationSummary }
  /** Accepted by an account with two-step verification: a code opens the session. */
  | { kind: 'code'; redirectTo: string };

const ROLE_TEXT: Record<InvitationSummary['role'], (invitation: InvitationSummary) => string> = {
  platform_admin: () => ' as a platform admin.',
  broker: () => ' as a mortgage broker.',
  assistant: (invitation) => ` to join ${invitation.teamName ?? 'a team'} as an assistant.`,
  borrower: (invitation) => ` by ${invitation.teamName ?? 'your broker'} to follow your loan for ${invitation.loanProperty ?? 'your property'}.`,
  co_borrower: (invitation) =>
    ` by ${invitation.teamName ?? 'your broker'} to follow your loan for ${invitation.loanProperty ?? 'your property'} as a co-borrower.`,
};

/** The invitation link (/invite#<token>): set a name and password, or confirm an existing account's password. */
export default function AcceptInvitationPage() {
  const navigate = useNavigate();
  const notifyError = useErrorNotice();
  const [token] = useState(() => decodeURIComponent(window.location.hash.slice(1)));
  const [state, setState] = useState<State>({ kind: 'loading' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [submitting, setSubmitting] = useState(false);

  useDocumentTitle('Accept your invitation');
  useEffect(() => {
    const controller = new AbortController();
    lookupInvitation(token, controller.signal).then(
      (invitation) => setState({ kind: 'ready', invitation }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setState({ kind: 'invalid', message: invalidMessage(error) });
      },
    );
    return () => controller.abort();
  }, [token]);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (state.kind !== 'ready' || submitting) return;
    const form = new FormData(event.currentTarget);
    const input = { token, password: String(form.get('password') ?? ''), ...(state.invitation.hasAccount ? {} : { name: String(form.get('name') ?? '') }) };
    const parsed = AcceptInvitationSchema.safeParse(input);
    if (!parsed.success) {
      setErrors(Object.fromEntries(toFieldIssues(parsed.error).map((i) => [i.field, i.message])));
      return;
    }
    setErrors({});
    setSubmitting(true);
    try {
      const { redirectTo, twoFactorRequired } = await acceptInvitation(parsed.data);
      if (twoFactorRequired) setState({ kind: 'code', redirectTo });
      else navigate(redirectTo);
    } catch (error) {
      setSubmitting(false);
      if (error instanceof ApiError && error.fieldErrors.length > 0) {
        setErrors(Object.fromEntries(error.fieldErrors.map((i) => [i.field, i.message])));
      } else if (error instanceof ApiError && (error.status === 404 || error.status === 410)) {
        setState({ kind: 'invalid', message: invalidMessage(error) });
      } else {
        notifyError('Accepting the invitation failed', error);
      }
    }
  }

  return (
    <AuthCardLayout>
      <div className="flex flex-col items-center text-center">
        <Logo />
        <h1 className="mt-5 text-2xl font-bold tracking-tight text-slate-900">Accept your invitation</h1>
      </div>
      {state.kind === 'loading' ? (
        <p className="mt-8 flex items-center justify-center gap-2 text-sm text-slate-600" role="status">
          <Spinner /> Checking your invitation…
        </p>
      ) : null}
      {state.kind === 'invalid' ? (
        <div className="mt-8 rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800" role="alert">
          <p className="font-semibold">{state.message}</p>
          <p className="mt-1">Ask the person who invited you to send a new invitation.</p>
        </div>
      ) : null}
      {state.kind === 'code' ? (
        <TwoFactorChallenge
          onVerified={() => navigate(state.redirectTo)}
          onRestart={(message) => navigate(paths.signIn, { state: { notice: `${message} Your invitation is accepted.` } })}
        />
      ) : null}
      {state.kind === 'ready' ? (
        <form className="mt-8 space-y-5" onSubmit={onSubmit} aria-label="Accept your invitation" aria-busy={submitting}>
          <p className="text-sm text-slate-700">
            Invitation for <strong className="font-semibold text-slate-900">{state.invitation.email}</strong>
            {ROLE_TEXT[state.invitation.role](state.invitation)}
          </p>
          {state.invitation.hasAccount ? (
            <TextField label="Password of your account" name="password" type="password" autoComplete="current-password" required error={errors.password} />
          ) : (
            <>
              <TextField label="Your name" name="name" autoComplete="name" required maxLength={120} error={errors.name} />
              <NewPasswordField
                label="Choose a password"
                name="password"
                hint="At least 12 characters. A few unrelated words make a strong, memorable password."
                error={errors.password}
              />
            </>
          )}
          <Button type="submit" size="lg" className="w-full" disabled={submitting}>
            {submitting ? <Spinner /> : null}
            {state.invitation.hasAccount ? 'Sign in and accept' : 'Create account'}
          </Button>
        </form>
      ) : null}
    </AuthCardLayout>
  );
}
