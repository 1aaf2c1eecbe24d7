import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { PendingInvitation, TeamMembers, TeamMemberView } from '../../../shared/schemas/teams';
import { ApiError } from '../../lib/api-client';
import { useDocumentTitle } from '../../lib/use-page-title';
import { Button } from '../../ui/button';
import { ConfirmDialog } from './components/confirm-dialog';
import { Spinner } from '../../ui/spinner';
import { useToast } from '../../ui/toast';
import { useAccessErrorHandler, useFailureNotice, useMe } from '../app-shell/me-context';
import { changeRole } from './api/change-role';
import { inviteAssistant } from './api/invite-assistant';
import { listMembers } from './api/list-members';
import { removeMember } from './api/remove-member';
import { withdrawInvitation } from './api/withdraw-invitation';
import { InviteForm } from './components/invite-form';
import { MembersTable, type MemberAction } from './components/members-table';
import { PendingInvitations, type InvitationAction } from './components/pending-invitations';
import { TeamUnavailable } from './team-unavailable';

type Loaded = { key: string } & ({ state: 'ready'; data: TeamMembers } | { state: 'failed' } | { state: 'gone' });
/** A change that asks first: making an owner an assistant, or removing anyone. */
type Pending = { action: 'demote' | 'remove'; member: TeamMemberView };

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

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
  const { me, refreshMe } = useMe();
  const handleAccessError = useAccessErrorHandler();
  const notifyFailure = useFailureNotice();
  const toast = useToast();
  const membersHeadingId = useId();
  const membersHeading = useRef<HTMLHeadingElement>(null);
  const team = me.team;
  const teamId = team?.id;
  const owner = team?.role === 'owner';
  const [reloads, setReloads] = useState(0);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [busyMembers, setBusyMembers] = useState<ReadonlySet<string>>(new Set());
  const [busyInvitations, setBusyInvitations] = useState<ReadonlySet<string>>(new Set());
  const [pending, setPending] = useState<Pending | null>(null);
  const [confirming, setConfirming] = useState(false);

  const key = `${teamId}#${reloads}`;
  useEffect(() => {
    if (!teamId) return;
    const controller = new AbortController();
    listMembers(teamId, controller.signal).then(
      (data) => setLoaded({ key, state: 'ready', data }),
      (error: unknown) => {
        if (controller.signal.aborted || handleAccessError(error)) return;
        if (error instanceof ApiError && error.status === 404) {
          // Removed from the team: the shell re-reads who this is and says so.
          setLoaded({ key, state: 'gone' });
          void refreshMe();
          return;
        }
        console.error('Loading the team members failed:', error);
        setLoaded({ key, state: 'failed' });
      },
    );
    return () => controller.abort();
  }, [teamId, key, handleAccessError, refreshMe]);

  const reload = useCallback(() => setReloads((n) => n + 1), []);

  /**
   * Shows a change at once, before the reload confirms it: a row left stale
   * (an invitation sent again has a new id) must not be acted on meanwhile.
   */
  const patch = useCallback((change: (data: TeamMembers) => TeamMembers) => {
    setLoaded((current) => (current?.state === 'ready' ? { ...current, data: change(current.data) } : current));
  }, []);

  const onInvited = useCallback(
    (invitation: PendingInvitation) => {
      patch((data) => ({ ...data, invitations: [invitation, ...data.invitations.filter((i) => i.email.toLowerCase() !== invitation.email.toLowerCase())] }));
      reload();
    },
    [patch, reload],
  );

  /** After a failed change: a 404 means the member or invitation is gone (or so is this owner's right): look again. */
  const onChangeFailed = useCallback(
    (what: string, error: unknown) => {
      notifyFailure(what, error);
      if (error instanceof ApiError && (error.status === 404 || error.status === 409)) {
        reload();
        if (error.status === 404) void refreshMe();
      }
    },
    [notifyFailure, reload, refreshMe],
  );

  if (!team || !teamId || loaded?.state === 'gone') return <TeamUnavailable />;

  const loading = loaded?.key !== key;
  const data = loaded?.state === 'ready' ? loaded.data : null;
  const isMe = (member: TeamMemberView) => member.userId === me.user.id;

  async function promote(member: TeamMemberView) {
    if (!teamId) return;
    setBusyMembers((current) => new Set(current).add(member.userId));
    try {
      await changeRole(teamId, member.userId, { role: 'owner' });
      patch((data) => ({ ...data, members: data.members.map((m) => (m.userId === member.userId ? { ...m, role: 'owner' } : m)) }));
      toast({ title: 'Success!', description: `${member.name} is now an owner.` });
      reload();
    } catch (error) {
      onChangeFailed('Changing the role failed', error);
    } finally {
      setBusyMembers((current) => without(current, member.userId));
    }
  }

  function onMemberAction(action: MemberAction, member: TeamMemberView) {
    if (action === 'promote') void promote(member);
    else setPending({ action, member });
  }

  async function confirmPending() {
    if (!pending || !teamId) return;
    const { action, member } = pending;
    setConfirming(true);
    try {
      if (action === 'demote') {
        await changeRole(teamId, member.userId, { role: 'assistant' });
        patch((data) => ({ ...data, members: data.members.map((m) => (m.userId === member.userId ? { ...m, role: 'assistant' } : m)) }));
        toast({ title: 'Success!', description: isMe(member) ? 'You are now an assistant.' : `${member.name} is now an assistant.` });
      } else {
        await removeMember(teamId, member.userId);
        patch((data) => ({ ...data, members: data.members.filter((m) => m.userId !== member.userId) }));
        // The row whose button opened the dialog is gone: once the dialog has closed, keep the keyboard's place in the list.
        setTimeout(() => membersHeading.current?.focus(), 0);
        toast({ title: 'Success!', description: isMe(member) ? `You have left ${team?.name ?? 'the team'}.` : `${member.name} has been removed from the team.` });
      }
      setPending(null);
      // A change to oneself changes what this person may do here: the shell follows at once.
      if (isMe(member)) void refreshMe();
      reload();
    } catch (error) {
      setPending(null);
      onChangeFailed(action === 'demote' ? 'Changing the role failed' : 'Removing the member failed', error);
    } finally {
      setConfirming(false);
    }
  }

  async function onInvitationAction(action: InvitationAction, invitation: PendingInvitation) {
    if (!teamId) return;
    setBusyInvitations((current) => new Set(current).add(invitation.id));
    try {
      if (action === 'resend') {
        const fresh = await inviteAssistant(teamId, { email: invitation.email });
        patch((data) => ({ ...data, invitations: data.invitations.map((i) => (i.id === invitation.id ? fresh : i)) }));
        toast({ title: 'Success!', description: `Invitation sent to ${invitation.email}` });
      } else {
        await withdrawInvitation(teamId, invitation.id);
        patch((data) => ({ ...data, invitations: data.invitations.filter((i) => i.id !== invitation.id) }));
        toast({ title: 'Success!', description: `The invitation to ${invitation.email} has been withdrawn.` });
      }
      reload();
    } catch (error) {
      onChangeFailed(action === 'resend' ? 'Sending the invitation again failed' : 'Withdrawing the invitation failed', error);
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

      {owner ? <InviteForm teamId={teamId} onSent={onInvited} /> : null}

      <section aria-labelledby={membersHeadingId} className="mt-10">
        <div className="flex flex-wrap items-end justify-between gap-4">
          <h2 id={membersHeadingId} ref={membersHeading} tabIndex={-1} className="text-lg font-semibold text-slate-900 focus:outline-none">
            Members
          </h2>
          <p role="status" className="flex min-h-6 items-center gap-2 text-sm text-slate-700">
            {loading ? <Spinner /> : null}
            {data ? plural(data.members.length, 'member', 'members') : null}
          </p>
        </div>
        {loaded?.state === 'failed' && !loading ? (
          <div role="alert" className="mt-4 flex flex-wrap items-center gap-4 rounded-lg border border-red-200 bg-red-50 px-3 py-3 text-sm text-red-800">
            <p className="font-semibold">The team members could not be loaded.</p>
            <Button variant="secondary" onClick={reload}>
              Try again
            </Button>
          </div>
        ) : null}
        {data ? <MembersTable members={data.members} myUserId={me.user.id} canManage={owner} busy={busyMembers} loading={loading} onAction={onMemberAction} /> : null}
      </section>

      {owner && data ? <PendingInvitations invitations={data.invitations} busy={busyInvitations} loading={loading} onAction={onInvitationAction} /> : null}

      <ConfirmDialog
        open={pending !== null}
        title={dialog?.title ?? ''}
        confirmLabel={dialog?.confirm ?? ''}
        busy={confirming}
        onConfirm={() => void confirmPending()}
        onClose={() => setPending(null)}
      >
        <p>{dialog?.body}</p>
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
