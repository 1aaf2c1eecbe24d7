import { formatMoment, type MomentFormat } from '../lib/dates';

/** A moment in the viewer's time zone (lib/dates.ts), machine-readable in `dateTime`. */
export function DateTime({ iso, format = 'date' }: { iso: string; format?: MomentFormat }) {
  return <time dateTime={iso}>{formatMoment(iso, format)}</time>;
}
