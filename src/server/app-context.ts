import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { CredentialAccess, LoanActionTable } from '../shared/domain/access';
import type { AccessRegistry, AccessTargetResolver, CredentialResolver } from './access/access';
import type { Auth } from './auth/auth';
import type { SignInPolicy } from './auth/throttle';
import type { Config } from './config';
import type { Database, Db } from './db/client';
import type { JobHandler } from './platform/jobs/worker';
import type { FileVault } from './platform/files/file-vault';
import type { Mailer } from './platform/mail/mailer';

/**
 * What every feature is built from: one object, made once by `buildApp` and
 * handed to each feature in `features.ts`. Services take the parts they need
 * (`Pick<AppContext, 'db' | 'publicUrl'>`), so a feature passes it on as it is.
 */
export interface AppContext {
  config: Config;
  database: Database;
  db: Db;
  auth: Auth;
  /** Where links in e-mails point, and the origin state-changing requests must come from. */
  publicUrl: string;
  /** The configured brand (white label) for e-mails and the TOTP issuer. */
  brandName: string;
  /** What the features brought to the access layer (target resolvers, loan actions); `buildApp` fills it. */
  access: AccessRegistry;
  signInPolicy: SignInPolicy;
  /** Encrypted file storage (uploads, previews). */
  files: FileVault;
  logger?: FastifyBaseLogger;
}

/** What a feature's job handlers are built from: the runtime's parts, outside any request. */
export interface JobContext {
  config: Config;
  db: Db;
  mailer: Mailer;
  files: FileVault;
  logger: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
}

/**
 * A feature brings everything it needs in one object: its routes, the URL
 * parameters its routes name (resolved for the access layer), the loan
 * actions its routes declare with the roles allowed each, and the handlers of
 * the job queues it enqueues to. `buildApp` and `createRuntime` loop over
 * `features.ts`, so adding a feature changes neither them nor the access
 * module. Routes run in the feature's own Fastify plugin scope.
 */
export interface Feature {
  name: string;
  routes?: (app: FastifyInstance, context: AppContext) => Promise<void>;
  /** Resolvers by URL parameter name (`loanId`, `teamId`…). */
  accessTargets?: (context: AppContext) => Record<string, AccessTargetResolver>;
  /** How the credential of the routes with a credential's access is resolved (`upload-link`: the bearer token's link). */
  credentials?: (context: AppContext) => Partial<Record<CredentialAccess, CredentialResolver>>;
  /** The loan actions this feature's routes name in `config.loanAction` (a table in src/shared). */
  loanActions?: LoanActionTable;
  /** Job handlers by queue name. */
  jobs?: (context: JobContext) => Record<string, JobHandler>;
}
