import type { TeamMemberView } from '../../../../shared/schemas/teams';
import { Button } from '../../../ui/button';
import { DateTime } from '../../../ui/date-time';
import { Spinner } from '../../../ui/spinner';
import { Chip } from '../../../ui/chip';
import { ColumnHeader, ScrollTable, TableHead } from '../../../ui/scroll-table';

export type MemberAction = 'promote' | 'demote' | 'remove';

/**
 * The team's members. Owners also get each member's actions: make owner,
 * make assistant, remove. Assistants see the same list without them.
 */
export function MembersTable({
  members,
  myUserId,
  canManage,
  busy,
  onAction,
}: {
  members: TeamMemberView[];
  myUserId: string;
  canManage: boolean;
  /** The members with a request under way. */
  busy: ReadonlySet<string>;
  onAction: (action: MemberAction, member: TeamMemberView) => void;
}) {
  const owners = members.filter((m) => m.role === 'owner').length;
  return (
    <ScrollTable caption="Team members" minWidth="min-w-[48rem]">
      <TableHead>
        <ColumnHeader>Name</ColumnHeader>
        <ColumnHeader>E-mail</ColumnHeader>
        <ColumnHeader>Role</ColumnHeader>
        <ColumnHeader>Two-step verification</ColumnHeader>
        <ColumnHeader>Joined</ColumnHeader>
        {canManage ? (
          <ColumnHeader>
            <span className="sr-only">Actions</span>
          </ColumnHeader>
        ) : null}
      </TableHead>
      <tbody className="divide-y divide-slate-200">
        {members.map((member) => {
          const working = busy.has(member.userId);
          // A team always keeps an owner (the server refuses otherwise): its only owner gets no actions to fail.
          const soleOwner = member.role === 'owner' && owners === 1;
          return (
            <tr key={member.userId} className="align-middle">
              <th scope="row" className="min-w-32 px-3 py-3 font-semibold text-slate-900">
                {member.name}
                {member.userId === myUserId ? <span className="ml-1 font-normal text-slate-600">(you)</span> : null}
              </th>
              <td className="px-3 py-3 break-words text-slate-700">{member.email}</td>
              <td className="px-3 py-3">{member.role === 'owner' ? <Chip tone="navy">Owner</Chip> : <Chip tone="slate">Assistant</Chip>}</td>
              <td className="px-3 py-3">{member.mfaEnrolled ? <Chip tone="green">On</Chip> : <Chip tone="slate">Not set up</Chip>}</td>
              <td className="px-3 py-3 whitespace-nowrap text-slate-700">
                <DateTime iso={member.joinedAt} />
              </td>
              {canManage ? (
                <td className="px-3 py-3 text-right whitespace-nowrap">
                  {soleOwner ? (
                    <span className="text-xs text-slate-600">The team&apos;s only owner</span>
                  ) : (
                    <span className="inline-flex gap-2">
                      {member.role === 'owner' ? (
                        <Button size="sm" variant="secondary" disabled={working} onClick={() => onAction('demote', member)}>
                          Make assistant
                          <span className="sr-only">: {member.name}</span>
                        </Button>
                      ) : (
                        <Button size="sm" variant="secondary" disabled={working} onClick={() => onAction('promote', member)}>
                          {working ? <Spinner /> : null}
                          Make owner
                          <span className="sr-only">: {member.name}</span>
                        </Button>
                      )}
                      <Button size="sm" variant="secondary" disabled={working} onClick={() => onAction('remove', member)}>
                        Remove
                        <span className="sr-only">: {member.name}</span>
                      </Button>
                    </span>
                  )}
                </td>
              ) : null}
            </tr>
          );
        })}
      </tbody>
    </ScrollTable>
  );
}
