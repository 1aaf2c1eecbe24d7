import { adminRoutes } from '../features/admin/routes';
import { loansRoutes } from '../features/loans/routes';
import { myLoansRoutes } from '../features/my-loans/routes';
import { notificationsRoutes } from '../features/notifications/routes';
import { pipelineRoutes } from '../features/pipeline/routes';
import { profileRoutes } from '../features/profile/routes';
import { securityRoutes } from '../features/security/routes';
import { teamRoutes } from '../features/team/routes';
import type { AppRoute } from '../lib/app-route';

/**
 * Every feature of the signed-in app, in the order of the header's links.
 * The shell maps over this list: a new feature is its folder (with its
 * `routes.ts`) and one line here. Only the app shell's chunk imports it.
 */
export const appRoutes: AppRoute[] = [
  ...pipelineRoutes,
  ...myLoansRoutes,
  ...loansRoutes,
  ...teamRoutes,
  ...adminRoutes,
  ...profileRoutes,
  ...notificationsRoutes,
  ...securityRoutes,
];
