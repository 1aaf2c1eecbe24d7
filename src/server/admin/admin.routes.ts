import { auditOrigin } from '../audit/audit';
import type { FastifyReply } from 'fastify';
import type { Feature } from '../app-context';
import { JobParamsSchema, ListJobsQuerySchema, ListWaitlistQuerySchema, WaitlistEntryParamsSchema } from '../../shared/schemas/admin';
import { signedInUser } from '../access/access';
import { parseInput } from '../platform/http/problem';
import { exportWaitlistCsv, inviteBroker, listFailedJobs, listWaitlist, retryJob } from './admin.service';

/**
 * Waitlist entries are personal data: no cache keeps them. Set per answer,
 * not in a hook, so a hidden route's 404 stays identical to an unknown one's.
 */
const noStore = (reply: FastifyReply) => reply.header('cache-control', 'no-store');

/** The platform admins' console: the waitlist (list, CSV, invite as broker) and the failed background jobs. */
export const adminFeature: Feature = {
  name: 'admin',
  routes: async (app, deps) => {
    app.get('/api/admin/waitlist', { config: { access: 'platform-admin' } }, async (request, reply) => {
      const query = parseInput(ListWaitlistQuerySchema, request.query);
      noStore(reply);
      return listWaitlist(deps, query);
    });

    app.get('/api/admin/waitlist.csv', { config: { access: 'platform-admin' } }, async (request, reply) => {
      const query = parseInput(ListWaitlistQuerySchema, request.query);
      const { filename, body } = await exportWaitlistCsv(deps, query);
      noStore(reply);
      return reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${filename}"`).send(body);
    });

    app.post('/api/admin/waitlist/:id/invite', { config: { access: 'platform-admin' } }, async (request) => {
      const { id } = parseInput(WaitlistEntryParamsSchema, request.params);
      const admin = signedInUser(request);
      const result = await inviteBroker(deps, { entryId: id, inviter: { id: admin.userId, email: admin.email }, origin: auditOrigin(request) });
      request.log.info({ waitlistEntry: id }, 'waitlist entry invited as broker');
      return result;
    });

    app.get('/api/admin/jobs', { config: { access: 'platform-admin' } }, async (request, reply) => {
      const query = parseInput(ListJobsQuerySchema, request.query);
      noStore(reply);
      return listFailedJobs(deps, query);
    });

    app.post('/api/admin/jobs/:id/retry', { config: { access: 'platform-admin' } }, async (request) => {
      const { id } = parseInput(JobParamsSchema, request.params);
      const result = await retryJob(deps, id);
      request.log.info({ job: id }, 'dead job queued again by an admin');
      return result;
    });
  },
};
