import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { AccessTargets } from './access/access';
import type { Auth } from './auth/auth';
import type { SignInPolicy } from './auth/throttle';
import type { Config } from './config';
import type { Database, Db } from './db/client';

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
  /** Resolvers for the URL parameters that name what a route acts on (`:teamId`…), for the access layer. */
  access: AccessTargets;
  signInPolicy: SignInPolicy;
  logger?: FastifyBaseLogger;
}

/**
 * A feature: its routes (and any access-target resolvers) registered on the
 * app. Each runs in its own Fastify plugin scope; what it adds to the root
 * (access resolvers) goes through the context, not decorators.
 */
export type Feature = (app: FastifyInstance, context: AppContext) => Promise<void>;
