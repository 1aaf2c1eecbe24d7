/**
 * Who may call what. Every API route declares one RouteAccess; the server's
 * access layer resolves the caller to a Principal and asks `decideAccess`.
 * Loan- and team-scoped rules join this table with the features that need them.
 */
export const ROUTE_ACCESS = ['public', 'signed-in', 'platform-admin'] as const;
export type RouteAccess = (typeof ROUTE_ACCESS)[number];

export type Principal =
  | { kind: 'anonymous' }
  | { kind: 'user'; userId: string; email: string; name: string; platformAdmin: boolean };

/**
 * `unauthenticated`: sign in first (401). `hidden`: answer exactly as for a
 * route that does not exist (404), so nobody learns what is there.
 */
export type AccessDecision = 'allow' | 'unauthenticated' | 'hidden';

export function decideAccess(access: RouteAccess, principal: Principal): AccessDecision {
  switch (access) {
    case 'public':
      return 'allow';
    case 'signed-in':
      return principal.kind === 'user' ? 'allow' : 'unauthenticated';
    case 'platform-admin':
      return principal.kind === 'user' && principal.platformAdmin ? 'allow' : 'hidden';
  }
}
