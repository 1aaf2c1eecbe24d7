import { useState } from 'react';
import type { AuditAction } from '../../../shared/domain/audit-actions';
import type { TeamView } from '../../../shared/schemas/teams';
import { ApiError } from '../../lib/api-client';
import { useMe } from '../../lib/me-context';
import { useDocumentTitle } from '../../lib/use-page-title';
import { AuditLog } from '../../ui/audit-log';
import { useTeamAudit } from './api/list-team-audit';
import { TeamUnavailable } from './team-unavailable';

/** /app/team/audit, for the team's owners: what happened in the team, and who did it. */
export default function TeamAuditPage() {
  useDocumentTitle('Audit log — Team');
  const me = useMe();
  if (!me.team) return <TeamUnavailable />;
  return <TeamAudit key={me.team.id} team={me.team} />;
}

function TeamAudit({ team }: { team: TeamView }) {
  const [action, setAction] = useState<AuditAction | undefined>();
  const log = useTeamAudit(team.id, action);
  // No longer an owner here, or no longer in the team: the shell reads who this is again and follows.
  if (log.error instanceof ApiError && log.error.status === 404) return <TeamUnavailable />;
  return (
    <>
      <p className="text-sm font-semibold text-navy-700">{team.name}</p>
      <h1 className="mt-1 text-2xl font-bold tracking-tight text-slate-900">Audit log</h1>
      <p className="mt-2 max-w-2xl text-slate-600">
        Sign-ins, invitations, role changes and branding changes in your team. Entries are never edited or deleted.
      </p>
      <AuditLog log={log} action={action} onAction={setAction} />
    </>
  );
}
