import { lazy } from 'react';
import { paths } from '../../lib/paths';
import type { AppRoute } from '../../lib/app-route';

export const profileRoutes: AppRoute[] = [{ path: paths.profile, page: lazy(() => import('./profile-page')) }];
