import { useState } from 'react';
import type { AuditAction } from '../../../shared/domain/audit-actions';
import { useDocumentTitle } from '../../lib/use-page-title';
import { AuditLog } from '../../ui/audit-log';
import { usePlatformAudit } from './api/list-platform-audit';

/** /app/admin/audit, for platform admins: everything the platform recorded, every team's included. */
export default function AdminAuditPage() {
  useDocumentTitle('Audit log — Admin');
  const [action, setAction] = useState<AuditAction | undefined>();
  const log = usePlatformAudit(action);
  return (
    <>
      <p className="text-sm font-semibold text-navy-700">Admin</p>
      <h1 className="mt-1 text-2xl font-bold tracking-tight text-slate-900">Audit log</h1>
      <p className="mt-2 max-w-2xl text-slate-600">
        Every sign-in, invitation and change on the platform, across all teams. Entries are never edited or deleted.
      </p>
      <AuditLog log={log} action={action} onAction={setAction} />
    </>
  );
}
