import { useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import type { Me } from '../../../shared/schemas/me';
import type { PendingInvitation, TeamMemberView, TeamView } from '../../../shared/schemas/teams';
import { ApiError } from '../../lib/api-client';
import { meQueryOptions } from '../../lib/api/get-me';
import { useMembers } from '../../lib/api/list-members';
import { useFailureNotice, useMe } from '../../lib/me-context';
import { plural } from '../../lib/plural';
import { useDocumentTitle } from '../../lib/use-page-title';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { SelectField } from '../../ui/field';
import { LoadFailed } from '../../ui/load-failed';
import { Spinner } from '../../ui/spinner';
import { useToast } from '../../ui/toast';
import { useChangeRole } from './api/change-role';
import { useInviteAssistant } from './api/invite-assistant';
import { useRemoveMember } from './api/remove-member';
import { useWithdrawInvitation } from './api/withdraw-invitation';
import { InviteForm } from './components/invite-form';
import { MembersTable, type MemberAction } from './components/members-table';
import { PendingInvitations, type InvitationAction } from './components/pending-invitations';
import { TeamUnavailable } from './team-unavailable';

/** A change that asks first: making an owner an assistant, or removing anyone. */
type Pending = { action: 'demote' | 'remove'; member: TeamMemberView };

const without = <T,>(set: ReadonlySet<T>, value: T) => {
  const next = new Set(set);
  next.delete(value);
  return next;
};

/**
 * /app/team: the team's members for everyone in it; owners also invite
 * assistants, change roles, remove members and manage open invitations.
 */
export default function TeamMembersPage() {
  useDocumentTitle('Team');
  const me = useMe();
  if (!me.team) return <TeamUnavailable />;
  // A new page per team: another team's rows never linger.
  return <Members key={me.team.id} me={me} team={me.team} />;
}

function Members({ me, team }: { me: Me; team: TeamView }) {
  const queryClient = useQueryClient();
  const notifyFailure = useFailureNotice();
  const toast = useToast();
  const membersHeadingId = useId();
  const membersHeading = useRef<HTMLHeadingElement>(null);
  const teamId = team.id;
  const owner = team.role === 'owner';
  const members = useMembers(teamId);
  const changeRole = useChangeRole(teamId);
  const removeMember = useRemoveMember(teamId);
  const inviteAgain = useInviteAssistant(teamId);
  const withdrawInvitation = useWithdrawInvitation(teamId);
  const [busyMembers, setBusyMembers] = useState<ReadonlySet<string>>(new Set());
  const [busyInvitations, setBusyInvitations] = useState<ReadonlySet<string>>(new Set());
  const [pending, setPending] = useState<Pending | null>(null);
  const [confirming, setConfirming] = useState(false);
  /** Who takes over the loans assigned to the member being removed: another member's id, or '' for nobody. */
  const [handOverTo, setHandOverTo] = useState('');

  // Removed from the team: the shell reads who this is again and says so.
  if (members.error instanceof ApiError && members.error.status === 404) return <TeamUnavailable />;

  // The list is read again after every change, which it already shows: the status line says so, the tables stay as they are.
  const reading = members.isFetching;
  // A list that failed to load again is not shown as if it were current.
  const data = members.isError ? null : members.data;
  const isMe = (member: TeamMemberView) => member.userId === me.user.id;
  // A change to oneself changes what this person may do here: the shell follows at once.
  const refreshMeAfter = (member: TeamMemberView) => {
    if (isMe(member)) void queryClient.invalidateQueries({ queryKey: meQueryOptions().queryKey });
  };

  async function promote(member: TeamMemberView) {
    setBusyMembers((current) => new Set(current).add(member.userId));
    try {
      await changeRole.mutateAsync({ userId: member.userId, role: 'owner' });
      toast({ title: 'Success!', description: `${member.name} is now an owner.` });
    } catch (error) {
      notifyFailure('Changing the role failed', error);
    } finally {
      setBusyMembers((current) => without(current, member.userId));
    }
  }

  function onMemberAction(action: MemberAction, member: TeamMemberView) {
    if (action === 'promote') void promote(member);
    else {
      setHandOverTo('');
      setPending({ action, member });
    }
  }

  async function confirmPending() {
    if (!pending) return;
    const { action, member } = pending;
    setConfirming(true);
    try {
      if (action === 'demote') {
        await changeRole.mutateAsync({ userId: member.userId, role: 'assistant' });
        toast({ title: 'Success!', description: isMe(member) ? 'You are now an assistant.' : `${member.name} is now an assistant.` });
      } else {
        await removeMember.mutateAsync({ userId: member.userId, ...(handOverTo ? { handOverTo } : {}) });
        // The row whose button opened the dialog is gone: once the dialog has closed, keep the keyboard's place in the list.
        setTimeout(() => membersHeading.current?.focus(), 0);
        toast({ title: 'Success!', description: isMe(member) ? `You have left ${team.name}.` : `${member.name} has been removed from the team.` });
      }
      setPending(null);
      refreshMeAfter(member);
    } catch (error) {
      setPending(null);
      notifyFailure(action === 'demote' ? 'Changing the role failed' : 'Removing the member failed', error);
    } finally {
      setConfirming(false);
    }
  }

  async function onInvitationAction(action: InvitationAction, invitation: PendingInvitation) {
    setBusyInvitations((current) => new Set(current).add(invitation.id));
    try {
      if (action === 'resend') {
        await inviteAgain.mutateAsync({ email: invitation.email });
        toast({ title: 'Success!', description: `Invitation sent to ${invitation.email}` });
      } else {
        await withdrawInvitation.mutateAsync(invitation.id);
        toast({ title: 'Success!', description: `The invitation to ${invitation.email} has been withdrawn.` });
      }
    } catch (error) {
      notifyFailure(action === 'resend' ? 'Sending the invitation again failed' : 'Withdrawing the invitation failed', error);
    } finally {
      setBusyInvitations((current) => without(current, invitation.id));
    }
  }

  const dialog = pending ? dialogText(pending, isMe(pending.member), team.name) : null;

  return (
    <>
      <p className="text-sm font-semibold text-navy-700">{team.name}</p>
      <h1 className="mt-1 text-2xl font-bold tracking-tight text-slate-900">Team</h1>
      <p className="mt-2 max-w-2xl text-slate-600">
        {owner
          ? 'Everyone who works your loan files. Owners manage the team, its branding and its audit log; assistants work every loan file.'
          : 'Everyone who works your team’s loan files. Only owners can invite, remove or change members.'}
      </p>

      {owner ? <InviteForm teamId={teamId} /> : null}

      <section aria-labelledby={membersHeadingId} className="mt-10">
        <div className="flex flex-wrap items-end justify-between gap-4">
          <h2 id={membersHeadingId} ref={membersHeading} tabIndex={-1} className="text-lg font-semibold text-slate-900 focus:outline-none">
            Members
          </h2>
          <p role="status" className="flex min-h-6 items-center gap-2 text-sm text-slate-700">
            {reading ? <Spinner /> : null}
            {data ? plural(data.members.length, 'member', 'members') : null}
          </p>
        </div>
        {members.isError && !reading ? <LoadFailed message="The team members could not be loaded." onRetry={() => void members.refetch()} /> : null}
        {data ? <MembersTable members={data.members} myUserId={me.user.id} canManage={owner} busy={busyMembers} onAction={onMemberAction} /> : null}
      </section>

      {owner && data ? <PendingInvitations invitations={data.invitations} busy={busyInvitations} onAction={onInvitationAction} /> : null}

      <ConfirmDialog
        open={pending !== null}
        title={dialog?.title ?? ''}
        confirmLabel={dialog?.confirm ?? ''}
        busy={confirming}
        onConfirm={() => void confirmPending()}
        onClose={() => setPending(null)}
      >
        <p>{dialog?.body}</p>
        {pending?.action === 'remove' && data ? (
          <SelectField
            label={isMe(pending.member) ? 'Your loans go to' : 'Their loans go to'}
            hint="The loans assigned to whoever leaves go to this member at once; nothing about them is mailed to someone who has left."
            className="mt-4"
            value={handOverTo}
            disabled={confirming}
            onChange={(event) => setHandOverTo(event.target.value)}
          >
            <option value="">Nobody: leave them unassigned</option>
            {data.members
              .filter((member) => member.userId !== pending.member.userId)
              .map((member) => (
                <option key={member.userId} value={member.userId}>
                  {member.name}
                </option>
              ))}
          </SelectField>
        ) : null}
      </ConfirmDialog>
    </>
  );
}

function dialogText({ action, member }: Pending, self: boolean, teamName: string) {
  if (action === 'demote') {
    return {
      title: self ? 'Make yourself an assistant?' : `Make ${member.name} an assistant?`,
      body: self
        ? 'You will no longer be able to manage members, branding or the audit log. Another owner can make you an owner again.'
        : `${member.name} will no longer be able to manage members, branding or the audit log.`,
      confirm: 'Make assistant',
    };
  }
  return {
    title: self ? `Leave ${teamName}?` : `Remove ${member.name}?`,
    body: self
      ? `You will lose access to ${teamName} and its loan files at once. Only an owner can invite you back.`
      : `${member.name} (${member.email}) will lose access to ${teamName} and its loan files at once. You can invite them again later.`,
    confirm: 'Remove member',
  };
}
