import { createApp } from './app';
import { connectDb, disconnectDb } from './db';
import { EnvError, loadEnv, productionProblems, type Env } from './env';
import { createLogger } from './logger';

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

async function main(): Promise<void> {
  const env = readEnv();
  const logger = createLogger(env);
  if (env.NODE_ENV === 'production' && env.ALLOW_LOCAL_SERVICES) {
    logger.warn('ALLOW_LOCAL_SERVICES=1: a demo; local stand-ins for Firebase Auth and Stripe are allowed');
  }
  const app = createApp({ env, logger });
  const server = app.listen(env.PORT, env.HOST);
  server.on('error', (err: NodeJS.ErrnoException) => {
    logger.fatal(
      err.code === 'EADDRINUSE'
        ? `Port ${env.PORT} is already in use (set PORT to another one).`
        : err.message,
    );
    process.exit(1);
  });
  server.on('listening', () => logger.info(`API listening on http://${env.HOST}:${env.PORT}`));
  // Listen first: /health answers 503 until the database is reachable.
  void connectDb(env, logger, { retry: true }).then(() => logger.info('database connected'));

  const stop = (signal: string) => {
    logger.info(`${signal}: shutting down`);
    server.close();
    server.closeAllConnections();
    void disconnectDb().finally(() => process.exit(0));
    setTimeout(() => process.exit(0), 3000).unref();
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}

void main();
