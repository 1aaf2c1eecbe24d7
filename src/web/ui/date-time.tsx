const FORMATS = {
  date: new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' }),
  dateTime: new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' }),
  precise: new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'medium' }),
};

/**
 * A moment in the viewer's time zone, machine-readable in `dateTime`:
 * "Jan 7, 2025" (date), "Jan 7, 2025, 3:04 PM" (dateTime) or with seconds (precise).
 */
export function DateTime({ iso, format = 'date' }: { iso: string; format?: keyof typeof FORMATS }) {
  return <time dateTime={iso}>{FORMATS[format].format(new Date(iso))}</time>;
}
