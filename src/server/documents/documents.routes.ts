import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { CONVERTED_PREVIEW_TYPES, INLINE_PREVIEW_TYPES, type DocumentType } from '../../shared/domain/documents';
import { AppError } from '../../shared/errors';
import type { AuditAction } from '../../shared/schemas/audit';
import {
  ApproveVersionSchema,
  DOCUMENT_ACTIONS,
  FileParamsSchema,
  OpenVersionSchema,
  RequestRevisionSchema,
  StartUploadSchema,
  UploadFileParamsSchema,
  UploadParamsSchema,
  VersionParamsSchema,
} from '../../shared/schemas/documents';
import { ItemIdParamsSchema as ItemParams } from '../../shared/schemas/checklist';
import { LinkUploadParamsSchema } from '../../shared/schemas/upload-links';
import { loanRoleOfRequest, signedInUser } from '../access/access';
import { loanTeamName, recordActivity } from '../activity/activity-log';
import type { AppContext, Feature } from '../app-context';
import { auditOrigin, recordAudit } from '../audit/audit';
import type { DocumentFileRow } from '../db/schema';
import { DecryptionError } from '../platform/crypto/streaming-aead';
import { parseRange, sendFileBytes, sendUnsatisfiableRange } from '../platform/http/file-response';
import { parseInput } from '../platform/http/problem';
import * as q from './documents.queries';
import * as service from './documents.service';
import { registerUploadBody, storeRequestBody } from './upload-body';

const item = '/api/loans/:loanId/checklist/items/:itemId';

/** The caller as an uploader: a team member or a borrower on the route's loan. */
function actorOf(request: FastifyRequest): service.Actor {
  const user = signedInUser(request);
  return { kind: 'user', userId: user.userId, name: user.name, email: user.email, as: loanRoleOfRequest(request).kind === 'team' ? 'team' : 'borrower' };
}

const reviewerOf = (request: FastifyRequest): service.Reviewer => {
  const user = signedInUser(request);
  return { userId: user.userId, name: user.name };
};

/** Waits until a decrypted stream has its first bytes (or its end): a file that fails at once is a clean error, not a cut-off answer. */
function firstBytes(stream: Readable): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = () => {
      stream.off('error', fail);
      resolve();
    };
    const fail = (error: Error) => {
      stream.off('readable', done);
      reject(error);
    };
    stream.once('readable', done);
    stream.once('error', fail);
  });
}

/**
 * Sends a file (or its converted preview) after the access layer let the
 * caller see its item. Every view and download (not each further range a
 * viewer fetches) goes to the loan's activity and the team's audit log.
 */
async function serveFile(deps: AppContext, request: FastifyRequest, reply: FastifyReply, file: DocumentFileRow, disposition: 'attachment' | 'inline') {
  const type = file.contentType as DocumentType;
  const preview = disposition === 'inline' && CONVERTED_PREVIEW_TYPES.includes(type);
  if (disposition === 'inline' && !preview && !INLINE_PREVIEW_TYPES.includes(type)) {
    throw new AppError('unsupported_media_type', 'This file has no preview: download it instead');
  }
  if (preview && (!file.previewObjectKey || !file.previewWrappedKey || file.previewSize === null)) {
    throw new AppError('conflict', 'The preview of this file is still being made; try again in a moment');
  }
  const stored = preview
    ? { objectKey: file.previewObjectKey!, wrappedKey: file.previewWrappedKey!, size: file.previewSize!, type: 'image/jpeg', name: `${file.name}.jpg` }
    : { objectKey: file.objectKey, wrappedKey: file.wrappedKey, size: file.size, type: file.contentType, name: file.name };
  const range = parseRange(request.headers.range, stored.size);
  if (range === 'unsatisfiable') return sendUnsatisfiableRange(reply, stored.size);
  let body: Readable;
  try {
    body = await deps.files.open(stored, range ?? undefined);
    await firstBytes(body);
  } catch (error) {
    if (error instanceof DecryptionError) {
      request.log.error({ err: error, fileId: file.id }, 'A stored file failed authentication');
      throw new AppError('internal', 'This file failed its integrity check and cannot be served. The team has been told in the server log.');
    }
    throw error;
  }
  body.on('error', (error) => request.log.error({ err: error, fileId: file.id }, 'A stored file failed while being sent'));
  if (!range || range.start === 0) await recordFileAccess(deps, request, file, disposition === 'inline' ? 'document.viewed' : 'document.downloaded');
  return sendFileBytes(reply, { ...stored }, body, { disposition, range });
}

async function recordFileAccess(
  deps: AppContext,
  request: FastifyRequest,
  file: DocumentFileRow,
  action: Extract<AuditAction, 'document.viewed' | 'document.downloaded'>,
) {
  const user = signedInUser(request);
  await deps.db.transaction(async (tx) => {
    await recordActivity(tx, file.loanId, {
      actorId: user.userId,
      kind: action,
      visibility: 'internal',
      data: { itemId: file.itemId, fileId: file.id, name: file.name },
    });
    await recordAudit(tx, {
      action,
      actor: { id: user.userId, email: user.email },
      teamId: await q.loanTeamId(tx, file.loanId),
      origin: auditOrigin(request),
      data: { loanId: file.loanId, itemId: file.itemId, fileId: file.id },
    });
  });
}

/**
 * Versioned uploads on checklist items, their review, and the files' bytes.
 * `:uploadId`, `:versionId` and `:fileId` are resolved by the access layer
 * after `:itemId`: another item's, or another person's upload, is the same
 * 404 as an unknown route.
 */
export const documentsFeature: Feature = {
  name: 'documents',
  loanActions: DOCUMENT_ACTIONS,
  accessTargets: ({ db }) => ({
    uploadId: async (uploadId, request, resolved) => {
      // On a third party's link: an upload that link started, to its item.
      if (resolved.uploadLink) {
        const id = LinkUploadParamsSchema.safeParse({ uploadId });
        const upload = id.success ? await q.findUpload(db, id.data.uploadId) : undefined;
        return upload && upload.linkId === resolved.uploadLink.linkId && upload.itemId === resolved.uploadLink.itemId ? {} : { hidden: true };
      }
      const parsed = UploadParamsSchema.safeParse({ ...(request.params as object), uploadId });
      if (!parsed.success || !resolved.loanRole || resolved.loanRole.kind === 'none' || request.principal.kind !== 'user') return { hidden: true };
      const upload = await q.findUpload(db, parsed.data.uploadId);
      const mine = upload && upload.itemId === parsed.data.itemId && upload.createdBy === request.principal.userId;
      return mine ? {} : { hidden: true };
    },
    versionId: async (versionId, request) => {
      const parsed = VersionParamsSchema.safeParse({ ...(request.params as object), versionId });
      if (!parsed.success) return { hidden: true };
      const version = await q.findVersion(db, parsed.data.versionId);
      return version && version.itemId === parsed.data.itemId ? {} : { hidden: true };
    },
    fileId: async (fileId, request) => {
      const parsed = FileParamsSchema.safeParse({ ...(request.params as object), fileId });
      if (!parsed.success) return { hidden: true };
      const file = await q.findFile(db, parsed.data.fileId);
      return file && file.itemId === parsed.data.itemId && file.versionId !== null ? {} : { hidden: true };
    },
  }),
  routes: async (app, deps) => {
    const small = { bodyLimit: 16 * 1024 };

    app.post(`${item}/uploads`, { ...small, config: { access: 'loan', loanAction: 'upload-document' } }, async (request, reply) => {
      const { loanId, itemId } = parseInput(ItemParams, request.params);
      return reply.status(201).send(await service.startUpload(deps, actorOf(request), loanId, itemId, parseInput(StartUploadSchema, request.body)));
    });

    await app.register(async (raw) => {
      registerUploadBody(raw);
      raw.put(`${item}/uploads/:uploadId/files/:position`, { config: { access: 'loan', loanAction: 'upload-document' } }, async (request, reply) =>
        storeRequestBody(deps, actorOf(request), parseInput(UploadFileParamsSchema, request.params), request, reply),
      );
    });

    app.post(`${item}/uploads/:uploadId/complete`, { ...small, config: { access: 'loan', loanAction: 'upload-document' } }, async (request, reply) => {
      const { loanId, itemId, uploadId } = parseInput(UploadParamsSchema, request.params);
      const { version } = await service.completeUpload(deps, actorOf(request), loanId, itemId, uploadId);
      return reply.status(201).send(version);
    });

    app.delete(`${item}/uploads/:uploadId`, { ...small, config: { access: 'loan', loanAction: 'upload-document' } }, async (request, reply) => {
      const { itemId, uploadId } = parseInput(UploadParamsSchema, request.params);
      await service.cancelUpload(deps, actorOf(request), itemId, uploadId);
      return reply.status(204).send();
    });

    app.get(`${item}/versions`, { config: { access: 'loan', loanAction: 'view-documents' } }, async (request) => {
      const { loanId, itemId } = parseInput(ItemParams, request.params);
      if (loanRoleOfRequest(request).kind === 'team') return service.listVersions(deps.db, itemId, { kind: 'team' });
      return service.listVersions(deps.db, itemId, { kind: 'borrowers', teamName: (await loanTeamName(deps.db, loanId)) ?? 'Your loan team' });
    });

    app.post(`${item}/versions/:versionId/open`, { ...small, config: { access: 'loan', loanAction: 'review-documents' } }, async (request) => {
      const ids = parseInput(VersionParamsSchema, request.params);
      const { item } = await service.openForReview(deps, reviewerOf(request), ids, parseInput(OpenVersionSchema, request.body).version);
      return { status: item.status, version: item.version };
    });

    app.post(`${item}/versions/:versionId/approve`, { ...small, config: { access: 'loan', loanAction: 'review-documents' } }, async (request) => {
      const ids = parseInput(VersionParamsSchema, request.params);
      const { item } = await service.approveVersion(deps, reviewerOf(request), ids, parseInput(ApproveVersionSchema, request.body));
      await auditReview(deps, request, 'document.approved', ids);
      return { status: item.status, version: item.version };
    });

    app.post(`${item}/versions/:versionId/needs-revision`, { ...small, config: { access: 'loan', loanAction: 'review-documents' } }, async (request) => {
      const ids = parseInput(VersionParamsSchema, request.params);
      const { item } = await service.requestRevision(deps, reviewerOf(request), ids, parseInput(RequestRevisionSchema, request.body));
      await auditReview(deps, request, 'document.needs_revision', ids);
      return { status: item.status, version: item.version };
    });

    const fileRoute = (suffix: string, disposition: 'attachment' | 'inline') =>
      app.get(`${item}/files/:fileId${suffix}`, { config: { access: 'loan', loanAction: 'view-documents' } }, async (request, reply) => {
        const { fileId } = parseInput(FileParamsSchema, request.params);
        const file = await q.findFile(deps.db, fileId);
        if (!file) throw new AppError('not_found', 'This file does not exist');
        return serveFile(deps, request, reply, file, disposition);
      });
    fileRoute('', 'attachment');
    fileRoute('/preview', 'inline');
  },
};

async function auditReview(deps: AppContext, request: FastifyRequest, action: AuditAction, ids: { loanId: string; itemId: string; versionId: string }) {
  const user = signedInUser(request);
  await recordAudit(deps.db, {
    action,
    actor: { id: user.userId, email: user.email },
    teamId: await q.loanTeamId(deps.db, ids.loanId),
    origin: auditOrigin(request),
    data: { loanId: ids.loanId, itemId: ids.itemId, versionId: ids.versionId },
  });
}
