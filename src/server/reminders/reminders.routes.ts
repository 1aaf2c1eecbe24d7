import { REMINDER_ACTIONS } from '../../shared/domain/reminders';
import { LoanIdParamsSchema as LoanParams } from '../../shared/schemas/loans';
import { SetRemindersSchema } from '../../shared/schemas/reminders';
import { signedInUser } from '../access/access';
import type { Feature, JobContext } from '../app-context';
import { parseInput } from '../platform/http/problem';
import type { JobHandler, RecurringJob } from '../platform/jobs/worker';
import * as service from './reminders.service';

export const REMINDERS_QUEUE = 'reminders.run';
/** Every 15 minutes: office hours start on the quarter hour in every zone that has them. */
export const REMINDERS_RECURRING: RecurringJob = { queue: REMINDERS_QUEUE, everyMs: 15 * 60_000, maxAttempts: 3 };

/** The scheduled run; `clock` is the time it believes it is (tests pass theirs). */
export function remindersJobHandler({ db, config, logger }: Pick<JobContext, 'db' | 'config' | 'logger'>, clock: () => Date = () => new Date()): JobHandler {
  return async () => {
    const run = await service.runReminders({ db, config }, clock());
    if (run.mailed > 0) logger.info({ reminders: run }, 'reminders sent');
  };
}

/**
 * Reminders for owed documents: a recurring job that reminds borrowers of
 * what they owe, and the team's switch and "send one now" per loan.
 */
export const remindersFeature: Feature = {
  name: 'reminders',
  loanActions: REMINDER_ACTIONS,
  jobs: (context) => ({ [REMINDERS_QUEUE]: remindersJobHandler(context) }),
  recurring: [REMINDERS_RECURRING],
  routes: async (app, deps) => {
    const small = { bodyLimit: 4096 };
    const config = { access: 'loan', loanAction: 'manage-reminders' } as const;

    app.get('/api/loans/:loanId/reminders', { config }, async (request) => {
      const { loanId } = parseInput(LoanParams, request.params);
      return service.remindersView(deps, loanId);
    });

    app.put('/api/loans/:loanId/reminders', { ...small, config }, async (request) => {
      const { loanId } = parseInput(LoanParams, request.params);
      const { enabled } = parseInput(SetRemindersSchema, request.body);
      return service.setReminders(deps, signedInUser(request).userId, loanId, enabled);
    });

    app.post('/api/loans/:loanId/reminders/send', { ...small, config }, async (request) => {
      const { loanId } = parseInput(LoanParams, request.params);
      return service.remindLoan(deps, loanId, { kind: 'now', by: signedInUser(request).userId }, new Date());
    });
  },
};
