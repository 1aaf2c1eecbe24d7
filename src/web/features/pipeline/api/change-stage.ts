import { useMutation, useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { isExitStage, loanProgress, type LoanStage, type MainStage } from '../../../../shared/domain/loan-stages';
import type { ChangeStage, LoanDetail, PipelinePage, PipelineRow } from '../../../../shared/schemas/loans';
import { apiFetch } from '../../../lib/api-client';
import { pipelineKey } from './list-pipeline';

/** POST /api/loans/:loanId/stage: `from` is the stage the mover saw; a loan moved meanwhile is a 409. */
export function changeStage(loanId: string, input: ChangeStage) {
  return apiFetch<LoanDetail>(`/api/loans/${encodeURIComponent(loanId)}/stage`, { body: input });
}

export interface StageMove {
  row: PipelineRow;
  to: LoanStage;
  /** The reason, for an exit; an optional note otherwise. */
  note?: string;
}

const isPage = (data: unknown): data is PipelinePage => typeof data === 'object' && data !== null && Array.isArray((data as PipelinePage).rows);

/** The stages a cached view is narrowed to (a board column's one stage), from its query key. */
function stagesOf(key: QueryKey): LoanStage[] | null {
  const query = key[3] as Record<string, string> | undefined;
  return query?.stage ? (query.stage.split(',') as LoanStage[]) : null;
}

/**
 * A move as every cached view of the pipeline will show it: the card leaves
 * its column and joins the new one, the row's stage, progress and days
 * change, and the counts follow. The server's answer replaces it.
 */
export function showMove(queryClient: QueryClient, teamId: string, { row, to }: StageMove) {
  const from = row.stage;
  const leftFrom: MainStage | null = isExitStage(to) ? (isExitStage(from) ? null : from) : null;
  const moved: PipelineRow = {
    ...row,
    stage: to,
    leftFromStage: leftFrom,
    daysInStage: 0,
    progress: loanProgress(to, { leftFrom, requiredItems: row.requiredDocuments, approvedRequiredItems: row.approvedDocuments }),
    lastActivityAt: new Date().toISOString(),
  };
  for (const [key, data] of queryClient.getQueriesData<PipelinePage>({ queryKey: pipelineKey(teamId) })) {
    if (!isPage(data)) continue;
    const stages = stagesOf(key);
    const present = data.rows.some((r) => r.id === row.id);
    const belongs = !stages || stages.includes(to);
    let { rows, total } = data;
    if (present && belongs) rows = rows.map((r) => (r.id === row.id ? moved : r));
    else if (present) [rows, total] = [rows.filter((r) => r.id !== row.id), total - 1];
    else if (stages && belongs && data.page === 1) [rows, total] = [[moved, ...rows], total + 1];
    const stageCounts = { ...data.stageCounts };
    if (present || (stages && belongs)) {
      stageCounts[from] = Math.max(0, (stageCounts[from] ?? 1) - 1);
      stageCounts[to] = (stageCounts[to] ?? 0) + 1;
    }
    queryClient.setQueryData(key, { ...data, rows, total, stageCounts });
  }
}

/**
 * Moves a loan to another stage from the pipeline: shown at once in every
 * view (showMove), put back as it was if the server refuses, and read again
 * either way.
 */
export function useChangeStage(teamId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ row, to, note }: StageMove) => changeStage(row.id, { from: row.stage, to, ...(note ? { note } : {}) }),
    onMutate: async (move) => {
      await queryClient.cancelQueries({ queryKey: pipelineKey(teamId) });
      const before = queryClient.getQueriesData({ queryKey: pipelineKey(teamId) });
      showMove(queryClient, teamId, move);
      return { before };
    },
    onError: (_error, _move, context) => {
      for (const [key, data] of context?.before ?? []) queryClient.setQueryData(key, data);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: pipelineKey(teamId) }),
  });
}
