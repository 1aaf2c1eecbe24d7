import { lazy } from 'react';
import type { AppRoute } from '../../lib/app-route';
import { paths } from '../../lib/paths';

/** The admin console, for platform admins; /app/admin opens the waitlist. */
export const adminRoutes: AppRoute[] = [
  {
    path: paths.admin,
    label: 'Admin',
    nav: 'Admin',
    guard: (me) => me.platformAdmin,
    pages: [
      { path: paths.adminWaitlist, page: lazy(() => import('./admin-waitlist-page')), tab: 'Waitlist' },
      { path: paths.adminAudit, page: lazy(() => import('./admin-audit-page')), tab: 'Audit log' },
    ],
  },
];
