import { useCallback, useState } from 'react';
import { useDocumentTitle } from '../../lib/use-page-title';
import { useMe } from '../app-shell/me-context';
import { AuditLog } from '../audit/components/audit-log';
import { TeamUnavailable } from './team-unavailable';

/** /app/team/audit, for the team's owners: what happened in the team, and who did it. */
export default function TeamAuditPage() {
  useDocumentTitle('Audit log — Team');
  const { me, refreshMe } = useMe();
  const [gone, setGone] = useState(false);
  const onNotFound = useCallback(() => {
    // No longer an owner here, or no longer in the team: the shell learns which and follows.
    setGone(true);
    void refreshMe();
  }, [refreshMe]);

  if (!me.team || gone) return <TeamUnavailable />;
  return (
    <>
      <p className="text-sm font-semibold text-navy-700">{me.team.name}</p>
      <h1 className="mt-1 text-2xl font-bold tracking-tight text-slate-900">Audit log</h1>
      <p className="mt-2 max-w-2xl text-slate-600">
        Sign-ins, invitations, role changes and branding changes in your team. Entries are never edited or deleted.
      </p>
      <AuditLog teamId={me.team.id} onNotFound={onNotFound} />
    </>
  );
}
