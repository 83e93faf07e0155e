import { connectDb, disconnectDb } from './db';
import { EnvError, loadEnv, type Env } from './env';

/**
 * Runs a one-shot command against the configured database (the seed, the photo migration): loads
 * the environment, connects, runs `work`, prints the line it returns, disconnects, and exits 0, or
 * 1 with `<name> failed: …` (just the message for a configuration error).
 */
export function runCli(name: string, work: (env: Env) => Promise<string>): void {
  const main = async () => {
    const env = loadEnv();
    await connectDb(env);
    try {
      process.stdout.write(`${name}: ${await work(env)}\n`);
    } finally {
      await disconnectDb();
    }
  };
  main()
    .then(() => process.exit(0))
    .catch((err: unknown) => {
      process.stderr.write(
        `${name} failed: ${err instanceof EnvError ? err.message : String((err as Error).stack ?? err)}\n`,
      );
      process.exit(1);
    });
}
