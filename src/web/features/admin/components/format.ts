const DATE = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });
const DATE_TIME = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** "Jan 7, 2025", in the viewer's time zone. */
export const formatDate = (iso: string) => DATE.format(new Date(iso));
/** "Jan 7, 2025, 3:04 PM", in the viewer's time zone. */
export const formatDateTime = (iso: string) => DATE_TIME.format(new Date(iso));
