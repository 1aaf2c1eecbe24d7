import type { Feature } from '../app-context';
import { z } from 'zod';
import { AppError } from '../../shared/errors';
import {
  ChangeRoleSchema,
  RemoveMemberSchema,
  CreateTeamSchema,
  InviteAssistantSchema,
  LOGO_MAX_BYTES,
  TeamIdParamsSchema as TeamParams,
  UpdateTeamSchema,
} from '../../shared/schemas/teams';
import { signedInUser } from '../access/access';
import { auditOrigin } from '../audit/audit';
import { parseInput } from '../platform/http/problem';
import { logoPath } from './logo';
import { findTeamLogo } from './teams.queries';
import * as teams from './teams.service';

const MemberParams = TeamParams.extend({ userId: z.string().min(1).max(64, { error: 'Not a member id' }) });
const InvitationParams = TeamParams.extend({ invitationId: z.uuid({ error: 'Not an invitation id' }) });
const LogoParams = z.object({ teamId: z.uuid({ error: 'Not a team id' }), version: z.string().regex(/^[0-9a-f]{16}$/, { error: 'Not a logo version' }) });

/** The bodies a logo upload may declare; the bytes themselves decide what it is. */
const LOGO_UPLOAD_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'application/octet-stream'];

/**
 * Teams: a broker founds one, its owners manage members, invitations and
 * branding, and every member reads it. The access layer has already checked
 * that the caller belongs to the `:teamId` of the URL (else 404), in the role
 * the route declares, with an authenticator enrolled.
 */
export const teamsFeature: Feature = {
  name: 'teams',
  // Team-scoped routes name their team in the URL; the access table compares it with the caller's.
  accessTargets: () => ({ teamId: (teamId) => ({ teamId }) }),
  routes: async (app, deps) => {
    // Logos arrive as the raw image body (this plugin only): no multipart framing to parse.
    app.addContentTypeParser(LOGO_UPLOAD_TYPES, { parseAs: 'buffer', bodyLimit: LOGO_MAX_BYTES }, (_request, body, done) => done(null, body));

    app.post('/api/teams', { bodyLimit: 4096, config: { access: 'broker' } }, async (request, reply) => {
      const input = parseInput(CreateTeamSchema, request.body);
      const created = await teams.createTeam(deps, signedInUser(request), input, auditOrigin(request));
      return reply.status(201).send(created);
    });

    app.get('/api/teams/:teamId', { config: { access: 'team-member' } }, async (request) => {
      const { teamId } = parseInput(TeamParams, request.params);
      return teams.getTeam(deps, signedInUser(request), teamId);
    });

    app.patch('/api/teams/:teamId', { bodyLimit: 4096, config: { access: 'team-owner' } }, async (request) => {
      const { teamId } = parseInput(TeamParams, request.params);
      const input = parseInput(UpdateTeamSchema, request.body);
      return teams.updateBranding(deps, signedInUser(request), teamId, input, auditOrigin(request));
    });

    app.put('/api/teams/:teamId/logo', { config: { access: 'team-owner' } }, async (request) => {
      const { teamId } = parseInput(TeamParams, request.params);
      if (!Buffer.isBuffer(request.body)) throw new AppError('unsupported_media_type', 'Send the logo as the request body, with an image Content-Type');
      return teams.setLogo(deps, signedInUser(request), teamId, request.body, auditOrigin(request));
    });

    app.delete('/api/teams/:teamId/logo', { config: { access: 'team-owner' } }, async (request) => {
      const { teamId } = parseInput(TeamParams, request.params);
      return teams.removeLogo(deps, signedInUser(request), teamId, auditOrigin(request));
    });

    app.get('/api/teams/:teamId/members', { config: { access: 'team-member' } }, async (request, reply) => {
      const { teamId } = parseInput(TeamParams, request.params);
      void reply.header('cache-control', 'no-store');
      return teams.listTeamMembers(deps, teamId, signedInUser(request).team?.role ?? 'assistant');
    });

    app.post(
      '/api/teams/:teamId/invitations',
      {
        bodyLimit: 4096,
        config: {
          access: 'team-owner',
          // Per team, whoever sends them: invitations are e-mails to strangers' inboxes.
          // Counted after the access layer (preHandler, not onRequest), so callers who may not
          // invite for the team, anyone who read its id in a logo URL, cannot spend its budget.
          rateLimit: {
            max: 30,
            timeWindow: 60 * 60_000,
            hook: 'preHandler',
            keyGenerator: (request) => `team-invitations:${(request.params as { teamId?: string }).teamId ?? ''}`,
          },
        },
      },
      async (request, reply) => {
        const { teamId } = parseInput(TeamParams, request.params);
        const { email } = parseInput(InviteAssistantSchema, request.body);
        const invitation = await teams.inviteAssistant(deps, signedInUser(request), teamId, email, auditOrigin(request));
        return reply.status(201).send(invitation);
      },
    );

    app.delete('/api/teams/:teamId/invitations/:invitationId', { config: { access: 'team-owner' } }, async (request, reply) => {
      const { teamId, invitationId } = parseInput(InvitationParams, request.params);
      await teams.revokeInvitation(deps, signedInUser(request), teamId, invitationId, auditOrigin(request));
      return reply.status(204).send();
    });

    app.patch('/api/teams/:teamId/members/:userId', { bodyLimit: 4096, config: { access: 'team-owner' } }, async (request, reply) => {
      const { teamId, userId } = parseInput(MemberParams, request.params);
      const { role } = parseInput(ChangeRoleSchema, request.body);
      await teams.changeRole(deps, signedInUser(request), teamId, userId, role, auditOrigin(request));
      return reply.status(204).send();
    });

    app.delete('/api/teams/:teamId/members/:userId', { bodyLimit: 4096, config: { access: 'team-owner' } }, async (request, reply) => {
      const { teamId, userId } = parseInput(MemberParams, request.params);
      // An optional body names the member who takes over their loans; without one they are left unassigned.
      const { handOverTo } = parseInput(RemoveMemberSchema, request.body ?? {});
      await teams.removeMember(deps, signedInUser(request), teamId, userId, auditOrigin(request), { handOverTo });
      return reply.status(204).send();
    });

    // Public: the logo heads the team's e-mails, which mail clients fetch without a session.
    app.get('/api/team-logos/:teamId/:version', { config: { access: 'public' } }, async (request, reply) => {
      const { teamId, version } = parseInput(LogoParams, request.params);
      const logo = await findTeamLogo(deps.db, teamId);
      if (!logo) throw new AppError('not_found', 'This team has no logo');
      const current = logoPath(teamId, logo.sha256)?.endsWith(version);
      return reply
        .type(logo.type)
        .header('cache-control', current ? 'public, max-age=31536000, immutable' : 'public, max-age=300')
        .header('cross-origin-resource-policy', 'cross-origin')
        .send(logo.bytes);
    });
  },
};
