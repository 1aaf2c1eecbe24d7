import { EVERYONE_ON_LOAN, type LoanActionTable } from './access';

/**
 * A thread on a loan is shared (everyone on the loan) or internal (the team
 * only); replies inherit their thread's. Borrowers and third parties never
 * receive an internal comment or any trace of it.
 */
export const COMMENT_VISIBILITIES = ['shared', 'internal'] as const;
export type CommentVisibility = (typeof COMMENT_VISIBILITIES)[number];

/** The longest comment body, in characters. */
export const COMMENT_MAX_LENGTH = 5000;

/** How many comments (posts and edits) one person may send in a minute, across every loan. */
export const COMMENT_RATE_LIMIT = { perMinute: 30 } as const;

/** How many people one comment may @mention. */
export const COMMENT_MAX_MENTIONS = 20;

/** Threads per page of a loan's discussion (the newest first, shown oldest first). */
export const COMMENT_THREADS_PAGE_SIZE = 30;

/**
 * The comments' loan actions: everyone on the loan reads the discussion
 * (borrowers its shared threads only), writes in it and keeps a read cursor.
 * Who may edit or delete one comment (its author; an owner deletes too) is
 * the service's check on the comment, not a role's.
 */
export const COMMENT_ACTIONS = {
  'view-comments': EVERYONE_ON_LOAN,
  'post-comment': EVERYONE_ON_LOAN,
  'edit-comment': EVERYONE_ON_LOAN,
  'delete-comment': EVERYONE_ON_LOAN,
  'mark-comments-read': EVERYONE_ON_LOAN,
} as const satisfies LoanActionTable;
export type CommentAction = keyof typeof COMMENT_ACTIONS;
