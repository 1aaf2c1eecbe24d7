import { useId } from 'react';
import type { TeamMemberView } from '../../../../shared/schemas/teams';
import { Button } from '../../../ui/button';
import { DateTime } from '../../../ui/date-time';
import { Spinner } from '../../../ui/spinner';
import { Chip } from './chip';

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
  loading,
  onAction,
}: {
  members: TeamMemberView[];
  myUserId: string;
  canManage: boolean;
  /** The members with a request under way. */
  busy: ReadonlySet<string>;
  loading: boolean;
  onAction: (action: MemberAction, member: TeamMemberView) => void;
}) {
  const captionId = useId();
  const owners = members.filter((m) => m.role === 'owner').length;
  return (
    <div role="region" aria-labelledby={captionId} tabIndex={0} className="relative mt-3 overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm">
      <table aria-busy={loading} className={`w-full min-w-[48rem] text-left text-sm transition-opacity ${loading ? 'opacity-60' : ''}`}>
        <caption id={captionId} className="sr-only">
          Team members
        </caption>
        <thead className="border-b border-slate-200 bg-slate-50 text-slate-700">
          <tr>
            <th scope="col" className="px-3 py-3 font-semibold">
              Name
            </th>
            <th scope="col" className="px-3 py-3 font-semibold">
              E-mail
            </th>
            <th scope="col" className="px-3 py-3 font-semibold">
              Role
            </th>
            <th scope="col" className="px-3 py-3 font-semibold">
              Two-step verification
            </th>
            <th scope="col" className="px-3 py-3 font-semibold">
              Joined
            </th>
            {canManage ? (
              <th scope="col" className="px-3 py-3 font-semibold">
                <span className="sr-only">Actions</span>
              </th>
            ) : null}
          </tr>
        </thead>
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
      </table>
    </div>
  );
}
