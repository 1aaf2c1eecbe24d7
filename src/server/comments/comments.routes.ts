import type { FastifyRequest } from 'fastify';
import { COMMENT_ACTIONS } from '../../shared/domain/comments';
import {
  CommentIdParamsSchema as CommentParams,
  EditCommentSchema,
  ListCommentsQuerySchema,
  MentionCandidatesQuerySchema,
  PostCommentSchema,
  ReadCursorSchema,
} from '../../shared/schemas/comments';
import { LoanIdParamsSchema as LoanParams } from '../../shared/schemas/loans';
import { loanRoleOfRequest, signedInUser } from '../access/access';
import type { Feature } from '../app-context';
import { parseInput } from '../platform/http/problem';
import { findComment } from './comments.queries';
import * as service from './comments.service';

const comments = '/api/loans/:loanId/comments';

/** The caller as the comments service needs them: who, and their role on the route's loan. */
function commenter(request: FastifyRequest): service.Commenter {
  const { userId, name } = signedInUser(request);
  return { userId, name, role: loanRoleOfRequest(request) };
}

/**
 * Each loan's discussion (decision 019): threads with one level of replies,
 * shared or internal, optionally about a checklist item, with @mentions and a
 * read cursor per person. `:commentId` is resolved after `:loanId`: a comment
 * of another loan, or an internal one asked for by a borrower, is the same
 * 404 as an unknown route.
 */
export const commentsFeature: Feature = {
  name: 'comments',
  loanActions: COMMENT_ACTIONS,
  accessTargets: ({ db }) => ({
    commentId: async (commentId, request, resolved) => {
      const role = resolved.loanRole;
      if (!role || role.kind === 'none') return {};
      const params = request.params as { loanId?: string };
      const parsed = CommentParams.safeParse({ loanId: params.loanId, commentId });
      if (!parsed.success) return { hidden: true };
      const row = await findComment(db, parsed.data.commentId);
      const visible = row && row.loanId === parsed.data.loanId && (role.kind === 'team' || row.visibility === 'shared');
      return visible ? {} : { hidden: true };
    },
  }),
  routes: async (app, deps) => {
    // A comment of the longest length in four-byte characters, its mentions and JSON's escapes fit well within.
    const small = { bodyLimit: 64 * 1024 };

    app.get(comments, { config: { access: 'loan', loanAction: 'view-comments' } }, async (request) => {
      const { loanId } = parseInput(LoanParams, request.params);
      return service.listComments(deps.db, loanId, commenter(request), parseInput(ListCommentsQuerySchema, request.query));
    });

    app.post(comments, { ...small, config: { access: 'loan', loanAction: 'post-comment' } }, async (request, reply) => {
      const { loanId } = parseInput(LoanParams, request.params);
      return reply.status(201).send(await service.postComment(deps, commenter(request), loanId, parseInput(PostCommentSchema, request.body)));
    });

    app.patch(`${comments}/:commentId`, { ...small, config: { access: 'loan', loanAction: 'edit-comment' } }, async (request) => {
      const { loanId, commentId } = parseInput(CommentParams, request.params);
      return service.editComment(deps, commenter(request), loanId, commentId, parseInput(EditCommentSchema, request.body));
    });

    app.delete(`${comments}/:commentId`, { config: { access: 'loan', loanAction: 'delete-comment' } }, async (request, reply) => {
      const { loanId, commentId } = parseInput(CommentParams, request.params);
      await service.deleteComment(deps, commenter(request), loanId, commentId);
      return reply.status(204).send();
    });

    app.get(`${comments}/mention-candidates`, { config: { access: 'loan', loanAction: 'post-comment' } }, async (request) => {
      const { loanId } = parseInput(LoanParams, request.params);
      const { visibility } = parseInput(MentionCandidatesQuerySchema, request.query);
      return service.mentionCandidates(deps.db, loanId, commenter(request), visibility);
    });

    app.get('/api/loans/:loanId/read-cursor', { config: { access: 'loan', loanAction: 'view-comments' } }, async (request) => {
      const { loanId } = parseInput(LoanParams, request.params);
      return service.readCursor(deps.db, loanId, commenter(request));
    });

    app.put('/api/loans/:loanId/read-cursor', { bodyLimit: 1024, config: { access: 'loan', loanAction: 'mark-comments-read' } }, async (request) => {
      const { loanId } = parseInput(LoanParams, request.params);
      return service.markRead(deps.db, loanId, commenter(request), parseInput(ReadCursorSchema, request.body).cursor);
    });
  },
};
