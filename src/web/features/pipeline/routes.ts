import { lazy } from 'react';
import type { AppRoute } from '../../lib/app-route';
import { paths } from '../../lib/paths';
import AppHome from './app-home';

// /app is not lazy: the first page comes with the shell's chunk and shows as soon as the person is known.
export const pipelineRoutes: AppRoute[] = [
  { path: paths.app, page: AppHome },
  { path: paths.loans, page: lazy(() => import('./pipeline-page')), nav: 'Pipeline', guard: (me) => me.team !== null, wide: true },
];
