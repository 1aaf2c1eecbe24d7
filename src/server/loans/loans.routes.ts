import {
  ChangeStageSchema,
  CreateLoanSchema,
  DeleteLoanSchema,
  LoanIdParamsSchema as LoanParams,
  PipelineQuerySchema,
  UpdateLoanSchema,
  type LoanInput,
} from '../../shared/schemas/loans';
import { TeamIdParamsSchema as TeamParams } from '../../shared/schemas/teams';
import { loanRoleOfRequest, signedInUser } from '../access/access';
import type { Feature } from '../app-context';
import { LOAN_FILE_ACTIONS } from '../../shared/domain/loan-actions';
import { auditOrigin } from '../audit/audit';
import { parseInput } from '../platform/http/problem';
import { loanRoleOf } from './loans.queries';
import * as loans from './loans.service';
import { pipeline, pipelineCsv, pipelineCsvFilename } from './pipeline';

/**
 * Loan files: the team's pipeline, each loan's fields, stages, DSCR and
 * activity. Every `/api/loans/:loanId/...` route declares its loan action;
 * the access layer resolves the caller's role on that loan (below) and
 * answers 404, as for an unknown route, to anyone the action is not for.
 */
export const loansFeature: Feature = {
  name: 'loans',
  loanActions: LOAN_FILE_ACTIONS,
  accessTargets: ({ db }) => ({
    loanId: async (loanId, request) => {
      const { principal } = request;
      // A malformed id names no loan: the same 404 as an unknown one.
      const parsed = LoanParams.safeParse({ loanId });
      if (principal.kind !== 'user' || !parsed.success) return { loanRole: { kind: 'none' } };
      return { loanRole: await loanRoleOf(db, parsed.data.loanId, principal) };
    },
  }),
  routes: async (app, deps) => {
    app.post('/api/teams/:teamId/loans', { bodyLimit: 32 * 1024, config: { access: 'team-member' } }, async (request, reply) => {
      const { teamId } = parseInput(TeamParams, request.params);
      const input = parseInput(CreateLoanSchema, request.body);
      return reply.status(201).send(await loans.createLoan(deps, signedInUser(request), teamId, input as typeof input & LoanInput, auditOrigin(request)));
    });

    app.get('/api/teams/:teamId/loans', { config: { access: 'team-member' } }, async (request) => {
      const { teamId } = parseInput(TeamParams, request.params);
      return pipeline(deps.db, teamId, signedInUser(request).userId, parseInput(PipelineQuerySchema, request.query));
    });

    app.get('/api/teams/:teamId/loans.csv', { config: { access: 'team-member' } }, async (request, reply) => {
      const { teamId } = parseInput(TeamParams, request.params);
      const body = await pipelineCsv(deps.db, teamId, parseInput(PipelineQuerySchema, request.query));
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${pipelineCsvFilename(new Date())}"`)
        .header('cache-control', 'no-store')
        .send(body);
    });

    app.get('/api/loans/:loanId', { config: { access: 'loan', loanAction: 'view' } }, async (request) => {
      const { loanId } = parseInput(LoanParams, request.params);
      return loans.getLoan(deps, loanId, loanRoleOfRequest(request));
    });

    app.patch('/api/loans/:loanId', { bodyLimit: 32 * 1024, config: { access: 'loan', loanAction: 'edit-loan' } }, async (request) => {
      const { loanId } = parseInput(LoanParams, request.params);
      return loans.updateLoan(deps, signedInUser(request), loanId, parseInput(UpdateLoanSchema, request.body));
    });

    app.post('/api/loans/:loanId/stage', { bodyLimit: 8 * 1024, config: { access: 'loan', loanAction: 'change-stage' } }, async (request) => {
      const { loanId } = parseInput(LoanParams, request.params);
      return loans.changeStage(deps, signedInUser(request), loanId, parseInput(ChangeStageSchema, request.body));
    });

    app.post('/api/loans/:loanId/archive', { config: { access: 'loan', loanAction: 'edit-loan' } }, async (request) => {
      const { loanId } = parseInput(LoanParams, request.params);
      return loans.setArchived(deps, signedInUser(request), loanId, true);
    });

    app.post('/api/loans/:loanId/restore', { config: { access: 'loan', loanAction: 'edit-loan' } }, async (request) => {
      const { loanId } = parseInput(LoanParams, request.params);
      return loans.setArchived(deps, signedInUser(request), loanId, false);
    });

    app.delete('/api/loans/:loanId', { bodyLimit: 4096, config: { access: 'loan', loanAction: 'delete-loan' } }, async (request, reply) => {
      const { loanId } = parseInput(LoanParams, request.params);
      const { confirmAddress } = parseInput(DeleteLoanSchema, request.body ?? {});
      await loans.deleteLoan(deps, signedInUser(request), loanId, confirmAddress, auditOrigin(request));
      return reply.status(204).send();
    });
  },
};
