import { borrowerActivityActor, borrowerActivityData, isBorrowerActivityKind } from '../../shared/domain/borrower-view';
import type { ActivityView, ActivityVisibility } from '../../shared/schemas/loans';
import type { ActivityAudience } from './activity-log';

/** An activity row as activity-log.ts reads it, numbered in its reader's sequence (`cursor`). */
export interface ActivityRecord {
  cursor: number;
  kind: string;
  data: Record<string, unknown>;
  visibility: ActivityVisibility;
  at: Date;
  actorId: string | null;
  actorName: string | null;
}

/**
 * One row as its reader sees it: the team whole, a borrower through the
 * borrower projection (the listed kinds only, their listed keys, who did it as
 * a name: what the team did reads as `teamName`, decision 010). Null when a
 * borrower may not see the row at all. The activity route's pages and the
 * realtime stream both build their items here, so they cannot disagree.
 */
export function toActivityView(row: ActivityRecord, audience: ActivityAudience, teamName: string): ActivityView | null {
  const borrowers = audience === 'borrowers';
  if (borrowers && (row.visibility !== 'shared' || !isBorrowerActivityKind(row.kind))) return null;
  return {
    id: row.cursor,
    kind: row.kind,
    actor: borrowers ? borrowerActivityActor(row.kind, row.data, { teamName }) : row.actorId ? { id: row.actorId, name: row.actorName ?? '' } : null,
    data: borrowers ? borrowerActivityData(row.kind, row.data) : row.data,
    visibility: row.visibility,
    at: row.at.toISOString(),
  };
}
