import type { FastifyInstance } from 'fastify';
import { AppError } from '../../shared/errors';
import { EventsQuerySchema } from '../../shared/schemas/realtime';
import { sendUnknownApiRoute, signedInUser } from '../access/access';
import type { ActivityAudience } from '../activity/activity-log';
import type { Feature } from '../app-context';
import { sessionCookieReader } from '../auth/session-cookie';
import { toFetchHeaders } from '../platform/http/fetch-bridge';
import { parseInput } from '../platform/http/problem';
import { parseEventId } from './event-id';
import { audienceOf, RealtimeHub } from './hub';

/** Each app's hub, by its HTTP server (the same object in every plugin scope): tests reach it through `realtimeHubOf`. */
const hubs = new WeakMap<object, RealtimeHub>();

/** The hub serving this app's streams (tests send heartbeats through it, and count its streams). */
export function realtimeHubOf(app: FastifyInstance): RealtimeHub {
  const hub = hubs.get(app.server);
  if (!hub) throw new Error('realtimeHubOf: this app has no realtime hub');
  return hub;
}

/**
 * The live loan page: `GET /api/events?loans=…`, one Server-Sent Events
 * stream per browser tab for the loans the page shows and the person's inbox
 * (decision 020). Each loan is checked as a loan route checks `:loanId` (the
 * view action), so a loan the caller may not see answers exactly as an
 * unknown route does; the stream is checked again whenever access may have
 * changed, and ends when it has.
 */
export const realtimeFeature: Feature = {
  name: 'realtime',
  routes: async (app, { database, access, auth, logger, config }) => {
    const hub = new RealtimeHub({ database, access, ...(logger ? { logger } : {}) }, { streamsPerPerson: config.realtimeStreamsPerPerson });
    hubs.set(app.server, hub);
    // Before the server stops accepting: streams end with a retry hint instead of holding the close.
    app.addHook('preClose', async () => hub.close());
    app.addHook('onClose', async () => hub.close());
    const reader = sessionCookieReader(auth);

    app.get('/api/events', { config: { access: 'signed-in' } }, async (request, reply) => {
      const principal = signedInUser(request);
      const { loans, lastEventId: queryId } = parseInput(EventsQuerySchema, request.query);
      if (hub.isClosing) throw new AppError('unavailable', 'The server is restarting; connect again in a moment');
      const streamLoans: { loanId: string; audience: ActivityAudience }[] = [];
      for (const loanId of loans) {
        const { decision, role } = await access.decideLoanAction(principal, loanId, 'view');
        if (decision === 'hidden') return sendUnknownApiRoute(request, reply);
        if (decision === 'mfa-required') throw new AppError('mfa_required', 'Set up two-step verification to continue');
        if (decision !== 'allow') throw new AppError('unauthenticated', 'Sign in to continue');
        streamLoans.push({ loanId, audience: audienceOf(role) });
      }
      const headerId = request.headers['last-event-id'];
      const lastEventId = typeof headerId === 'string' && headerId.trim() !== '' ? headerId.trim() : queryId;
      const resume = lastEventId === undefined ? null : parseEventId(lastEventId, streamLoans);
      if (lastEventId !== undefined && !resume) {
        throw new AppError('validation_failed', 'Last-Event-ID: not an event id of this stream', [
          { field: 'lastEventId', message: 'Not an event id of this stream' },
        ]);
      }
      // The session the stream belongs to: when it ends, the stream ends.
      const token = (await reader).token(request.headers.cookie) ?? (await auth.api.getSession({ headers: toFetchHeaders(request) }))?.session.token ?? null;
      if (!token) throw new AppError('unauthenticated', 'Sign in to continue');
      await hub.ready;
      const stream = hub.open(principal.userId, token, request.sessionExpiresAt, streamLoans, resume);
      request.raw.on('close', () => stream.end('client-closed'));
      return reply
        .header('cache-control', 'no-cache, no-transform')
        .header('x-accel-buffering', 'no')
        .type('text/event-stream; charset=utf-8')
        .send(stream.body);
    });
  },
};
