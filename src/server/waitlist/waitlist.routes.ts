import type { FastifyInstance } from 'fastify';
import { JoinWaitlistSchema, type JoinWaitlistResult } from '../../shared/schemas/waitlist';
import { parseInput } from '../platform/http/problem';
import { joinWaitlist, type WaitlistDeps } from './waitlist.service';

export interface WaitlistRouteOptions extends Omit<WaitlistDeps, 'db'> {
  rateLimit: { max: number; windowMs: number };
  onJobsEnqueued: () => void;
}

export async function waitlistRoutes(app: FastifyInstance, options: WaitlistRouteOptions & { db: WaitlistDeps['db'] }) {
  app.post(
    '/api/waitlist',
    {
      bodyLimit: 16 * 1024,
      config: { access: 'public', rateLimit: { max: options.rateLimit.max, timeWindow: options.rateLimit.windowMs } },
    },
    async (request, reply) => {
      const input = parseInput(JoinWaitlistSchema, request.body);
      const outcome = await joinWaitlist(options, input);
      if (outcome !== 'ignored') options.onJobsEnqueued();
      request.log.info({ waitlist: outcome }, 'waitlist sign-up');
      // The same answer whatever happened: nobody learns whether an address was already listed.
      const result: JoinWaitlistResult = { status: 'received' };
      return reply.status(200).send(result);
    },
  );
}
