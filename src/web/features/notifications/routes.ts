import { lazy } from 'react';
import type { AppRoute } from '../../lib/app-route';
import { paths } from '../../lib/paths';

/** The inbox has no header link of its own: the header's bell opens it (app/shell/app-header.tsx). */
export const notificationsRoutes: AppRoute[] = [{ path: paths.inbox, page: lazy(() => import('./inbox-page')) }];
