import { keepPreviousData, queryOptions, useQueries, useQuery } from '@tanstack/react-query';
import type { LoanStage } from '../../../../shared/domain/loan-stages';
import type { PipelinePage } from '../../../../shared/schemas/loans';
import { apiFetch } from '../../../lib/api-client';
import { TEAM_SCOPE } from '../../../lib/query-client';

/** A query object as a query string ("?status=open&sort=…"; empty for none). */
export function queryString(query: Record<string, string>): string {
  const text = new URLSearchParams(query).toString();
  return text ? `?${text}` : '';
}

export const loansUrl = (teamId: string) => `/api/teams/${encodeURIComponent(teamId)}/loans`;

/** One page of the team's pipeline in a view (toApiQuery), with the loans per stage of that view. */
export function listPipeline(teamId: string, query: Record<string, string>, signal?: AbortSignal) {
  return apiFetch<PipelinePage>(`${loansUrl(teamId)}${queryString(query)}`, { signal });
}

/** Every view of the team's pipeline starts with this key: a stage change invalidates them all. */
export const pipelineKey = (teamId: string) => [TEAM_SCOPE, teamId, 'loans'] as const;

export const pipelineQueryOptions = (teamId: string, query: Record<string, string>) =>
  queryOptions({
    queryKey: [...pipelineKey(teamId), query],
    queryFn: ({ signal }) => listPipeline(teamId, query, signal),
    meta: { failure: 'Loading the pipeline failed' },
  });

/** The list: while another view loads, the last one stays in view, dimmed. */
export function usePipeline(teamId: string, query: Record<string, string>, { enabled = true } = {}) {
  return useQuery({ ...pipelineQueryOptions(teamId, query), placeholderData: keepPreviousData, enabled });
}

/** The board: one query per column (its stage's first cards), each keeping its cards while a newer view loads. */
export function usePipelineColumns(teamId: string, columns: { stage: LoanStage; query: Record<string, string> }[]) {
  return useQueries({
    queries: columns.map(({ query }) => ({ ...pipelineQueryOptions(teamId, query), placeholderData: keepPreviousData })),
  });
}
