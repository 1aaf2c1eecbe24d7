import type { FastifyBaseLogger, FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { buildApp } from '../server/app';
import type { SignInPolicy } from '../server/auth/throttle';
import type { Config } from '../server/config';
import type { Db } from '../server/db/client';
import type { FileVault } from '../server/platform/files/file-vault';
import { openFileVault } from '../server/platform/files/open-vault';
import { testConfig } from './config';
import { createTestDatabase, type Backend, type TestDatabase } from './databases';
import { useStorage, type StorageKind, type TestStorage } from './storage';

export interface ApiOptions {
  /** Environment values over `testConfig`'s (TRUST_PROXY, PUBLIC_URL, BRAND_NAME…). */
  env?: Record<string, string>;
  signInPolicy?: SignInPolicy;
  logger?: FastifyBaseLogger;
  onJobsEnqueued?: () => void;
  /** The built web app; none by default, so only the API answers. */
  distDir?: string;
  /** Also listen on a loopback port, for requests over a real socket (`rawRequest(api.baseUrl, …)`). */
  listen?: boolean;
  /** Where files go: DATA_DIR/files (the default), or a fresh bucket on the test file's S3 server. */
  storage?: StorageKind;
}

/** What each request of a caller carries besides its cookie. */
export interface RequestExtra {
  headers?: Record<string, string>;
  remoteAddress?: string;
}

export type Body = InjectOptions['payload'];

/** Requests as one caller, each with the caller's cookie. An object body goes as JSON; a string or Buffer as it is, with the content-type in `extra.headers`. */
export interface Caller {
  get(url: string, extra?: RequestExtra): Promise<LightMyRequestResponse>;
  post(url: string, body?: Body, extra?: RequestExtra): Promise<LightMyRequestResponse>;
  patch(url: string, body?: Body, extra?: RequestExtra): Promise<LightMyRequestResponse>;
  put(url: string, body?: Body, extra?: RequestExtra): Promise<LightMyRequestResponse>;
  delete(url: string, body?: Body, extra?: RequestExtra): Promise<LightMyRequestResponse>;
}

/** Whom a request comes from: a signed-in person, a Cookie header as a browser would send it, or nobody. */
export type Who = { cookie: string } | string | undefined;

export interface Api {
  readonly app: FastifyInstance;
  readonly database: TestDatabase;
  readonly db: Db;
  readonly config: Config;
  /** The app's encrypted file storage (its FileVault). */
  readonly files: FileVault;
  /** The storage under it, with `rawFiles` to read what it holds as it lies on disk. */
  readonly storage: TestStorage;
  /** The address the app listens on, with `listen: true`. */
  readonly baseUrl: string;
  /** Requests as `who` (anonymous without one), each with `defaults` under its own extra. */
  as(who?: Who, defaults?: RequestExtra): Caller;
}

/**
 * The app over a fresh, migrated database of `backend`, for one `describe`:
 * built before its tests and closed (database dropped) after them. Call it in
 * the body of `describe.each(backends)`; the handle's parts are there once
 * the tests run.
 */
export function setupApi(backend: Backend, options: ApiOptions = {}): Api {
  // Registered first, so its bucket exists before the app is built and outlives it.
  const storage = useStorage(options.storage ?? 'disk');
  // The bucket's S3_* are known once its beforeAll ran; disk storage needs nothing more.
  let config: Config | undefined = options.storage === 's3' ? undefined : testConfig(options.env);
  let built: { app: FastifyInstance; database: TestDatabase; files: FileVault; baseUrl: string } | undefined;
  const ready = () => {
    if (!built) throw new Error('setupApi: the app is built in beforeAll; use it inside a hook or a test');
    return built;
  };

  beforeAll(async () => {
    config ??= testConfig({ ...options.env, ...storage.env });
    const database = await createTestDatabase(backend);
    try {
      const files = await openFileVault(config, { warn: () => {} });
      const app = await buildApp({
        config,
        database,
        files,
        distDir: options.distDir ?? '/nonexistent',
        ...(options.signInPolicy ? { signInPolicy: options.signInPolicy } : {}),
        ...(options.logger ? { logger: options.logger } : {}),
        ...(options.onJobsEnqueued ? { onJobsEnqueued: options.onJobsEnqueued } : {}),
      });
      built = { app, database, files, baseUrl: '' };
      if (options.listen) built.baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
    } catch (error) {
      await built?.app.close();
      await database.destroy();
      built = undefined;
      throw error;
    }
  });
  afterAll(async () => {
    const done = built;
    built = undefined;
    await done?.app.close();
    await done?.database.destroy();
  });

  const as = (who?: Who, defaults: RequestExtra = {}): Caller => {
    const cookie = typeof who === 'string' ? who : who?.cookie;
    const send = (method: InjectOptions['method'], url: string, body: Body, extra: RequestExtra = {}) => {
      const remoteAddress = extra.remoteAddress ?? defaults.remoteAddress;
      return ready().app.inject({
        method,
        url,
        headers: { ...(cookie ? { cookie } : {}), ...defaults.headers, ...extra.headers },
        ...(body === undefined ? {} : { payload: body }),
        ...(remoteAddress ? { remoteAddress } : {}),
      });
    };
    return {
      get: (url, extra) => send('GET', url, undefined, extra),
      post: (url, body, extra) => send('POST', url, body, extra),
      patch: (url, body, extra) => send('PATCH', url, body, extra),
      put: (url, body, extra) => send('PUT', url, body, extra),
      delete: (url, body, extra) => send('DELETE', url, body, extra),
    };
  };

  return {
    get app() {
      return ready().app;
    },
    get database() {
      return ready().database;
    },
    get db() {
      return ready().database.db;
    },
    get config() {
      if (!config) throw new Error('setupApi: the configuration names the bucket made in beforeAll; use it inside a hook or a test');
      return config;
    },
    get files() {
      return ready().files;
    },
    storage,
    get baseUrl() {
      const { baseUrl } = ready();
      if (!baseUrl) throw new Error('setupApi: pass { listen: true } for a baseUrl');
      return baseUrl;
    },
    as,
  };
}
