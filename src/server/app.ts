import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { AppError } from '../shared/errors';
import type { CredentialAccess } from '../shared/domain/access';
import type { Config } from './config';
import type { Database } from './db/client';
import { AccessRegistry, registerAccessLayer, sendUnknownApiRoute } from './access/access';
import type { AppContext } from './app-context';
import { createAuth, type Auth } from './auth/auth';
import { SIGN_IN_POLICY, type SignInPolicy } from './auth/throttle';
import { features } from './features';
import type { FileVault } from './platform/files/file-vault';
import { openFileVault } from './platform/files/open-vault';
import { registerJobWake } from './platform/jobs/job-wake';
import { registerProblemHandlers } from './platform/http/problem';
import { registerJsonParser } from './platform/http/json-body';
import { deferredChildLogger, OneLinePerRequest, registerRequestId } from './platform/http/request-log';
import { registerNoStore, registerOriginCheck, registerSecurityHeaders } from './platform/http/security';
import { registerBodyTimeouts } from './platform/http/timeouts';
import { registerStaticSite } from './platform/site/static-site';

declare module 'fastify' {
  interface FastifyInstance {
    /** The auth library over this app's database (tests settle its background tasks). */
    auth: Auth;
  }
}

export interface AppDeps {
  config: Config;
  database: Database;
  /** Wakes the job worker after a request enqueued jobs (the runtime passes the worker's nudge). */
  onJobsEnqueued?: () => void;
  /** The process logger; without one the app logs nothing (tests). */
  logger?: FastifyBaseLogger;
  /** Sign-in throttle; tests shorten its delays and limits. */
  signInPolicy?: SignInPolicy;
  /** Encrypted file storage; opened from the configuration when not given. */
  files?: FileVault;
  /** Folder with the built web app (`web/` and `pages/`); defaults to the repository's `dist/`. */
  distDir?: string;
}

const defaultDistDir = () => {
  const here = path.dirname(fileURLToPath(import.meta.url));
  // Bundled: dist/server/main.js → dist. From source: src/server/app.ts → dist.
  return path.basename(path.dirname(here)) === 'dist' ? path.dirname(here) : path.resolve(here, '../../dist');
};

/** Builds the whole HTTP application, ready to `listen` or to `inject` in tests. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, database } = deps;
  const onJobsEnqueued = deps.onJobsEnqueued ?? (() => {});
  const app = Fastify({
    ...(deps.logger ? { loggerInstance: deps.logger, childLoggerFactory: deferredChildLogger } : { logger: false }),
    genReqId: () => randomUUID(),
    // One line per request (method, URL, status, time taken) rather than two.
    logController: new OneLinePerRequest(deps.logger),
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    // How slowly a request may arrive (docs/DEPLOY.md, "Timeouts"); registerBodyTimeouts bounds each body by its route.
    requestTimeout: config.timeouts.requestMs,
    connectionTimeout: config.timeouts.connectionMs,
    // Closing the server ends keep-alive connections instead of waiting on them.
    forceCloseConnections: 'idle',
    routerOptions: { ignoreTrailingSlash: true },
  });

  // The API speaks JSON only: anything else is a clear 415, not a string the routes must guess at.
  app.removeContentTypeParser('text/plain');
  registerJsonParser(app);

  registerRequestId(app);
  registerBodyTimeouts(app, config.timeouts);
  registerProblemHandlers(app);
  await registerSecurityHeaders(app, config);
  registerOriginCheck(app, config);
  registerNoStore(app);
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) => {
      const error = new AppError('rate_limited', `Too many requests; try again in ${Math.ceil(context.ttl / 1000)} seconds`);
      return Object.assign(error, { statusCode: 429 });
    },
  });

  if (!config.authSecret) throw new Error('buildApp needs config.authSecret (createRuntime resolves one)');
  const auth = createAuth({
    db: database.db,
    secret: config.authSecret,
    publicUrl: config.publicUrl,
    brandName: config.publicConfig.brandName,
    ...(deps.logger ? { logger: deps.logger } : {}),
  });
  app.decorate('auth', auth);
  // Reset mails queued after their answer are finished before the database closes.
  app.addHook('onClose', () => auth.backgroundTasks.settled());

  const context: AppContext = {
    config,
    database,
    db: database.db,
    auth,
    publicUrl: config.publicUrl,
    brandName: config.publicConfig.brandName,
    access: new AccessRegistry(),
    signInPolicy: deps.signInPolicy ?? SIGN_IN_POLICY,
    files: deps.files ?? (await openFileVault(config, deps.logger ?? { warn: () => {} })),
    ...(deps.logger ? { logger: deps.logger } : {}),
  };
  // What every feature brings to the access layer is known before the first route is declared.
  for (const feature of features) {
    if (feature.loanActions) context.access.registerLoanActions(feature.loanActions);
    for (const [param, resolver] of Object.entries(feature.accessTargets?.(context) ?? {})) context.access.register(param, resolver);
    for (const [access, resolver] of Object.entries(feature.credentials?.(context) ?? {}))
      context.access.registerCredential(access as CredentialAccess, resolver);
  }
  registerAccessLayer(app, { auth, db: database.db, registry: context.access });
  // Jobs a request enqueues wake the worker when it is done: no route has to remember to.
  registerJobWake(app, onJobsEnqueued);
  for (const { routes } of features) if (routes) await app.register(async (scope) => routes(scope, context));

  const site = await registerStaticSite(app, { distDir: deps.distDir ?? defaultDistDir(), publicConfig: config.publicConfig });
  app.setNotFoundHandler((request, reply) => {
    const isApi = request.url === '/api' || request.url.startsWith('/api/');
    const wantsHtml = (request.method === 'GET' || request.method === 'HEAD') && (request.headers.accept ?? '').includes('text/html');
    if (!isApi && wantsHtml && site) return site.sendNotFound(request, reply);
    // Like every API answer (registerNoStore), and the very answer of a hidden route.
    return sendUnknownApiRoute(request, reply);
  });

  return app;
}
