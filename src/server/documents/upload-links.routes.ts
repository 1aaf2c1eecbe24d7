import type { FastifyRequest } from 'fastify';
import { ItemIdParamsSchema as ItemParams } from '../../shared/schemas/checklist';
import { StartUploadSchema } from '../../shared/schemas/documents';
import {
  LinkUploadFileParamsSchema,
  LinkUploadParamsSchema,
  SendUploadLinkSchema,
  UPLOAD_LINK_ACTIONS,
  UploadLinkParamsSchema,
  type LinkUploadReceipt,
} from '../../shared/schemas/upload-links';
import { signedInUser } from '../access/access';
import { loanTeamName } from '../activity/activity-log';
import type { Feature } from '../app-context';
import { auditOrigin } from '../audit/audit';
import { parseInput } from '../platform/http/problem';
import * as documents from './documents.service';
import { registerUploadBody, storeRequestBody } from './upload-body';
import * as q from './upload-links.queries';
import * as service from './upload-links.service';

const item = '/api/loans/:loanId/checklist/items/:itemId';
/** A link's holder reaches these by its token alone (the `Authorization: Bearer` header), never by a URL that holds it. */
const link = '/api/upload-link';

/** The link the access layer resolved from the request's token: the route is reached only with one. */
function grantOf(request: FastifyRequest) {
  const grant = request.accessTarget?.uploadLink;
  if (!grant) throw new Error(`unreachable: ${request.method} ${request.routeOptions.url} reached without an upload link`);
  return grant;
}

/**
 * The link routes count each client but say nothing of it until it is over
 * its limit: their answer without a usable token is an unknown route's, every
 * header alike, and `x-ratelimit-*` headers would show the route is there.
 */
const quietLimit = {
  addHeadersOnExceeding: { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false },
  addHeaders: { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false, 'retry-after': true },
} as const;
/** Per client address: enough for one person sending twenty files and retrying a few, far too few to guess at tokens. */
const linkLimit = { max: 60, timeWindow: 60_000, ...quietLimit };
const fileLimit = { max: 120, timeWindow: 60_000, ...quietLimit };

/**
 * Third parties' upload links (decision 016). The team sends, lists and
 * withdraws them on a third-party item; the link's holder, with no account,
 * reads what is asked of them and uploads one version to that item, through
 * the same upload code as everyone else (`documents.service`, actor `link`).
 * Nothing else of the loan is reachable with a link: no versions, no files.
 */
export const uploadLinksFeature: Feature = {
  name: 'upload-links',
  loanActions: UPLOAD_LINK_ACTIONS,
  credentials: ({ db }) => ({ 'upload-link': (request) => service.resolveLinkCredential(db, request.headers.authorization) }),
  accessTargets: ({ db }) => ({
    linkId: async (linkId, request) => {
      const parsed = UploadLinkParamsSchema.safeParse({ ...(request.params as object), linkId });
      if (!parsed.success) return { hidden: true };
      const found = await q.findLink(db, parsed.data.linkId);
      return found && found.itemId === parsed.data.itemId && found.loanId === parsed.data.loanId ? {} : { hidden: true };
    },
  }),
  routes: async (app, deps) => {
    const small = { bodyLimit: 16 * 1024 };
    const manage = { access: 'loan', loanAction: 'manage-upload-links' } as const;

    app.post(`${item}/upload-links`, { ...small, config: manage }, async (request, reply) => {
      const ids = parseInput(ItemParams, request.params);
      const input = parseInput(SendUploadLinkSchema, request.body);
      return reply.status(201).send(await service.sendLink(deps, signedInUser(request), ids, input, auditOrigin(request)));
    });

    app.get(`${item}/upload-links`, { config: manage }, async (request) => {
      const { itemId } = parseInput(ItemParams, request.params);
      return service.listLinks(deps.db, itemId);
    });

    app.delete(`${item}/upload-links/:linkId`, { ...small, config: manage }, async (request) => {
      const ids = parseInput(UploadLinkParamsSchema, request.params);
      return service.revokeLink(deps, signedInUser(request), ids, auditOrigin(request));
    });

    const holder = { access: 'upload-link', rateLimit: linkLimit } as const;

    app.get(link, { config: holder }, async (request) => service.linkInfo(deps, grantOf(request).linkId));

    app.post(`${link}/uploads`, { ...small, config: holder }, async (request, reply) => {
      const grant = grantOf(request);
      const actor = await service.linkActor(deps.db, grant.linkId);
      return reply.status(201).send(await documents.startUpload(deps, actor, grant.loanId, grant.itemId, parseInput(StartUploadSchema, request.body)));
    });

    await app.register(async (raw) => {
      registerUploadBody(raw);
      raw.put(`${link}/uploads/:uploadId/files/:position`, { config: { access: 'upload-link', rateLimit: fileLimit } }, async (request, reply) => {
        const grant = grantOf(request);
        const { uploadId, position } = parseInput(LinkUploadFileParamsSchema, request.params);
        const actor = await service.linkActor(deps.db, grant.linkId);
        const stored = await storeRequestBody(deps, actor, { loanId: grant.loanId, itemId: grant.itemId, uploadId, position }, request, reply);
        // Their own file back, without the ids and digests the team reads.
        return { position: stored.position, name: stored.name, size: stored.size, type: stored.type };
      });
    });

    app.post(`${link}/uploads/:uploadId/complete`, { ...small, config: holder }, async (request, reply) => {
      const grant = grantOf(request);
      const { uploadId } = parseInput(LinkUploadParamsSchema, request.params);
      const actor = await service.linkActor(deps.db, grant.linkId);
      const { version } = await documents.completeUpload(deps, actor, grant.loanId, grant.itemId, uploadId);
      const teamName = (await loanTeamName(deps.db, grant.loanId)) ?? 'The team';
      const receipt: LinkUploadReceipt = { teamName, files: version.files.map((file) => ({ name: file.name, size: file.size })) };
      return reply.status(201).send(receipt);
    });

    app.delete(`${link}/uploads/:uploadId`, { ...small, config: holder }, async (request, reply) => {
      const grant = grantOf(request);
      const { uploadId } = parseInput(LinkUploadParamsSchema, request.params);
      await documents.cancelUpload(deps, await service.linkActor(deps.db, grant.linkId), grant.itemId, uploadId);
      return reply.status(204).send();
    });
  },
};
