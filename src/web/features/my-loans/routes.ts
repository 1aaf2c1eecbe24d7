import { lazy } from 'react';
import type { AppRoute } from '../../lib/app-route';
import { paths } from '../../lib/paths';

// Its own chunk: team members who follow no loan as a borrower never load it.
export const myLoansRoutes: AppRoute[] = [
  // Anyone who follows a loan as a borrower or co-borrower, team members of another team's loans included.
  { path: paths.myLoans, page: lazy(() => import('./my-loans-page')), nav: 'My loans', guard: (me) => me.participantLoans > 0 },
];
