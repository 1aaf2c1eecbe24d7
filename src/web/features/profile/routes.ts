import { lazy } from 'react';
import type { AppRoute } from '../../lib/app-route';
import { paths } from '../../lib/paths';

export const profileRoutes: AppRoute[] = [{ path: paths.profile, page: lazy(() => import('./profile-page')) }];
