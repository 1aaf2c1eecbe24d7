import type { Feature } from '../app-context';
import { AuditQuerySchema } from '../../shared/schemas/audit';
import { TeamIdParamsSchema as TeamParams } from '../../shared/schemas/teams';
import { parseInput } from '../platform/http/problem';
import { listAudit } from './audit';

/** The audit log: a team's owners read their team's rows, platform admins every row. */
export const auditFeature: Feature = {
  name: 'audit',
  routes: async (app, { db }) => {
    app.get('/api/teams/:teamId/audit', { config: { access: 'team-owner' } }, async (request, reply) => {
      const { teamId } = parseInput(TeamParams, request.params);
      void reply.header('cache-control', 'no-store');
      return listAudit(db, { teamId }, parseInput(AuditQuerySchema, request.query));
    });

    app.get('/api/admin/audit', { config: { access: 'platform-admin' } }, async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      return listAudit(db, { teamId: null }, parseInput(AuditQuerySchema, request.query));
    });
  },
};
