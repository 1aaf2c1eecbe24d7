/**
 * Every route of the web app, in one place: routes and links are built from
 * here, never by hand. A route with parameters keeps its pattern for the
 * router beside a builder for its links — `loan: '/app/loans/:loanId'` and
 * `loanHref: (loanId: string) => ...` — as `section` builds the landing
 * page's anchors.
 */
export const paths = {
  home: '/',
  signIn: '/signin',
  joinWaitlist: '/join-waitlist',
  dscrCalculator: '/dscr-calculator',
  invite: '/invite',
  /** A third party's upload link (`/upload#<token>`): no account, no navigation. */
  upload: '/upload',
  /** A notification mail's unsubscribe link (`/unsubscribe?token=…`): asks before it turns anything off, since link scanners open links. */
  unsubscribe: '/unsubscribe',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  app: '/app',
  /** The team's pipeline (list and board), where a team member's /app opens. */
  loans: '/app/loans',
  /** The loans this person follows as a borrower or co-borrower, where a borrower's /app opens. */
  myLoans: '/app/my-loans',
  loanNew: '/app/loans/new',
  loan: '/app/loans/:loanId',
  loanHref: (loanId: string) => `/app/loans/${encodeURIComponent(loanId)}`,
  team: '/app/team',
  teamNew: '/app/team/new',
  teamBranding: '/app/team/branding',
  teamAudit: '/app/team/audit',
  /** The team's checklist template: what new loans ask for. */
  teamTemplates: '/app/team/templates',
  profile: '/app/profile',
  /** The person's notifications, opened from the header's bell. */
  inbox: '/app/inbox',
  security: '/app/security',
  securitySetup: '/app/security/setup',
  admin: '/app/admin',
  adminWaitlist: '/app/admin/waitlist',
  adminAudit: '/app/admin/audit',
  section: (id: 'features' | 'how-it-works' | 'pricing') => `/#${id}`,
} as const;

/** The public pages prerendered at build time, with their titles and descriptions. */
export const publicPages = {
  home: {
    path: paths.home,
    title: (brand: string) => `${brand} — DSCR loan tracking for mortgage brokers`,
    description:
      'One shared loan file for every DSCR investor loan: a stage timeline, a document checklist with status tags, versioned encrypted uploads and threaded real-time comments.',
  },
  signIn: {
    path: paths.signIn,
    title: (brand: string) => `Sign In — ${brand}`,
    description: 'Sign in to your loan files.',
  },
  joinWaitlist: {
    path: paths.joinWaitlist,
    title: (brand: string) => `Join the Waitlist — ${brand}`,
    description: 'Be the first to know when the product launches. Get early access and exclusive updates.',
  },
  dscrCalculator: {
    path: paths.dscrCalculator,
    title: (brand: string) => `DSCR Calculator — ${brand}`,
    description:
      'Free DSCR calculator for investor loans: monthly P&I, PITIA and the debt-service coverage ratio with its band, the largest loan at your target DSCR and the rent it needs.',
  },
  notFound: {
    path: '/404',
    title: (brand: string) => `Page not found — ${brand}`,
    description: 'This page does not exist.',
  },
} as const;
export type PublicPageName = keyof typeof publicPages;
