import net from 'node:net';
import { createApp } from './app';
import { connectDb, disconnectDb } from './lib/db';
import { renameStoredFields } from './stored-names';
import { EnvError, loadEnv, productionProblems, readModelKind, shopUrl, type Env } from './lib/env';
import { trackConnections } from './lib/connections';
import { lifecycle } from './lib/lifecycle';
import { createLogger, type Logger } from './lib/logger';
import { startMailer } from './mail/outbox';
import { createMailTransport, type MailTransport } from './mail/transport';
import { orderMailSources } from './orders/mails';
import { stockAlertSource, watchStock } from './parts/stock-alerts';
import { createStripe } from './lib/stripe';
import { startOrderJobs, type OrderJobs } from './orders/jobs';
import { startImageRehosting, type RehostJob } from './images/jobs';
import { sweepStripeEvents } from './payments/model';
import { stripePayments } from './payments/service';
import { catalogueFor } from './parts/catalogue';
import { userLookupFor } from './users/lookup';
import { readModelsFor } from './read-models';

function readEnv(): Env {
  try {
    const env = loadEnv();
    const problems = productionProblems(env);
    if (problems.length > 0) {
      process.stderr.write(
        `motoparts-api: refusing to start with NODE_ENV=production:\n${problems.map((p) => `  ${p}\n`).join('')}`,
      );
      process.exit(1);
    }
    return env;
  } catch (err) {
    if (err instanceof EnvError) {
      process.stderr.write(`motoparts-api: ${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
}

/**
 * The mail worker over the outboxes of orders, checkouts and parts, and the watch on stock that
 * queues the admins' alerts. Mail leaves only from here, off every request's path.
 */
function startMail(env: Env, transport: MailTransport, logger: Logger): { stop: () => Promise<void> } {
  const shop = shopUrl(env);
  const stock = watchStock(env.LOW_STOCK_FACTOR, logger);
  const mailer = startMailer({
    sender: transport,
    from: env.MAIL_FROM,
    sources: [...orderMailSources(shop), stockAlertSource(shop, env.ADMIN_EMAILS)],
    log: logger,
    intervalMs: env.MAIL_INTERVAL_MS,
    // Other API processes may die with mail queued: with MongoDB an indexed query finds it. The
    // embedded database has one API process, whose own queue is known; its start finds the rest.
    sweepEveryMs: readModelKind(env) === 'database' ? 60_000 : undefined,
  });
  // Mail a previous process queued and did not send (it stopped, or died) goes now.
  mailer.nudge();
  return {
    async stop() {
      stock.stop();
      await mailer.stop();
    },
  };
}

/** How long a connection that reads and answers nothing stays open once the API is draining. */
const CONNECTION_GRACE_MS = 1_000;

async function main(): Promise<void> {
  const env = readEnv();
  const logger = createLogger(env);
  if (env.NODE_ENV === 'production' && env.ALLOW_LOCAL_SERVICES) {
    logger.warn('ALLOW_LOCAL_SERVICES=1: a demo; local stand-ins for Firebase Auth and Stripe are allowed');
  }
  if (env.NODE_ENV === 'production' && env.STRIPE_TEST_MODE) {
    logger.warn('STRIPE_TEST_MODE=1: a staging deployment; a Stripe test key (test cards pay) is allowed');
  }
  if (env.MAIL_DISABLED) logger.warn('MAIL_DISABLED=1: the API sends no mail');
  else if (!env.SMTP_URL) logger.warn('SMTP_URL is not set: the API sends no mail');
  const catalogue = catalogueFor(env);
  const userLookup = userLookupFor(env);
  const reads = readModelsFor(env);
  const app = createApp({ env, logger, catalogue, userLookup, reads });
  const server = app.listen(env.PORT, env.HOST);
  const connections = trackConnections(server, CONNECTION_GRACE_MS);
  server.on('error', (err: NodeJS.ErrnoException) => {
    logger.fatal(
      err.code === 'EADDRINUSE'
        ? `Port ${env.PORT} is already in use (set PORT to another one).`
        : err.message,
    );
    process.exit(1);
  });
  server.on('listening', () => logger.info(`API listening on http://${env.HOST}:${env.PORT}`));
  // Listen first: /health answers 503 until the database is reachable and the catalogue loaded.
  let jobs: OrderJobs | undefined;
  const transport = createMailTransport(env);
  let mail: { stop: () => Promise<void> } | undefined;
  let photos: RehostJob | undefined;
  lifecycle.warming = true;
  void connectDb(env, logger, { retry: true }).then(async () => {
    logger.info('database connected');
    // Before anything reads the data: documents still under old field names get today's.
    for (;;) {
      try {
        await renameStoredFields(logger);
        break;
      } catch (err) {
        logger.warn({ err: (err as Error).message }, 'stored fields not renamed yet; retrying in 1s');
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
    // Whatever a crash left half done is repaired (the first pass scans every order once) and
    // the catalogue is loaded before readiness says yes, so shoppers never queue behind either.
    if (!lifecycle.draining)
      jobs = startOrderJobs(env, reads.orders, stripePayments(createStripe(env)), logger);
    if (transport && !lifecycle.draining) mail = startMail(env, transport, logger);
    // Photos still stored as outside URLs (older data, imports) are fetched and hosted here.
    if (!lifecycle.draining) photos = startImageRehosting(env, logger);
    // Applied Stripe events are remembered a month, then forgotten.
    setInterval(
      () =>
        void sweepStripeEvents().catch((err: unknown) =>
          logger.debug({ err: (err as Error).message }, 'Stripe events not swept'),
        ),
      60 * 60_000,
    ).unref();
    const started = Date.now();
    try {
      await catalogue.warm();
      logger.info({ ms: Date.now() - started }, 'catalogue loaded');
    } catch (err) {
      // Not fatal: the catalogue then loads on the first read, as it would after an invalidation.
      logger.warn({ err: (err as Error).message }, 'catalogue not loaded at start');
    }
    // The lists kept in memory (every order, every account's email), read once now rather than at
    // the first Manage Order or Manage User; nothing to read for the database's read models. The
    // Overview's figures are read when it is first asked for (sales/read-models.ts).
    await reads.orders
      .warm()
      .catch((err: unknown) => logger.warn({ err: (err as Error).message }, 'order list not read at start'));
    await userLookup
      .warm()
      .catch((err: unknown) => logger.warn({ err: (err as Error).message }, 'user list not read at start'));
    await jobs?.started;
    lifecycle.warming = false;
  });

  // Graceful shutdown: readiness goes 503 and the listener closes (new connections are refused),
  // in-flight requests finish, then the background jobs and the database stop, all within
  // SHUTDOWN_TIMEOUT_MS (a stalled database must not keep the process up either). A second
  // signal exits at once.
  /** How long the listener keeps accepting after the signal (see below). */
  const LISTEN_GRACE_MS = 300;
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) {
      logger.warn(`${signal} again: exiting now`);
      process.exit(1);
    }
    stopping = true;
    lifecycle.draining = true;
    logger.warn({ inFlight: lifecycle.inFlight }, `${signal}: draining`);
    // One deadline for both phases: a slow drain leaves less time for the database, not more.
    const deadline = Date.now() + env.SHUTDOWN_TIMEOUT_MS;
    // Connections the kernel completed just before the signal wait in the listen backlog until
    // the busy event loop accepts them; closing the listener at once would reset them. So keep
    // accepting for a moment (readiness is already 503 and every answer says Connection: close),
    // then stop. http.Server#close would also drop every connection without a request in
    // progress, including ones whose request has not been read yet; instead a sweep every 250 ms
    // closes those that have read nothing and answered nothing for a second (lib/connections.ts).
    await new Promise((resolve) => setTimeout(resolve, Math.min(LISTEN_GRACE_MS, env.SHUTDOWN_TIMEOUT_MS)));
    // One more I/O pass first: connections the kernel completed meanwhile are accepted, not reset.
    await new Promise((resolve) => setImmediate(resolve));
    const closed = new Promise<void>((resolve) => net.Server.prototype.close.call(server, () => resolve()));
    const sweep = setInterval(connections.closeResting, 250);
    void closed.then(() => clearInterval(sweep));
    const timeout = () =>
      new Promise<'timeout'>((resolve) =>
        setTimeout(() => resolve('timeout'), Math.max(0, deadline - Date.now())).unref(),
      );
    if ((await Promise.race([closed, timeout()])) === 'timeout') {
      logger.warn({ inFlight: lifecycle.inFlight }, 'shutdown timeout: closing the remaining connections');
      server.closeAllConnections();
    }
    // Closing the database waits for the operations queued on its one connection. Exiting with
    // some still queued is safe: every order step is single-document, and the next start's
    // recovery pass finishes or undoes whatever was left half done.
    const released = (async () => {
      await jobs?.stop().catch(() => undefined);
      await mail?.stop().catch(() => undefined);
      await photos?.stop().catch(() => undefined);
      transport?.close();
      await disconnectDb().catch(() => undefined);
    })();
    if ((await Promise.race([released, timeout()])) === 'timeout') {
      logger.warn('shutdown timeout: the database did not close in time, exiting with work still queued');
    } else {
      logger.info('stopped');
    }
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

void main();
