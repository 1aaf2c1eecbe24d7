import { loansUrl, queryString } from './list-pipeline';

/** The CSV export of a view (every page of it, toApiQuery): a plain download link, so the browser streams it to a file. */
export function pipelineCsvUrl(teamId: string, query: Record<string, string>): string {
  return `${loansUrl(teamId)}.csv${queryString(query)}`;
}
