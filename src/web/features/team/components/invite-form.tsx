import { useId } from 'react';
import { InviteAssistantSchema } from '../../../../shared/schemas/teams';
import { useFailureNotice } from '../../../lib/me-context';
import { useAppForm } from '../../../lib/use-app-form';
import { Button } from '../../../ui/button';
import { TextField } from '../../../ui/field';
import { Spinner } from '../../../ui/spinner';
import { useToast } from '../../../ui/toast';
import { useInviteAssistant } from '../api/invite-assistant';

/** "Invite an assistant" (owners): an e-mail address, and the invitation goes out with the team's branding. */
export function InviteForm({ teamId }: { teamId: string }) {
  const toast = useToast();
  const notifyFailure = useFailureNotice();
  const headingId = useId();
  const invite = useInviteAssistant(teamId);
  const { onSubmit, submitting, field } = useAppForm({
    schema: InviteAssistantSchema,
    defaultValues: { email: '' },
    onSubmit: async (values, form) => {
      const invitation = await invite.mutateAsync(values);
      form.reset();
      toast({ title: 'Success!', description: `Invitation sent to ${invitation.email}` });
    },
    // 409: already a member, in the server's words next to the address.
    explain: (failure) => (failure.code === 'conflict' ? { field: 'email', message: failure.message } : null),
    onFailure: (failure) => notifyFailure('Sending the invitation failed', failure),
  });

  return (
    <section aria-labelledby={headingId} className="mt-8 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
      <h2 id={headingId} className="text-lg font-semibold text-slate-900">
        Invite an assistant
      </h2>
      <p className="mt-1 max-w-2xl text-sm text-slate-600">
        They get an e-mail with a link to join your team. Assistants work every loan file with you; only owners manage the team. Until they accept, the
        invitation is listed below with its expiry.
      </p>
      <form onSubmit={onSubmit} noValidate aria-busy={submitting} className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-start">
        <TextField
          label="E-mail"
          type="email"
          required
          autoComplete="off"
          maxLength={254}
          placeholder="assistant@example.com"
          {...field('email')}
          className="sm:w-96"
        />
        <Button type="submit" disabled={submitting} className="h-11 sm:mt-[1.625rem]">
          {submitting ? <Spinner /> : null}
          Invite
        </Button>
      </form>
    </section>
  );
}
