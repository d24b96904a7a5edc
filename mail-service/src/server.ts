import type { ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { logDestination } from '@site/serving/request-log';
import pino from 'pino';
import { createLimitedServer } from '@site/serving/connections';
import {
  ConfigError,
  connectionLimits,
  describeStore,
  describeTarget,
  loadConfig,
  prepareFolders,
  type Config,
} from './config';
import { MoveInError } from './outbox/move-in';
import type { MessageCounts } from './outbox/queries';
import { createService, type Service } from './service';

/** sysexits.h's EX_CONFIG: a restart cannot help, a setting must change (`npm start` stops). */
const EX_CONFIG = 78;

/** The settings, and the folders they name made and checked; a bad one ends the process here. */
function readConfig(): Config {
  try {
    const config = loadConfig();
    prepareFolders(config);
    return config;
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`mail-service: ${error.message}\n`);
      process.exit(EX_CONFIG);
    }
    throw error;
  }
}

async function main(): Promise<void> {
  const config = readConfig();
  const logger = pino(
    { level: config.LOG_LEVEL, base: { service: 'mail-service' } },
    logDestination(1),
  );

  const service: Service = createService(config, { logger });
  const { app, outbox, courier } = service;
  try {
    await outbox.ready();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    logger.fatal(
      { store: describeStore(config), err: reason },
      error instanceof MoveInError
        ? reason
        : `cannot open the outbox in ${describeStore(config)}: check DATABASE_URL and that the database is reachable`,
    );
    process.exit(1);
  }
  /** The outbox's counts for the logs; null when the outbox cannot be read just now. */
  const countsNow = (): Promise<MessageCounts | null> =>
    Promise.resolve()
      .then(() => outbox.counts())
      .catch(() => null);
  // A client gets HEADERS_TIMEOUT_MS for its headers and REQUEST_TIMEOUT_MS for the whole request:
  // a connection that never sends what it declared is answered 408 and closed.
  const server = createLimitedServer(app, connectionLimits(config));

  let stopping = false;
  // While stopping, every answer closes its connection, so keep-alive clients let go of us.
  server.on('request', (_req, res: ServerResponse) => {
    if (stopping) res.setHeader('Connection', 'close');
  });

  server.on('error', (error: NodeJS.ErrnoException) => {
    const setting =
      error.code === 'EADDRINUSE'
        ? `MAIL_SERVICE_PORT: port ${config.MAIL_SERVICE_PORT} is already in use`
        : error.code === 'EACCES'
          ? `MAIL_SERVICE_PORT: this user may not listen on port ${config.MAIL_SERVICE_PORT}`
          : error.code === 'EADDRNOTAVAIL' ||
              error.code === 'ENOTFOUND' ||
              error.code === 'EAI_AGAIN'
            ? `MAIL_SERVICE_HOST: "${config.MAIL_SERVICE_HOST ?? ''}" is not an address of this machine (${error.code})`
            : undefined;
    logger.fatal(
      {
        err: error.code ?? error.message,
        port: config.MAIL_SERVICE_PORT,
        host: config.MAIL_SERVICE_HOST,
      },
      setting ?? 'the server could not start',
    );
    process.exit(setting ? EX_CONFIG : 1);
  });

  server.listen(config.MAIL_SERVICE_PORT, config.MAIL_SERVICE_HOST, async () => {
    const { port } = server.address() as AddressInfo;
    logger.info(
      {
        port,
        delivery: courier.mode,
        target: describeTarget(config),
        outbox: describeStore(config),
      },
      `mail-service listening on http://localhost:${port}`,
    );
    if (courier.mode === 'mailbox') {
      logger.info(
        { mailboxDir: config.MAILBOX_DIR },
        `SMTP_URL is not set: messages are written as .eml files to ${config.MAILBOX_DIR}`,
      );
    }
    const counts = await countsNow();
    logger.info(
      { messages: counts },
      counts && counts.queued > 0 ? `resuming ${counts.queued} queued message(s)` : 'outbox open',
    );
    if (counts && counts.failed > 0) {
      logger.warn(
        { failed: counts.failed },
        'failed messages are kept in the outbox: `npm run outbox -w mail-service -- list failed`',
      );
    }
    void service.start();
  });

  const shutdown = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: finishing requests and the send in progress');
    const deadline = setTimeout(() => {
      logger.warn('shutdown took too long; exiting with unsent messages left in the outbox');
      server.closeAllConnections();
      Promise.resolve()
        .then(() => outbox.close())
        .finally(() => process.exit(1));
    }, config.SHUTDOWN_TIMEOUT_MS);
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
    });
    const counts = await countsNow();
    await service.stop();
    clearTimeout(deadline);
    logger.info(
      { messages: counts },
      `stopped; ${counts?.queued ?? 'the'} message(s) stay queued for the next start`,
    );
    process.exit(0);
  };
  process.on('SIGTERM', (s) => void shutdown(s));
  process.on('SIGINT', (s) => void shutdown(s));
}

main().catch((error: unknown) => {
  process.stderr.write(`mail-service: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
