import { useState } from 'react';
import { Link } from 'react-router';
import { kindOfUnsubscribeToken, NOTIFICATION_KIND_LABELS } from '../../../shared/domain/notifications';
import { paths } from '../../lib/paths';
import { useDocumentTitle } from '../../lib/use-page-title';
import { AuthCardLayout } from '../../ui/auth-card-layout';
import { Button } from '../../ui/button';
import { Spinner } from '../../ui/spinner';

type Phase = 'asking' | 'sending' | 'done' | 'invalid' | 'failed';

/**
 * RFC 8058's one-click request, as a mail client sends it: the token in the
 * address, `List-Unsubscribe=One-Click` as a form body, no cookie needed.
 */
async function unsubscribe(token: string): Promise<'done' | 'invalid' | 'failed'> {
  try {
    const response = await fetch(`${paths.unsubscribe}?token=${encodeURIComponent(token)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
      credentials: 'omit',
    });
    if (response.ok) return 'done';
    return response.status === 400 ? 'invalid' : 'failed';
  } catch {
    return 'failed';
  }
}

/**
 * /unsubscribe?token=…: the page a notification mail's unsubscribe link
 * opens, with no sign-in, phone first. Opening it changes nothing (mail
 * security scanners open every link); the button turns that kind of e-mail
 * off, as the mail client's one-click request does.
 */
export default function UnsubscribePage() {
  const [token] = useState(() => new URLSearchParams(window.location.search).get('token') ?? '');
  const [phase, setPhase] = useState<Phase>(() => (kindOfUnsubscribeToken(token) ? 'asking' : 'invalid'));
  const kind = kindOfUnsubscribeToken(token);
  const what = kind ? NOTIFICATION_KIND_LABELS[kind].toLowerCase() : '';
  useDocumentTitle('Unsubscribe');

  const confirm = async () => {
    setPhase('sending');
    setPhase(await unsubscribe(token));
  };

  return (
    <AuthCardLayout>
      <h1 className="text-2xl font-bold tracking-tight text-slate-900">{phase === 'done' ? 'You are unsubscribed' : 'Unsubscribe'}</h1>
      <div aria-live="polite" className="mt-3 text-slate-700">
        {phase === 'asking' || phase === 'sending' ? <p>Stop e-mails about {what}? They will still show in your notifications in the app.</p> : null}
        {phase === 'done' ? <p>No more e-mails about {what}. They still show in your notifications in the app, and you can turn them back on there.</p> : null}
        {phase === 'invalid' ? (
          <p role="alert">This unsubscribe link is not valid. Open the whole link from the e-mail, or choose your e-mails in your profile.</p>
        ) : null}
        {phase === 'failed' ? <p role="alert">That did not work. Check your connection and try again.</p> : null}
      </div>
      <div className="mt-6 flex flex-col gap-3">
        {phase === 'asking' || phase === 'sending' || phase === 'failed' ? (
          <Button size="lg" onClick={() => void confirm()} disabled={phase === 'sending'}>
            {phase === 'sending' ? <Spinner /> : null}
            Unsubscribe
          </Button>
        ) : null}
        <Link to={paths.profile} className="text-center text-sm font-semibold text-navy-700 underline underline-offset-4 hover:text-navy-900">
          Choose all your e-mails (sign in)
        </Link>
      </div>
    </AuthCardLayout>
  );
}
