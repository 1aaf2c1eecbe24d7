import type { AddressInfo } from 'node:net';
import { ConfigError, loadConfig, loadDotEnv } from './config';
import { lastRunFile, recordLastRun } from './last-run';
import { createRuntime } from './runtime';

async function main() {
  let config;
  try {
    loadDotEnv();
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }

  let runtime;
  try {
    runtime = await createRuntime(config);
  } catch (error) {
    // A setting that only the start can check (AUTH_SECRET with DATABASE_URL): the same message and exit as a bad variable.
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }
  const { app, worker, logger, database, mailer } = runtime;
  await app.listen({ port: config.port, host: config.host });
  worker.start();
  // For the CLI: the links it prints point where this server is, even without its PORT or PUBLIC_URL.
  const { port } = app.server.address() as AddressInfo;
  await recordLastRun(config.dataDir, { publicUrl: config.publicUrl, port }).catch((error: unknown) =>
    logger.warn(
      { err: error, file: lastRunFile(config.dataDir) },
      'could not record where the server runs; the CLI will build links from its own PORT and PUBLIC_URL',
    ),
  );
  logger.info(
    { database: database.kind === 'pglite' ? `PGlite in ${config.dataDir}/db` : 'PostgreSQL (DATABASE_URL)', mail: mailer.describe, url: config.publicUrl },
    `${config.publicConfig.brandName} is ready at ${config.publicUrl}`,
  );

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      logger.info({ signal }, 'shutting down: finishing in-flight requests and jobs');
      const force = setTimeout(() => {
        logger.error('shutdown took longer than 20 s; exiting');
        process.exit(1);
      }, 20_000);
      force.unref();
      runtime.stop().then(
        () => process.exit(0),
        (error: unknown) => {
          logger.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
    });
  }
}

main().catch((error: unknown) => {
  console.error('Coverly failed to start:', error);
  process.exit(1);
});
