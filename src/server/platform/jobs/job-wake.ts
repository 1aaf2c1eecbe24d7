import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance, onSendHookHandler } from 'fastify';

/**
 * Wakes the job worker for jobs a request enqueued, with no route having to
 * remember to: every route handler runs inside a scope that `enqueueJob`
 * notes, and the worker is woken once the request's transaction is over (as
 * its answer is sent), or at once for a job enqueued after the answer (a
 * background task). Outside any request (the CLI, the worker itself) nothing
 * happens and the worker's poll finds the job.
 */
class RequestJobs {
  private answered = false;
  private waiting = false;

  constructor(private readonly wake: () => void) {}

  /** A job row was written. */
  enqueued() {
    if (this.answered) this.wake();
    else this.waiting = true;
  }

  /** The answer is on its way: the handler, and any transaction it ran, has finished. */
  answering() {
    this.answered = true;
    if (this.waiting) {
      this.waiting = false;
      this.wake();
    }
  }
}

const scope = new AsyncLocalStorage<RequestJobs>();

/** Called by `enqueueJob` after its row is written. */
export const noteJobEnqueued = () => scope.getStore()?.enqueued();

declare module 'fastify' {
  interface FastifyRequest {
    jobs: RequestJobs | null;
  }
}

/** Runs every route handler registered after this inside a request's job scope, and wakes `wake` as described above. */
export function registerJobWake(app: FastifyInstance, wake: () => void) {
  app.decorateRequest('jobs', null);
  const answering: onSendHookHandler = (request, _reply, payload, done) => {
    request.jobs?.answering();
    done(null, payload);
  };
  app.addHook('onRoute', (route) => {
    const handler = route.handler;
    route.handler = function (this: FastifyInstance, request, reply) {
      request.jobs = new RequestJobs(wake);
      return scope.run(request.jobs, () => handler.call(this, request, reply));
    };
    route.onSend = [...[route.onSend ?? []].flat(), answering];
  });
}
