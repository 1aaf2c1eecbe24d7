import { z } from 'zod';
import { NOTIFICATION_CHANNELS, NOTIFICATION_KINDS } from '../domain/notifications';

/** One row of a person's inbox: what it says and where it opens (a path under PUBLIC_URL, never a secret). */
export const NotificationViewSchema = z.object({
  id: z.number().int(),
  kind: z.enum(NOTIFICATION_KINDS),
  loanId: z.string().nullable(),
  title: z.string(),
  body: z.string().nullable(),
  path: z.string(),
  createdAt: z.string(),
  readAt: z.string().nullable(),
});
export type NotificationView = z.infer<typeof NotificationViewSchema>;

export const NOTIFICATION_PAGE_SIZE = 20;

/** `GET /api/me/notifications?before=<id>`: the page of rows older than `before`, newest first. */
export const ListNotificationsQuerySchema = z.strictObject({
  before: z.coerce
    .number({ error: 'before must be a notification id' })
    .int({ error: 'before must be a notification id' })
    .positive({ error: 'before must be a notification id' })
    .max(Number.MAX_SAFE_INTEGER, { error: 'before must be a notification id' })
    .optional(),
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int({ error: 'limit must be a whole number' })
    .min(1, { error: 'limit must be at least 1' })
    .max(100, { error: 'limit must be at most 100' })
    .optional(),
});
export type ListNotificationsQuery = z.infer<typeof ListNotificationsQuerySchema>;

export const NotificationPageSchema = z.object({
  notifications: z.array(NotificationViewSchema),
  /** The id to ask `before` for the next page; null on the last. */
  nextBefore: z.number().int().nullable(),
  unread: z.number().int().min(0),
});
export type NotificationPage = z.infer<typeof NotificationPageSchema>;

export const UnreadCountSchema = z.object({ unread: z.number().int().min(0) });
export type UnreadCount = z.infer<typeof UnreadCountSchema>;

/** A notification id as a URL spells it. */
export const NotificationId = z.coerce
  .number({ error: 'Not a notification id' })
  .int({ error: 'Not a notification id' })
  .positive({ error: 'Not a notification id' })
  .max(Number.MAX_SAFE_INTEGER, { error: 'Not a notification id' });

/** How a person hears of one kind; `fixed` kinds (invitations) are always e-mailed. */
export const NotificationPreferenceSchema = z.object({
  kind: z.enum(NOTIFICATION_KINDS),
  channel: z.enum(NOTIFICATION_CHANNELS),
  fixed: z.boolean(),
});
export type NotificationPreference = z.infer<typeof NotificationPreferenceSchema>;

export const NotificationPreferencesSchema = z.object({ preferences: z.array(NotificationPreferenceSchema) });
export type NotificationPreferences = z.infer<typeof NotificationPreferencesSchema>;

/** `PUT /api/me/notification-preferences`: the kinds to set, each `in_app` or `email` (kinds left out keep theirs). */
export const UpdateNotificationPreferencesSchema = z.strictObject({
  preferences: z
    .array(
      z.strictObject({
        kind: z.enum(NOTIFICATION_KINDS, { error: `kind must be one of ${NOTIFICATION_KINDS.join(', ')}` }),
        channel: z.enum(NOTIFICATION_CHANNELS, { error: 'channel must be in_app or email' }),
      }),
      { error: 'preferences must be a list of { kind, channel }' },
    )
    .max(NOTIFICATION_KINDS.length * 2, { error: 'Too many preferences' })
    .refine((list) => new Set(list.map((p) => p.kind)).size === list.length, { error: 'Each kind may appear once' }),
});
export type UpdateNotificationPreferences = z.infer<typeof UpdateNotificationPreferencesSchema>;

/** What `POST /unsubscribe` answers (JSON to our page, plain text to a mail client). */
export const UnsubscribedSchema = z.object({ kind: z.enum(NOTIFICATION_KINDS), unsubscribed: z.literal(true) });
export type Unsubscribed = z.infer<typeof UnsubscribedSchema>;
