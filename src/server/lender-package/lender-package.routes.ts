import { Readable } from 'node:stream';
import { LENDER_PACKAGE_ACTIONS } from '../../shared/domain/lender-package';
import { LoanIdParamsSchema as LoanParams } from '../../shared/schemas/loans';
import { signedInUser } from '../access/access';
import type { Feature } from '../app-context';
import { auditOrigin } from '../audit/audit';
import { contentDisposition } from '../platform/http/file-response';
import { parseInput } from '../platform/http/problem';
import * as service from './lender-package.service';

/**
 * The lender package (decision 015): GET /api/loans/:loanId/package streams
 * a zip of the cover sheet and the latest approved version of every
 * checklist item, its length sent before its first byte. Owners and
 * assistants only; anyone else gets the unknown-route 404.
 */
export const lenderPackageFeature: Feature = {
  name: 'lender-package',
  loanActions: LENDER_PACKAGE_ACTIONS,
  routes: async (app, deps) => {
    app.get('/api/loans/:loanId/package', { config: { access: 'loan', loanAction: 'download-package' } }, async (request, reply) => {
      const { loanId } = parseInput(LoanParams, request.params);
      const user = signedInUser(request);
      const opened = await service.openPackage(deps, loanId, { preparedBy: user.name, now: new Date(), log: request.log });
      reply
        .header('content-type', 'application/zip')
        .header('content-length', opened.size)
        .header('content-disposition', contentDisposition('attachment', opened.fileName))
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', 'sandbox')
        .header('cache-control', 'private, no-store');
      if (request.method === 'HEAD') {
        // The length without the bytes (Fastify would read a stream given to a HEAD answer to its end).
        opened.stream.destroy();
        return reply.send(Readable.from([]));
      }
      // The zip reads ahead while the download is recorded: a small package can reach a broken file before the
      // answer is sent. Its error is held here (it is already logged) instead of meeting no listener and taking the
      // process down; the answer is then a plain 500, before any byte of the zip.
      let failedEarly: unknown = null;
      const holdError = (error: unknown) => (failedEarly = error);
      opened.stream.once('error', holdError);
      try {
        await service.recordDownload(deps, loanId, user, opened, auditOrigin(request));
      } catch (error) {
        opened.stream.destroy();
        throw error;
      } finally {
        opened.stream.off('error', holdError);
      }
      if (failedEarly) throw new Error('The lender package broke off before its first byte', { cause: failedEarly });
      return reply.send(opened.stream);
    });
  },
};
