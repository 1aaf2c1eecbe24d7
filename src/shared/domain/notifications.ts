/**
 * The kinds of notification a person gets, in the inbox and (if they chose)
 * by e-mail. Each person picks per kind: in-app only, or e-mail too; every
 * mail carries a one-click unsubscribe for its kind (RFC 8058).
 */
export const NOTIFICATION_KINDS = [
  'invitation',
  'documents_requested',
  'document_uploaded',
  'needs_revision',
  'approved',
  'comment',
  'mention',
  'stage_change',
  'reminder',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/**
 * Whom a notice about a loan is written for, kept on its inbox row and its
 * mail: the loan's team alone (an internal comment, an upload to the
 * assignee), or everyone on the loan (a shared comment, a stage change to the
 * borrowers). A row shows, and a mail goes, only while its person's role on
 * the loan may read that audience: a team member reads both, a borrower
 * `shared` only.
 */
export const NOTICE_AUDIENCES = ['team', 'shared'] as const;
export type NoticeAudience = (typeof NOTICE_AUDIENCES)[number];

/** How a person hears about one kind: in the inbox only, or by e-mail too (the default). */
export const NOTIFICATION_CHANNELS = ['in_app', 'email'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

/** What each kind is called where a person chooses how to hear of it. */
export const NOTIFICATION_KIND_LABELS: Record<NotificationKind, string> = {
  invitation: 'Invitations',
  documents_requested: 'Documents requested of you',
  document_uploaded: 'Documents uploaded to your loans',
  needs_revision: 'Documents sent back for a new version',
  approved: 'Documents approved',
  comment: 'Comments and replies in your threads',
  mention: '@mentions of you',
  stage_change: 'Your loan moving to its next stage',
  reminder: 'Reminders of documents you owe',
};

/**
 * Kinds that are always e-mailed and carry no unsubscribe: an invitation's
 * link exists only in its mail (RFC 8058 §1: transactional mail is not a list).
 */
export const TRANSACTIONAL_KINDS: readonly NotificationKind[] = ['invitation'];

export const isNotificationKind = (value: string): value is NotificationKind => (NOTIFICATION_KINDS as readonly string[]).includes(value);

/** Where a notification about a loan, an item or a comment opens in the app (paths under PUBLIC_URL). */
export const noticePaths = {
  loan: (loanId: string) => `/app/loans/${loanId}`,
  item: (loanId: string, itemId: string) => `/app/loans/${loanId}#item-${itemId}`,
  comment: (loanId: string, commentId: string) => `/app/loans/${loanId}#comment-${commentId}`,
};

/** The kind an unsubscribe token names (`<person>.<kind>.<signature>`), read without checking it: what the confirmation page says it turns off. */
export function kindOfUnsubscribeToken(token: string): NotificationKind | null {
  const kind = token.split('.')[1] ?? '';
  return isNotificationKind(kind) ? kind : null;
}
