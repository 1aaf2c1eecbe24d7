import { ActivityQuerySchema, LoanIdParamsSchema as LoanParams, type ActivityPage } from '../../shared/schemas/loans';
import { loanRoleOfRequest } from '../access/access';
import type { Feature } from '../app-context';
import type { Db } from '../db/client';
import { parseInput } from '../platform/http/problem';
import { ACTIVITY_PAGE_SIZE, activityPage, loanTeamName, type ActivityAudience } from './activity-log';
import { toActivityView } from './activity-view';

/**
 * The loan's activity, newest first, a page at a time. Each item's `id` is
 * its place in the reader's own sequence (the team's `seq`, the borrowers'
 * `shared_seq`), the cursor `before` and the realtime stream use; borrowers
 * get the shared rows only, through the borrower projection (data and actor).
 */
export async function loanActivity(db: Db, loanId: string, audience: ActivityAudience, before?: number): Promise<ActivityPage> {
  const rows = await activityPage(db, loanId, audience, before);
  const page = rows.slice(0, ACTIVITY_PAGE_SIZE);
  // Borrowers read what the team did as the team's doing: a name, never a person's id (decision 010).
  const teamName = audience === 'borrowers' ? ((await loanTeamName(db, loanId)) ?? '') : '';
  const items = page.flatMap((row) => toActivityView(row, audience, teamName) ?? []);
  return { items, nextBefore: rows.length > ACTIVITY_PAGE_SIZE ? (page.at(-1)?.cursor ?? null) : null };
}

/** What happened on a loan: read by everyone on it, written by the features through activity-log.ts. */
export const activityFeature: Feature = {
  name: 'activity',
  routes: async (app, { db }) => {
    app.get('/api/loans/:loanId/activity', { config: { access: 'loan', loanAction: 'view' } }, async (request) => {
      const { loanId } = parseInput(LoanParams, request.params);
      const { before } = parseInput(ActivityQuerySchema, request.query);
      return loanActivity(db, loanId, loanRoleOfRequest(request).kind === 'team' ? 'team' : 'borrowers', before);
    });
  },
};
