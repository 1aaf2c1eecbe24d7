import { z } from 'zod';
import { LOAN_PARTICIPANT_ROLES, type LoanParticipantRole } from '../domain/access';
import type { MyLoanCard } from '../domain/borrower-view';
import { LoanId } from './loan-id';
import { text } from './text';

/** POST /api/loans/:loanId/invitations: a borrower or co-borrower, by e-mail. */
export const InviteParticipantSchema = z.strictObject({
  email: text('E-mail')
    .trim()
    .min(1, { error: 'Enter an e-mail address' })
    .max(254, { error: 'E-mail must be at most 254 characters' })
    .pipe(z.email({ error: 'Enter a valid e-mail address' })),
  role: z.enum(LOAN_PARTICIPANT_ROLES, { error: 'Choose borrower or co-borrower' }),
});
export type InviteParticipant = z.infer<typeof InviteParticipantSchema>;

export const LoanInvitationParamsSchema = z.object({
  loanId: LoanId,
  invitationId: z.uuid({ error: 'Not an invitation id' }),
});

export const LoanParticipantParamsSchema = z.object({
  loanId: LoanId,
  userId: text('Participant').min(1).max(64, { error: 'Not a participant of this loan' }),
});

export const PARTICIPANT_ROLE_LABELS: Readonly<Record<LoanParticipantRole, string>> = { borrower: 'Borrower', co_borrower: 'Co-borrower' };

export interface LoanParticipantView {
  userId: string;
  name: string;
  email: string;
  role: LoanParticipantRole;
  joinedAt: string;
}

export interface LoanInvitationView {
  id: string;
  email: string;
  role: LoanParticipantRole;
  createdAt: string;
  expiresAt: string;
  expired: boolean;
}

/** GET /api/loans/:loanId/participants (owners and assistants). */
export interface LoanParticipants {
  participants: LoanParticipantView[];
  invitations: LoanInvitationView[];
}

/** GET /api/my-loans: the caller's loans as a borrower or co-borrower, newest activity first. */
export interface MyLoans {
  loans: MyLoanCard[];
}
