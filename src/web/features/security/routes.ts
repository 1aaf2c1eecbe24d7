import { lazy } from 'react';
import type { AppRoute } from '../../lib/app-route';
import { paths } from '../../lib/paths';

export const securityRoutes: AppRoute[] = [
  { path: paths.security, page: lazy(() => import('./security-page')) },
  // Where the shell sends everyone who must enrol an authenticator first.
  { path: paths.securitySetup, page: lazy(() => import('./security-setup-page')) },
];
