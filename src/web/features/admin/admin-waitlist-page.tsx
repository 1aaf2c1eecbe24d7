import { useDocumentTitle } from '../../lib/use-page-title';
import { FailedEmails } from './components/failed-emails';
import { WaitlistPanel } from './components/waitlist-panel';

/** /app/admin/waitlist, for platform admins: the waitlist, and the e-mails that could not be sent. */
export default function AdminWaitlistPage() {
  useDocumentTitle('Waitlist — Admin');
  return (
    <>
      <p className="text-sm font-semibold text-navy-700">Admin</p>
      <h1 className="mt-1 text-2xl font-bold tracking-tight text-slate-900">Waitlist</h1>
      <p className="mt-2 max-w-2xl text-slate-600">Everyone who asked for early access. Invite a broker to send them a link that creates their account.</p>
      <WaitlistPanel />
      <FailedEmails />
    </>
  );
}
