/**
 * Who may call what. Every API route declares one RouteAccess; the server's
 * access layer resolves the caller to a Principal and asks `decideAccess`,
 * giving it the team the route's `:teamId` names when there is one. Loan
 * roles are modelled here too (`decideLoanAccess`); the loan routes use them.
 */
export const ROUTE_ACCESS = [
  /** Anyone, signed in or not. */
  'public',
  /** Any signed-in person, before any team data (profile, MFA enrolment). */
  'signed-in',
  /** Platform admins, MFA enrolled (the waitlist, the platform's audit log). */
  'platform-admin',
  /** A broker invited to the platform, MFA enrolled, founding their team. */
  'broker',
  /** An owner or assistant of the route's team, MFA enrolled. */
  'team-member',
  /** An owner of the route's team, MFA enrolled. */
  'team-owner',
  /**
   * Someone with a role on the route's `:loanId` (its team's owners and
   * assistants, its borrowers) that allows the route's `loanAction`
   * (`decideLoanAccess`).
   */
  'loan',
] as const;
export type RouteAccess = (typeof ROUTE_ACCESS)[number];

export const TEAM_ROLES = ['owner', 'assistant'] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];

export const LOAN_PARTICIPANT_ROLES = ['borrower', 'co_borrower'] as const;
export type LoanParticipantRole = (typeof LOAN_PARTICIPANT_ROLES)[number];

export type Principal =
  | { kind: 'anonymous' }
  | {
      kind: 'user';
      userId: string;
      email: string;
      name: string;
      platformAdmin: boolean;
      /** Invited as a broker: may found a team. */
      broker: boolean;
      /** Has a verified TOTP authenticator (and so passed it at this session's sign-in). */
      mfaEnrolled: boolean;
      team: { id: string; role: TeamRole } | null;
    };

export type SignedInPrincipal = Extract<Principal, { kind: 'user' }>;

/**
 * `unauthenticated`: sign in first (401). `mfa-required`: enrol an
 * authenticator first (401 with code `mfa_required`). `hidden`: answer
 * exactly as for a route that does not exist (404), so nobody learns what is
 * there — never 403.
 */
export type AccessDecision = 'allow' | 'unauthenticated' | 'mfa-required' | 'hidden';

/**
 * Who must have an authenticator, and may not turn it off. Owners and
 * assistants see borrowers' financial records (the FTC Safeguards Rule wants
 * MFA before that), brokers are about to, and platform admins see every
 * waitlist entry's personal data and the whole audit log with client
 * addresses. Takes `/api/me`'s answer as well as a principal.
 */
export function requiresMfa(who: Pick<SignedInPrincipal, 'platformAdmin' | 'broker'> & { team: unknown }): boolean {
  return who.platformAdmin || who.broker || who.team !== null;
}

/** Must enrol an authenticator before anything but their profile and the enrolment itself. */
export function mustEnrolMfa(principal: SignedInPrincipal): boolean {
  return !principal.mfaEnrolled && requiresMfa(principal);
}

/** What a route acts on, as far as the access table needs it; features' resolvers fill it from the URL. */
export interface AccessTarget {
  /** The team a team-scoped route names. */
  teamId?: string;
  /** The caller's role on the loan a loan-scoped route names (none when there is no such loan). */
  loanRole?: LoanRole;
}

export function decideAccess(access: RouteAccess, principal: Principal, target: AccessTarget = {}, loanAction?: LoanAction): AccessDecision {
  if (access === 'public') return 'allow';
  if (principal.kind !== 'user') return access === 'platform-admin' ? 'hidden' : 'unauthenticated';
  switch (access) {
    case 'signed-in':
      return 'allow';
    case 'platform-admin':
      if (!principal.platformAdmin) return 'hidden';
      return principal.mfaEnrolled ? 'allow' : 'mfa-required';
    case 'broker':
      if (!principal.broker) return 'hidden';
      return principal.mfaEnrolled ? 'allow' : 'mfa-required';
    case 'team-member':
    case 'team-owner': {
      const { team } = principal;
      if (!team || !target.teamId || team.id !== target.teamId) return 'hidden';
      if (access === 'team-owner' && team.role !== 'owner') return 'hidden';
      return principal.mfaEnrolled ? 'allow' : 'mfa-required';
    }
    case 'loan':
      if (!loanAction) return 'hidden';
      return decideLoanAccess(loanAction, target.loanRole ?? { kind: 'none' }, principal.mfaEnrolled);
  }
}

/** A person's role on one loan: through its team, as a participant, or none. */
export type LoanRole = { kind: 'team'; role: TeamRole } | { kind: 'participant'; role: LoanParticipantRole } | { kind: 'none' };

export const LOAN_ACTIONS = [
  'view',
  'view-internal',
  'comment',
  'upload',
  'review-documents',
  'edit-loan',
  'change-stage',
  'invite-participant',
  'delete-loan',
] as const;
export type LoanAction = (typeof LOAN_ACTIONS)[number];

/**
 * What each loan role may do (PRODUCT.md, "Who uses it"). Assistants do
 * everything on loans except deleting them; borrowers see and add to what is
 * shared with them. Anything not listed is hidden (404).
 */
export const LOAN_PERMISSIONS: Record<'owner' | 'assistant' | LoanParticipantRole, readonly LoanAction[]> = {
  owner: LOAN_ACTIONS,
  assistant: ['view', 'view-internal', 'comment', 'upload', 'review-documents', 'edit-loan', 'change-stage', 'invite-participant'],
  borrower: ['view', 'comment', 'upload'],
  co_borrower: ['view', 'comment', 'upload'],
};

export function decideLoanAccess(action: LoanAction, role: LoanRole, mfaEnrolled: boolean): AccessDecision {
  if (role.kind === 'none') return 'hidden';
  if (!LOAN_PERMISSIONS[role.role].includes(action)) return 'hidden';
  if (role.kind === 'team' && !mfaEnrolled) return 'mfa-required';
  return 'allow';
}
