import type { CommentVisibility } from '../../../../shared/domain/comments';
import { LOAN_SCOPE } from './get-loan';

/**
 * The query keys of a loan's discussion, in one place: the realtime stream
 * invalidates `commentsQueryKey(loanId)` (which covers each item's threads
 * too, as a prefix) and `readCursorQueryKey(loanId)` when a comment event
 * arrives.
 */
export const commentsQueryKey = (loanId: string) => [LOAN_SCOPE, loanId, 'comments'] as const;

/** The threads about one checklist item (under the discussion's key, so invalidating that refreshes them too). */
export const itemCommentsQueryKey = (loanId: string, itemId: string) => [...commentsQueryKey(loanId), 'item', itemId] as const;

/** The caller's read cursor and unread count on the loan. */
export const readCursorQueryKey = (loanId: string) => [LOAN_SCOPE, loanId, 'read-cursor'] as const;

/** Who may be @mentioned in a comment of this visibility (not under the discussion's key: new comments do not change it). */
export const mentionCandidatesQueryKey = (loanId: string, visibility: CommentVisibility) => [LOAN_SCOPE, loanId, 'mention-candidates', visibility] as const;

export const commentsPath = (loanId: string) => `/api/loans/${encodeURIComponent(loanId)}/comments`;
