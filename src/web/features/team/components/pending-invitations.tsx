import { useId } from 'react';
import type { PendingInvitation } from '../../../../shared/schemas/teams';
import { Button } from '../../../ui/button';
import { DateTime } from '../../../ui/date-time';
import { Spinner } from '../../../ui/spinner';
import { Chip } from '../../../ui/chip';
import { ColumnHeader, ScrollTable, TableHead } from '../../../ui/scroll-table';

export type InvitationAction = 'resend' | 'withdraw';

/** Invitations not yet accepted (owners): send a fresh link, or withdraw it. */
export function PendingInvitations({
  invitations,
  busy,
  onAction,
}: {
  invitations: PendingInvitation[];
  /** The invitations with a request under way. */
  busy: ReadonlySet<string>;
  onAction: (action: InvitationAction, invitation: PendingInvitation) => void;
}) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="mt-10">
      <h2 id={headingId} className="text-lg font-semibold text-slate-900">
        Pending invitations
      </h2>
      {invitations.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">No invitations are waiting to be accepted.</p>
      ) : (
        <ScrollTable caption="Invitations not accepted yet" minWidth="min-w-[40rem]">
          <TableHead>
            <ColumnHeader>E-mail</ColumnHeader>
            <ColumnHeader>Sent</ColumnHeader>
            <ColumnHeader>Expires</ColumnHeader>
            <ColumnHeader>
              <span className="sr-only">Actions</span>
            </ColumnHeader>
          </TableHead>
          <tbody className="divide-y divide-slate-200">
            {invitations.map((invitation) => {
              const working = busy.has(invitation.id);
              return (
                <tr key={invitation.id} className="align-middle">
                  <th scope="row" className="px-3 py-3 font-semibold break-words text-slate-900">
                    {invitation.email}
                  </th>
                  <td className="px-3 py-3 whitespace-nowrap text-slate-700">
                    <DateTime iso={invitation.createdAt} format="dateTime" />
                  </td>
                  <td className="px-3 py-3 whitespace-nowrap text-slate-700">
                    {invitation.expired ? (
                      <span className="flex items-center gap-2">
                        <Chip tone="red">Expired</Chip>
                        <DateTime iso={invitation.expiresAt} format="dateTime" />
                      </span>
                    ) : (
                      <DateTime iso={invitation.expiresAt} format="dateTime" />
                    )}
                  </td>
                  <td className="px-3 py-3 text-right whitespace-nowrap">
                    <span className="inline-flex gap-2">
                      <Button size="sm" variant="secondary" disabled={working} onClick={() => onAction('resend', invitation)}>
                        {working ? <Spinner /> : null}
                        Send again
                        <span className="sr-only">: {invitation.email}</span>
                      </Button>
                      <Button size="sm" variant="secondary" disabled={working} onClick={() => onAction('withdraw', invitation)}>
                        Withdraw
                        <span className="sr-only">: {invitation.email}</span>
                      </Button>
                    </span>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </ScrollTable>
      )}
    </section>
  );
}
