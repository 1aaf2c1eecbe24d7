import { JoinWaitlistSchema, type JoinWaitlistResult } from '../../shared/schemas/waitlist';
import type { Feature } from '../app-context';
import { parseInput } from '../platform/http/problem';
import { joinWaitlist } from './waitlist.service';

export const waitlistFeature: Feature = {
  name: 'waitlist',
  routes: async (app, context) => {
    const { waitlistRateLimit: limit, notifyEmail } = context.config;
    app.post(
      '/api/waitlist',
      {
        bodyLimit: 16 * 1024,
        config: { access: 'public', rateLimit: { max: limit.max, timeWindow: limit.windowMs } },
      },
      async (request, reply) => {
        const input = parseInput(JoinWaitlistSchema, request.body);
        const outcome = await joinWaitlist({ ...context, notifyEmail }, input);
        request.log.info({ waitlist: outcome }, 'waitlist sign-up');
        // The same answer whatever happened: nobody learns whether an address was already listed.
        const result: JoinWaitlistResult = { status: 'received' };
        return reply.status(200).send(result);
      },
    );
  },
};
