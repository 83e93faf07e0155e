import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', ''])
  .default('false')
  .transform((v) => v === 'true' || v === '1');

const csv = z
  .string()
  .default('')
  .transform((v) =>
    v
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  HOST: z.string().min(1).default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(5000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional(),
  MONGODB_URI: z.string().regex(/^mongodb(\+srv)?:\/\/\S+$/, 'must be a mongodb:// or mongodb+srv:// URI'),
  MONGODB_EMBEDDED: bool,
  MONGODB_POOL_SIZE: z.coerce.number().int().min(1).max(500).optional(),
  /** How long a query waits for a reachable server before we answer 503. */
  MONGODB_SERVER_SELECTION_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(2000),
  FIREBASE_PROJECT_ID: z.string().min(1),
  FIREBASE_AUTH_EMULATOR_HOST: z
    .string()
    .regex(/^[\w.-]+:\d+$/, 'must be host:port')
    .optional(),
  STRIPE_SECRET_KEY: z.string().regex(/^(sk|rk)_(test|live)_\S+$/, 'must be a Stripe secret key (sk_test_…)'),
  STRIPE_WEBHOOK_SECRET: z.string().regex(/^whsec_\S+$/, 'must start with whsec_'),
  /** Points the Stripe client at stripe-mock locally; unset means the real Stripe API. */
  STRIPE_API_BASE: z.url({ protocol: /^https?$/ }).optional(),
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters'),
  JWT_EXPIRES_IN_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .default(24 * 60 * 60),
  ADMIN_EMAILS: csv.transform((list) => list.map((e) => e.toLowerCase())),
  CORS_ORIGINS: csv,
  /**
   * How long a cached catalogue read (GET /parts, /parts/:id, /review) may be served. Writes
   * through this process invalidate at once; the TTL only bounds staleness from writes by other
   * processes. `unlimited` = until invalidated, `0` = no cache. Default: see catalogCacheTtlMs.
   */
  CATALOG_CACHE_TTL_MS: z
    .union([
      z.literal('unlimited'),
      z.coerce
        .number()
        .int()
        .min(0)
        .max(24 * 60 * 60 * 1000),
    ])
    .optional(),
  /** How long an unpaid order holds its stock before it expires (fractions allowed, for tests). */
  ORDER_HOLD_MINUTES: z.coerce
    .number()
    .positive()
    .max(365 * 24 * 60)
    .default(60),
  /** Open (unpaid, not expired) orders one customer may have at once; 0 = no cap. */
  MAX_OPEN_ORDERS: z.coerce.number().int().min(0).max(100_000).default(5),
  /** How often the recovery pass finishes or undoes order steps a crash or outage left half done. */
  ORDER_RECOVERY_INTERVAL_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
  /**
   * With a shared MongoDB (several API processes), a half-done order step is only recovered once
   * it is this old, so another process's request still running is never undone under its feet.
   */
  ORDER_RECOVERY_GRACE_MS: z.coerce.number().int().min(0).max(3_600_000).default(60_000),
  /** On SIGTERM/SIGINT: how long in-flight requests may take before their connections are cut. */
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).max(120_000).default(10_000),
  BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(10 * 1024 * 1024)
    .default(100 * 1024),
});

export type Env = z.infer<typeof envSchema>;

export class EnvError extends Error {
  constructor(
    readonly variables: string[],
    message: string,
  ) {
    super(message);
    this.name = 'EnvError';
  }
}

/** Parses the environment; throws an EnvError naming every missing or malformed variable. */
export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  // Empty strings mean "unset" (docker-compose passes `VAR=` for unset values).
  const cleaned: Record<string, string> = {};
  for (const [k, v] of Object.entries(source)) if (v !== undefined && v !== '') cleaned[k] = v;
  if (cleaned.PORT === undefined && cleaned.PORT_API !== undefined) cleaned.PORT = cleaned.PORT_API;
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => {
      const name = String(i.path[0] ?? '?');
      const problem = cleaned[name] === undefined ? 'is missing' : `is invalid (${i.message})`;
      return `  ${name} ${problem}`;
    });
    const names = parsed.error.issues.map((i) => String(i.path[0] ?? '?'));
    throw new EnvError(names, `Invalid environment:\n${lines.join('\n')}`);
  }
  return parsed.data;
}

/** Pool size: 1 against the embedded FerretDB (each operation then runs alone, guide §3). */
export function poolSize(env: Env): number | undefined {
  return env.MONGODB_POOL_SIZE ?? (env.MONGODB_EMBEDDED ? 1 : undefined);
}

/**
 * Catalogue cache TTL. Embedded FerretDB: unlimited, because this process is the only writer
 * (one API per embedded DB, seeding before start or through this connection, guide §3), and
 * every write through it invalidates exactly. MongoDB via MONGODB_URI: 2 s, because several API
 * instances (or an operator's script) may write; each instance then shows another's write within
 * 2 s, while its own writes are visible at once. Stock shown is informative only: orders are
 * always checked by a conditional update in the database.
 */
export function catalogCacheTtlMs(env: Env): number {
  const v = env.CATALOG_CACHE_TTL_MS;
  if (v === 'unlimited') return Infinity;
  return v ?? (env.MONGODB_EMBEDDED ? Infinity : 2000);
}
