import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { NOTIFICATION_KIND_LABELS, NOTIFICATION_KINDS, TRANSACTIONAL_KINDS } from '../../shared/domain/notifications';
import { AppError, invalidField } from '../../shared/errors';
import {
  ListNotificationsQuerySchema,
  NOTIFICATION_PAGE_SIZE,
  NotificationId,
  UpdateNotificationPreferencesSchema,
  type NotificationPage,
  type NotificationPreferences,
  type NotificationView,
  type UnreadCount,
} from '../../shared/schemas/notifications';
import { signedInUser } from '../access/access';
import type { AppContext, Feature } from '../app-context';
import type { Db } from '../db/client';
import { parseInput } from '../platform/http/problem';
import { signalInbox } from '../platform/realtime/signals';
import { COMMENT_DIGEST_QUEUE, commentDigestJob } from './comment-notifications';
import { commentSnippet } from './notifications.mail';
import { countUnread, listNotifications, markAllRead, markRead, preferencesOf, setPreferences, type InboxRow } from './notifications.queries';
import { verifyUnsubscribeToken } from './unsubscribe-token';

const FORM = 'application/x-www-form-urlencoded';

/** What a row about a deleted comment says in place of its text, which is kept nowhere (decision 019). */
const DELETED_COMMENT_BODY = 'This comment was deleted.';

/** The body a row shows: a comment's quoted as it is now (its current text, or that it was deleted), anything else's as written. */
function bodyOf({ row, quoted }: InboxRow): string | null {
  if (row.commentId) return !quoted || quoted.deletedAt ? DELETED_COMMENT_BODY : commentSnippet(quoted.body);
  const body = (row.data as { body?: unknown }).body;
  return typeof body === 'string' ? body : null;
}

function view(source: InboxRow): NotificationView {
  const { row } = source;
  const data = row.data as { title?: unknown; path?: unknown };
  return {
    id: row.id,
    kind: row.kind,
    loanId: row.loanId,
    title: typeof data.title === 'string' ? data.title : '',
    body: bodyOf(source),
    path: typeof data.path === 'string' ? data.path : '/app',
    createdAt: row.createdAt.toISOString(),
    readAt: row.readAt ? row.readAt.toISOString() : null,
  };
}

async function preferencesView(db: Db, userId: string): Promise<NotificationPreferences> {
  const emails = await preferencesOf(db, userId);
  return {
    preferences: NOTIFICATION_KINDS.map((kind) => {
      const fixed = TRANSACTIONAL_KINDS.includes(kind);
      return { kind, channel: fixed || emails[kind] ? 'email' : 'in_app', fixed };
    }),
  };
}

/**
 * RFC 8058's one-click unsubscribe: a mail client (or our confirmation page)
 * posts `List-Unsubscribe=One-Click`, form-encoded, to the URL of the mail's
 * `List-Unsubscribe` header. No cookie, no Origin rule (the route says so to
 * the Origin check), no redirect: the signed token is the whole credential,
 * and it turns e-mail off for one person and one kind, as often as it is sent.
 */
async function unsubscribeRoute(app: FastifyInstance, { db, config }: Pick<AppContext, 'db' | 'config'>) {
  // Form bodies are parsed in this scope only: the API speaks JSON.
  app.addContentTypeParser(FORM, { parseAs: 'string', bodyLimit: 1024 }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
  app.post('/unsubscribe', { bodyLimit: 1024, config: { crossSitePost: true } }, async (request: FastifyRequest, reply: FastifyReply) => {
    void reply.header('cache-control', 'no-store');
    const contentType = String(request.headers['content-type'] ?? '');
    const body = request.body as Record<string, unknown> | undefined;
    if (!contentType.toLowerCase().startsWith(FORM) || body?.['List-Unsubscribe'] !== 'One-Click') {
      throw new AppError('bad_request', `Send List-Unsubscribe=One-Click as ${FORM} (RFC 8058)`);
    }
    const token = (request.query as Record<string, unknown>).token;
    const signed = typeof token === 'string' && config.authSecret ? verifyUnsubscribeToken(config.authSecret, token) : null;
    if (!signed || TRANSACTIONAL_KINDS.includes(signed.kind)) throw new AppError('bad_request', 'This unsubscribe link is not valid');
    await db.transaction(async (tx) => {
      if (await setPreferences(tx, signed.userId, [{ kind: signed.kind, email: false }])) await signalInbox(tx, signed.userId);
    });
    return reply
      .status(200)
      .type('text/plain; charset=utf-8')
      .send(`Unsubscribed: no more e-mails about ${NOTIFICATION_KIND_LABELS[signed.kind].toLowerCase()}. They stay in your inbox in the app.\n`);
  });
}

/** The inbox, the choices per kind, and the one-click unsubscribe (decision 021). */
export const notificationsFeature: Feature = {
  name: 'notifications',
  jobs: (context) => ({ [COMMENT_DIGEST_QUEUE]: commentDigestJob(context) }),
  routes: async (app, context) => {
    const { db } = context;

    app.get('/api/me/notifications', { config: { access: 'me' } }, async (request): Promise<NotificationPage> => {
      const { userId } = signedInUser(request);
      const { before, limit = NOTIFICATION_PAGE_SIZE } = parseInput(ListNotificationsQuerySchema, request.query);
      const rows = await listNotifications(db, userId, { before, limit });
      const page = rows.slice(0, limit);
      return {
        notifications: page.map(view),
        nextBefore: rows.length > limit ? (page.at(-1)?.row.id ?? null) : null,
        unread: await countUnread(db, userId),
      };
    });

    app.get('/api/me/notifications/unread-count', { config: { access: 'me' } }, async (request): Promise<UnreadCount> => {
      return { unread: await countUnread(db, signedInUser(request).userId) };
    });

    app.post('/api/me/notifications/:notificationId/read', { config: { access: 'me' } }, async (request): Promise<UnreadCount> => {
      const { userId } = signedInUser(request);
      const id = parseInput(NotificationId, (request.params as { notificationId: string }).notificationId);
      await db.transaction(async (tx) => {
        if (!(await markRead(tx, userId, id))) throw new AppError('not_found', 'This notification does not exist');
        // The person's other tabs hear their count changed.
        await signalInbox(tx, userId);
      });
      return { unread: await countUnread(db, userId) };
    });

    app.post('/api/me/notifications/read-all', { config: { access: 'me' } }, async (request): Promise<UnreadCount> => {
      const { userId } = signedInUser(request);
      await db.transaction(async (tx) => {
        if ((await markAllRead(tx, userId)) > 0) await signalInbox(tx, userId);
      });
      return { unread: await countUnread(db, userId) };
    });

    app.get('/api/me/notification-preferences', { config: { access: 'me' } }, async (request) => preferencesView(db, signedInUser(request).userId));

    app.put('/api/me/notification-preferences', { bodyLimit: 8192, config: { access: 'me' } }, async (request) => {
      const { userId } = signedInUser(request);
      const { preferences } = parseInput(UpdateNotificationPreferencesSchema, request.body);
      preferences.forEach(({ kind, channel }, index) => {
        if (TRANSACTIONAL_KINDS.includes(kind) && channel !== 'email') {
          throw invalidField(`preferences.${index}.channel`, `${NOTIFICATION_KIND_LABELS[kind]} are always e-mailed: their link is only in the mail`);
        }
      });
      await setPreferences(
        db,
        userId,
        preferences.filter((p) => !TRANSACTIONAL_KINDS.includes(p.kind)).map((p) => ({ kind: p.kind, email: p.channel === 'email' })),
      );
      return preferencesView(db, userId);
    });

    await app.register(async (scope) => unsubscribeRoute(scope, context));
  },
};
