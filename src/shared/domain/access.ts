/**
 * Who may call what. Every API route declares one RouteAccess; the server's
 * access layer resolves the caller to a Principal and asks `decideAccess`,
 * giving it the team the route's `:teamId` names when there is one. Loan
 * roles are decided here too (`decideLoanAccess`), with the loan actions each
 * feature declares (`LoanActionTable`).
 */
export const ROUTE_ACCESS = [
  /** Anyone, signed in or not. */
  'public',
  /** Any signed-in person, before any team data (profile, MFA enrolment). */
  'signed-in',
  /**
   * The signed-in person's own things that carry loan data (their inbox, their
   * notification settings): signed in, and past enrolment for anyone who must
   * enrol an authenticator, as team data is.
   */
  'me',
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
   * assistants, its borrowers) that the route's `loanAction` allows
   * (`decideLoanAccess`, with the table of the feature that declares it).
   */
  'loan',
  /**
   * The holder of a live third-party upload link, by the token in its
   * `Authorization: Bearer` header and nothing else (no session): the link's
   * own item, to upload to it once. Anyone else is answered as for an
   * unknown route.
   */
  'upload-link',
] as const;
export type RouteAccess = (typeof ROUTE_ACCESS)[number];

/** The accesses a credential other than the session grants (a feature resolves the credential, `Feature.credentials`). */
export const CREDENTIAL_ACCESS = ['upload-link'] as const satisfies readonly RouteAccess[];
export type CredentialAccess = (typeof CREDENTIAL_ACCESS)[number];

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

/**
 * What a route acts on, as far as the access table needs it; features' resolvers fill it from the URL.
 * A feature that names a new kind of target adds its field by declaration merging
 * (`declare module '…/shared/domain/access' { interface AccessTarget { … } }`).
 */
export interface AccessTarget {
  /** The team a team-scoped route names. */
  teamId?: string;
  /** The caller's role on the loan a loan-scoped route names (none when there is no such loan). */
  loanRole?: LoanRole;
  /**
   * Something else the route names does not exist for this caller (an item of
   * another loan, an internal item asked for by a borrower): hidden, whatever
   * their role.
   */
  hidden?: boolean;
  /** For an `upload-link` route: the live link its token names (an unknown token resolves to nothing; a used, expired or withdrawn one is refused). */
  uploadLink?: { linkId: string; loanId: string; itemId: string };
}

/** `loanRoles`: for a `loan` route, the roles its loan action allows (from the features' tables). */
export function decideAccess(access: RouteAccess, principal: Principal, target: AccessTarget = {}, loanRoles?: readonly LoanRoleName[]): AccessDecision {
  if (access === 'public') return 'allow';
  // The link is the whole credential: whoever else calls, signed in or not, finds nothing there.
  if (access === 'upload-link') return target.uploadLink && !target.hidden ? 'allow' : 'hidden';
  if (principal.kind !== 'user') return access === 'platform-admin' ? 'hidden' : 'unauthenticated';
  if (target.hidden) return 'hidden';
  switch (access) {
    case 'signed-in':
      return 'allow';
    case 'me':
      return mustEnrolMfa(principal) ? 'mfa-required' : 'allow';
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
      return decideLoanAccess(loanRoles, target.loanRole ?? { kind: 'none' }, principal.mfaEnrolled);
  }
}

/** A person's role on one loan: through its team, as a participant, or none. */
export type LoanRole = { kind: 'team'; role: TeamRole } | { kind: 'participant'; role: LoanParticipantRole } | { kind: 'none' };

/** Every role a person can hold on a loan, by name: a team role or a participant role. */
export type LoanRoleName = TeamRole | LoanParticipantRole;

export const TEAM_ON_LOAN: readonly LoanRoleName[] = ['owner', 'assistant'];
export const EVERYONE_ON_LOAN: readonly LoanRoleName[] = ['owner', 'assistant', 'borrower', 'co_borrower'];

/**
 * What each loan role may do, by loan action: a feature declares the actions
 * its routes name (`config.loanAction`) with the roles allowed each one
 * (PRODUCT.md, "Who uses it"), and the access layer gathers every feature's
 * table at start. An action a role is not listed for is hidden (404).
 */
export type LoanActionTable = Readonly<Record<string, readonly LoanRoleName[]>>;

/** `allowed`: the roles the route's loan action names (none when the action is unknown: hidden). */
export function decideLoanAccess(allowed: readonly LoanRoleName[] | undefined, role: LoanRole, mfaEnrolled: boolean): AccessDecision {
  if (role.kind === 'none' || !allowed?.includes(role.role)) return 'hidden';
  if (role.kind === 'team' && !mfaEnrolled) return 'mfa-required';
  return 'allow';
}
