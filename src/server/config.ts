import { existsSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_PUBLIC_CONFIG as defaults, publicConfigFrom, type PublicConfig } from '../shared/public-config';

const emptyToUndefined = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);
const optionalUrl = (protocols: string[]) =>
  z.preprocess(
    emptyToUndefined,
    z
      .url({ error: `must be a URL starting with ${protocols.join(' or ')}` })
      .refine((value) => protocols.some((p) => value.startsWith(p)), { error: `must start with ${protocols.join(' or ')}` })
      .optional(),
  );
const intInRange = (min: number, max: number, fallback: number) => z.preprocess(emptyToUndefined, z.coerce.number().int().min(min).max(max).default(fallback));

/** An address (`10.0.0.5`, `::1`) or a range of them (`10.0.0.0/8`, `fd00::/8`). */
const isAddressOrRange = (entry: string) => {
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
};

/**
 * Whom to believe about the client's address (`X-Forwarded-For`): nobody
 * (`false`), every hop (`true`: only when nothing reaches the app but the
 * proxy, and the proxy overwrites the header), or the proxies' own addresses,
 * comma-separated (the app then takes the nearest address that is not one of
 * them, so a client cannot pass one off in the header it sends).
 */
const trustProxySetting = z.preprocess(
  emptyToUndefined,
  z
    .string()
    .default('false')
    .transform((value, context): boolean | string => {
      if (['true', '1'].includes(value)) return true;
      if (['false', '0'].includes(value)) return false;
      const entries = value.split(',').map((entry) => entry.trim());
      const bad = entries.filter((entry) => !isAddressOrRange(entry));
      if (bad.length === 0) return entries.join(',');
      context.addIssue({
        code: 'custom',
        message: `must be true, false, or the proxies' addresses or ranges, comma-separated (e.g. 127.0.0.1,10.0.0.0/8); not ${bad.map((b) => JSON.stringify(b)).join(', ')}`,
      });
      return z.NEVER;
    }),
);

/** Every environment variable Coverly reads, with its embedded-mode default. `.env.example` documents each. */
const EnvSchema = z.object({
  NODE_ENV: z.preprocess(emptyToUndefined, z.enum(['development', 'production', 'test']).default('production')),
  PORT: intInRange(0, 65535, 3000),
  HOST: z.preprocess(emptyToUndefined, z.string().default('0.0.0.0')),
  PUBLIC_URL: optionalUrl(['http://', 'https://']),
  DATA_DIR: z.preprocess(emptyToUndefined, z.string().default('data')),
  DATABASE_URL: optionalUrl(['postgres://', 'postgresql://']),
  SMTP_URL: optionalUrl(['smtp://', 'smtps://']),
  MAIL_FROM: z.preprocess(emptyToUndefined, z.string().default('Coverly <no-reply@coverly.localhost>')),
  NOTIFY_EMAIL: z.preprocess(emptyToUndefined, z.email({ error: 'must be an e-mail address' }).default('team@coverly.localhost')),
  BRAND_NAME: z.preprocess(emptyToUndefined, z.string().trim().min(1).max(60).default(defaults.brandName)),
  CONTACT_EMAIL: z.preprocess(emptyToUndefined, z.email({ error: 'must be an e-mail address' }).default(defaults.contactEmail)),
  CONTACT_PHONE: z.preprocess(emptyToUndefined, z.string().trim().max(40).default(defaults.contactPhone)),
  CONTACT_CITY: z.preprocess(emptyToUndefined, z.string().trim().max(80).default(defaults.contactCity)),
  AUTH_SECRET: z.preprocess(emptyToUndefined, z.string().min(32, { error: 'must be at least 32 characters' }).optional()),
  TRUST_PROXY: trustProxySetting,
  LOG_LEVEL: z.preprocess(emptyToUndefined, z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info')),
  WAITLIST_RATE_LIMIT: intInRange(1, 100_000, 10),
  WAITLIST_RATE_WINDOW_SECONDS: intInRange(1, 86_400, 600),
  COMMENT_RATE_LIMIT: intInRange(1, 100_000, 30),
  REALTIME_STREAMS_PER_PERSON: intInRange(1, 100_000, 20),
  REMINDERS_SENT_NOW_PER_DAY: intInRange(1, 1000, 3),
  JOB_RETENTION_DAYS: intInRange(1, 3650, 7),
  REQUEST_TIMEOUT_SECONDS: intInRange(10, 86_400, 1800),
  BODY_TIMEOUT_SECONDS: intInRange(1, 3600, 30),
  CONNECTION_TIMEOUT_SECONDS: intInRange(30, 86_400, 120),
  UPLOADS_OPEN_PER_PERSON: intInRange(1, 10_000, 20),
  UPLOADS_OPEN_PER_LINK: intInRange(1, 1000, 3),
  UPLOAD_MB_PER_PERSON_PER_DAY: intInRange(1, 10_000_000, 2048),
  UPLOAD_MB_PER_LINK: intInRange(1, 10_000_000, 500),
  /** 32 bytes, base64: wraps every file's data key. Embedded mode generates one into DATA_DIR/keys. */
  MASTER_KEY: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .refine((value) => Buffer.from(value, 'base64').length === 32 && /^[A-Za-z0-9+/_-]+={0,2}$/.test(value), {
        error: 'must be 32 random bytes in base64 (make one with `openssl rand -base64 32`)',
      })
      .optional(),
  ),
  /** Older master keys (comma-separated), kept only to read files until `rotate-master-key` re-wrapped them. */
  MASTER_KEYS_RETIRED: z.preprocess(emptyToUndefined, z.string().optional()),
  MAX_UPLOAD_MB: intInRange(1, 100_000, 50),
  S3_BUCKET: z.preprocess(emptyToUndefined, z.string().optional()),
  S3_ENDPOINT: optionalUrl(['http://', 'https://']),
  S3_REGION: z.preprocess(emptyToUndefined, z.string().default('us-east-1')),
  S3_ACCESS_KEY_ID: z.preprocess(emptyToUndefined, z.string().optional()),
  S3_SECRET_ACCESS_KEY: z.preprocess(emptyToUndefined, z.string().optional()),
});

export type Env = z.infer<typeof EnvSchema>;

export interface Config {
  env: Env['NODE_ENV'];
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  notifyEmail: string;
  /** Signs session cookies; when unset, one is generated once into DATA_DIR/keys. */
  authSecret: string | undefined;
  /** Fastify's `trustProxy`: false, true (every hop), or the proxies' addresses and ranges, comma-separated. */
  trustProxy: boolean | string;
  logLevel: Env['LOG_LEVEL'];
  waitlistRateLimit: { max: number; windowMs: number };
  /** Comments (posts and edits) one person may send per minute. */
  commentRateLimit: number;
  /** Live event streams (browser tabs) one person may hold open on one instance at once. */
  realtimeStreamsPerPerson: number;
  /** "Send reminder now" presses one loan may have in any 24 hours (each mails every borrower who owes). */
  remindersSentNowPerDay: number;
  /** How long a done background job (a sent e-mail) is kept before the worker deletes it. */
  jobRetentionDays: number;
  /** How slowly a request may arrive (docs/DEPLOY.md, "Timeouts"). */
  timeouts: {
    /** The longest a request may take to arrive whole (Node's requestTimeout): the largest upload on a slow phone fits. */
    requestMs: number;
    /** An ordinary body must arrive within this; an upload must bring 16 KB in every such window. */
    bodySeconds: number;
    /** A connection with nothing sent either way for this long is closed (Fastify's connectionTimeout). */
    connectionMs: number;
  };
  /** What unfinished and stored uploads one person or one link may hold (docs/SECURITY.md, "Upload quotas"). */
  uploadQuota: {
    openPerPerson: number;
    openPerLink: number;
    /** Bytes a person may have announced in unfinished uploads plus stored in versions over the last 24 hours. */
    bytesPerPersonPerDay: number;
    /** Bytes one link may have announced in unfinished uploads plus stored in versions, ever. */
    bytesPerLink: number;
  };
  /** MASTER_KEY (base64) and any retired ones; when unset, embedded mode generates one into DATA_DIR/keys. */
  masterKey: string | undefined;
  retiredMasterKeys: string[];
  /** The largest file one may upload, in bytes (MAX_UPLOAD_MB). */
  maxUploadBytes: number;
  /** Where encrypted files go: DATA_DIR/files, or an S3-compatible bucket when S3_BUCKET is set. */
  s3: S3Config | undefined;
  publicConfig: PublicConfig;
}

export interface S3Config {
  bucket: string;
  endpoint: string | undefined;
  region: string;
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Parses the environment once at start; a bad value throws a ConfigError naming the variable. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Config {
  const parsed = EnvSchema.safeParse(source);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  }
  const env = parsed.data;
  const s3Problems = checkS3(env);
  if (s3Problems.length > 0) throw new ConfigError(s3Problems);
  const port = env.PORT;
  return {
    env: env.NODE_ENV,
    port,
    host: env.HOST,
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, ''),
    dataDir: path.resolve(cwd, env.DATA_DIR),
    databaseUrl: env.DATABASE_URL,
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM,
    notifyEmail: env.NOTIFY_EMAIL,
    authSecret: env.AUTH_SECRET,
    trustProxy: env.TRUST_PROXY,
    logLevel: env.LOG_LEVEL,
    waitlistRateLimit: { max: env.WAITLIST_RATE_LIMIT, windowMs: env.WAITLIST_RATE_WINDOW_SECONDS * 1000 },
    commentRateLimit: env.COMMENT_RATE_LIMIT,
    realtimeStreamsPerPerson: env.REALTIME_STREAMS_PER_PERSON,
    remindersSentNowPerDay: env.REMINDERS_SENT_NOW_PER_DAY,
    jobRetentionDays: env.JOB_RETENTION_DAYS,
    timeouts: {
      requestMs: env.REQUEST_TIMEOUT_SECONDS * 1000,
      bodySeconds: env.BODY_TIMEOUT_SECONDS,
      connectionMs: env.CONNECTION_TIMEOUT_SECONDS * 1000,
    },
    uploadQuota: {
      openPerPerson: env.UPLOADS_OPEN_PER_PERSON,
      openPerLink: env.UPLOADS_OPEN_PER_LINK,
      bytesPerPersonPerDay: env.UPLOAD_MB_PER_PERSON_PER_DAY * 1024 * 1024,
      bytesPerLink: env.UPLOAD_MB_PER_LINK * 1024 * 1024,
    },
    masterKey: env.MASTER_KEY,
    retiredMasterKeys: (env.MASTER_KEYS_RETIRED ?? '')
      .split(',')
      .map((key) => key.trim())
      .filter(Boolean),
    maxUploadBytes: env.MAX_UPLOAD_MB * 1024 * 1024,
    s3: env.S3_BUCKET
      ? {
          bucket: env.S3_BUCKET,
          endpoint: env.S3_ENDPOINT,
          region: env.S3_REGION,
          accessKeyId: env.S3_ACCESS_KEY_ID,
          secretAccessKey: env.S3_SECRET_ACCESS_KEY,
        }
      : undefined,
    publicConfig: publicConfigFrom({
      brandName: env.BRAND_NAME,
      contactEmail: env.CONTACT_EMAIL,
      contactPhone: env.CONTACT_PHONE,
      contactCity: env.CONTACT_CITY,
    }),
  };
}

/**
 * S3 settings that cannot work: a bucket's details without S3_BUCKET (files
 * would quietly stay on the disk), or half a key pair. With neither key the
 * SDK's default chain applies (AWS_* variables, a profile, the instance role).
 */
function checkS3(env: Env): string[] {
  const problems: string[] = [];
  const others = (['S3_ENDPOINT', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const).filter((name) => env[name] !== undefined);
  if (!env.S3_BUCKET && others.length > 0) problems.push(`S3_BUCKET: must be set when ${others.join(', ')} ${others.length === 1 ? 'is' : 'are'}`);
  if ((env.S3_ACCESS_KEY_ID === undefined) !== (env.S3_SECRET_ACCESS_KEY === undefined))
    problems.push(`${env.S3_ACCESS_KEY_ID === undefined ? 'S3_ACCESS_KEY_ID' : 'S3_SECRET_ACCESS_KEY'}: must be set with the other half of the key`);
  return problems;
}

/** Reads `.env` from the working directory when there is one; variables already set win. */
export function loadDotEnv(cwd = process.cwd()) {
  const file = path.join(cwd, '.env');
  if (existsSync(file)) process.loadEnvFile(file);
}
