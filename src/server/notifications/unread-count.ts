import type { Db } from '../db/client';
import { countUnread } from './notifications.queries';

/**
 * The person's unread inbox rows, as the bell shows them: the one count, read
 * by the inbox's API and by the live stream's `inbox` events alike, so the two
 * never disagree (rows of a loan the person has left are not counted).
 */
export const unreadNotificationCount = (db: Db, userId: string): Promise<number> => countUnread(db, userId);
