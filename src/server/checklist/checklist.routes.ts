import { CHECKLIST_ACTIONS } from '../../shared/domain/checklist-view';
import {
  AddFromTemplateSchema,
  AddItemSchema,
  ChecklistTemplateSchema,
  ItemIdParamsSchema as ItemParams,
  ItemReasonSchema,
  ItemVersionSchema,
  ReorderItemsSchema,
  ResetChecklistTemplateSchema,
  UpdateItemSchema,
} from '../../shared/schemas/checklist';
import { LoanIdParamsSchema as LoanParams } from '../../shared/schemas/loans';
import { TeamIdParamsSchema as TeamParams } from '../../shared/schemas/teams';
import { loanRoleOfRequest, signedInUser } from '../access/access';
import type { Feature } from '../app-context';
import { auditOrigin } from '../audit/audit';
import { parseInput } from '../platform/http/problem';
import { itemScope } from './checklist.queries';
import { EXPIRY_QUEUE, EXPIRY_RECURRING, expiryJobHandler } from './expiry';
import * as service from './checklist.service';
import { documentsRequestedJob, DOCUMENTS_REQUESTED_QUEUE } from './documents-requested';

const item = '/api/loans/:loanId/checklist/items/:itemId';

/**
 * The document checklist of each loan, and each team's template. Items are
 * reached through `:itemId`, which the access layer resolves after `:loanId`:
 * an item of another loan, or an internal item asked for by a borrower, is
 * the same 404 as an unknown route.
 */
export const checklistFeature: Feature = {
  name: 'checklist',
  loanActions: CHECKLIST_ACTIONS,
  jobs: (context) => ({ [DOCUMENTS_REQUESTED_QUEUE]: documentsRequestedJob(context), [EXPIRY_QUEUE]: expiryJobHandler(context) }),
  recurring: [EXPIRY_RECURRING],
  accessTargets: ({ db }) => ({
    itemId: async (itemId, request, resolved) => {
      const role = resolved.loanRole;
      if (!role || role.kind === 'none') return {};
      const params = request.params as { loanId?: string };
      const parsed = ItemParams.safeParse({ loanId: params.loanId, itemId });
      if (!parsed.success) return { hidden: true };
      const scope = await itemScope(db, parsed.data.itemId);
      const visible = scope && scope.loanId === parsed.data.loanId && (role.kind === 'team' || scope.borrowerVisible);
      return visible ? {} : { hidden: true };
    },
  }),
  routes: async (app, deps) => {
    const small = { bodyLimit: 16 * 1024 };

    app.get('/api/loans/:loanId/checklist', { config: { access: 'loan', loanAction: 'view-checklist' } }, async (request) => {
      const { loanId } = parseInput(LoanParams, request.params);
      const list = await service.checklist(deps.db, loanId, loanRoleOfRequest(request).kind === 'team' ? 'team' : 'borrowers');
      // The upload limit comes with the list, so the page refuses a file that is too large before sending anything.
      return { ...list, maxFileBytes: deps.config.maxUploadBytes };
    });

    app.post('/api/loans/:loanId/checklist/items', { ...small, config: { access: 'loan', loanAction: 'manage-checklist' } }, async (request, reply) => {
      const { loanId } = parseInput(LoanParams, request.params);
      return reply.status(201).send(await service.addItem(deps, signedInUser(request), loanId, parseInput(AddItemSchema, request.body)));
    });

    app.patch(item, { ...small, config: { access: 'loan', loanAction: 'manage-checklist' } }, async (request) => {
      const { loanId, itemId } = parseInput(ItemParams, request.params);
      return service.updateItem(deps, signedInUser(request), loanId, itemId, parseInput(UpdateItemSchema, request.body));
    });

    app.delete(item, { ...small, config: { access: 'loan', loanAction: 'manage-checklist' } }, async (request, reply) => {
      const { loanId, itemId } = parseInput(ItemParams, request.params);
      const { version } = parseInput(ItemVersionSchema, request.body ?? {});
      await service.removeItem(deps, signedInUser(request), loanId, itemId, version);
      return reply.status(204).send();
    });

    app.put('/api/loans/:loanId/checklist/order', { ...small, config: { access: 'loan', loanAction: 'manage-checklist' } }, async (request) => {
      const { loanId } = parseInput(LoanParams, request.params);
      return service.reorderItems(deps, signedInUser(request), loanId, parseInput(ReorderItemsSchema, request.body).itemIds);
    });

    const statusRoute = (path: string, which: service.StatusAction, loanAction: keyof typeof CHECKLIST_ACTIONS, withReason: boolean) =>
      app.post(`${item}/${path}`, { ...small, config: { access: 'loan', loanAction } }, async (request) => {
        const { loanId, itemId } = parseInput(ItemParams, request.params);
        const body = withReason ? parseInput(ItemReasonSchema, request.body) : parseInput(ItemVersionSchema, request.body);
        const audience = loanRoleOfRequest(request).kind === 'team' ? 'team' : 'borrowers';
        return service.changeItemStatus(deps, signedInUser(request), loanId, itemId, which, body, audience);
      });
    statusRoute('waive', 'waive', 'manage-checklist', true);
    statusRoute('reopen', 'reopen', 'manage-checklist', false);
    statusRoute('not-applicable', 'claim-not-applicable', 'claim-not-applicable', true);
    statusRoute('not-applicable/confirm', 'confirm-not-applicable', 'manage-checklist', false);
    statusRoute('not-applicable/reject', 'reject-not-applicable', 'manage-checklist', false);

    app.get('/api/loans/:loanId/checklist/suggestions', { config: { access: 'loan', loanAction: 'manage-checklist' } }, async (request) => {
      const { loanId } = parseInput(LoanParams, request.params);
      return service.templateSuggestions(deps.db, loanId);
    });

    app.post('/api/loans/:loanId/checklist/from-template', { ...small, config: { access: 'loan', loanAction: 'manage-checklist' } }, async (request) => {
      const { loanId } = parseInput(LoanParams, request.params);
      return service.addFromTemplate(deps, signedInUser(request), loanId, parseInput(AddFromTemplateSchema, request.body).keys);
    });

    // Every team member reads the template; owners change it, as they do the team's other settings.
    app.get('/api/teams/:teamId/checklist-template', { config: { access: 'team-member' } }, async (request) => {
      const { teamId } = parseInput(TeamParams, request.params);
      return service.templateView(deps.db, teamId);
    });

    app.put('/api/teams/:teamId/checklist-template', { bodyLimit: 256 * 1024, config: { access: 'team-owner' } }, async (request) => {
      const { teamId } = parseInput(TeamParams, request.params);
      return service.saveTemplate(deps, signedInUser(request), teamId, parseInput(ChecklistTemplateSchema, request.body), auditOrigin(request));
    });

    app.delete('/api/teams/:teamId/checklist-template', { ...small, config: { access: 'team-owner' } }, async (request) => {
      const { teamId } = parseInput(TeamParams, request.params);
      const { revision } = parseInput(ResetChecklistTemplateSchema, request.body ?? {});
      return service.resetTemplate(deps, signedInUser(request), teamId, revision, auditOrigin(request));
    });
  },
};
