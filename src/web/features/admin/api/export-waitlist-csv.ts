import type { ListWaitlistQueryInput } from '../../../../shared/schemas/admin';
import { waitlistQueryString } from './list-waitlist';

/** The CSV export of a waitlist view: a plain download link, so the browser streams it to a file. */
export function waitlistCsvUrl(query: ListWaitlistQueryInput): string {
  return `/api/admin/waitlist.csv${waitlistQueryString(query)}`;
}
