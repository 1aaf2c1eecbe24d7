import { lazy } from 'react';
import type { AppRoute } from '../../lib/app-route';
import { paths } from '../../lib/paths';

export const loansRoutes: AppRoute[] = [
  // Owners and assistants open loan files.
  { path: paths.loanNew, page: lazy(() => import('./new-loan-page')), guard: (me) => me.team !== null },
  // Team members and the loan's borrowers: the API answers each with what they may see, and 404 to anyone else.
  { path: paths.loan, page: lazy(() => import('./loan-page')) },
];
