import { lazy } from 'react';
import type { AppRoute, Guard } from '../../lib/app-route';
import { paths } from '../../lib/paths';
import { NoLongerMember } from './no-longer-member';

const owner: Guard = (me) => me.team?.role === 'owner';

export const teamRoutes: AppRoute[] = [
  // A broker founds their team here (outside the team's area: they have none yet).
  { path: paths.teamNew, page: lazy(() => import('./create-team-page')), guard: (me) => me.broker },
  {
    path: paths.team,
    label: 'Team',
    nav: 'Team',
    guard: (me) => me.team !== null,
    refused: NoLongerMember,
    pages: [
      { path: paths.team, page: lazy(() => import('./team-members-page')), tab: 'Members' },
      { path: paths.teamBranding, page: lazy(() => import('./team-branding-page')), guard: owner, tab: 'Branding' },
      // Everyone in the team reads it; owners edit it.
      { path: paths.teamTemplates, page: lazy(() => import('./team-templates-page')), tab: 'Checklist template' },
      { path: paths.teamAudit, page: lazy(() => import('./team-audit-page')), guard: owner, tab: 'Audit log' },
    ],
  },
];
