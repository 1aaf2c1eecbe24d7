import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../shared/errors';
import type { StoredFileView } from '../../shared/schemas/documents';
import * as service from './documents.service';

/**
 * The raw body of a file upload: no parser reads it; the route streams it
 * into the vault. Call it on a plugin scope of its own, which holds only the
 * file routes (the team's and borrowers', and a third party's link).
 */
export function registerUploadBody(scope: FastifyInstance) {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
  // A file may take many minutes to arrive on a slow phone: it must keep coming rather than arrive whole in a short time.
  scope.addHook('onRoute', (route) => {
    route.config = { ...route.config, streamsBody: true };
  });
}

/**
 * Stores the request's body as file `ids.position` of an upload (any
 * content type: the content decides), with the declared length checked
 * first. A refusal before the body's end closes the connection rather than
 * read the rest; a body cut off by the client is a 400, not a 500.
 */
export async function storeRequestBody(
  deps: Parameters<typeof service.storeFile>[0],
  actor: service.Actor,
  ids: { loanId: string; itemId: string; uploadId: string; position: number },
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<StoredFileView> {
  const declared = request.headers['content-length'] === undefined ? null : Number(request.headers['content-length']);
  try {
    return await service.storeFile(deps, actor, ids, request.raw, Number.isFinite(declared) ? declared : null);
  } catch (error) {
    if (!request.raw.readableEnded) reply.header('connection', 'close');
    if (request.raw.destroyed && !(error instanceof AppError)) throw new AppError('bad_request', 'The upload was cut off before the file ended');
    throw error;
  }
}
