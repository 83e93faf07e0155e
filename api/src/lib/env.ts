import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { DEFAULT_CACHE_BUDGET_MB } from './cache-budget';

export const DEFAULT_MAIL_FROM = 'MotoParts <orders@motoparts.test>';

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

/** Whether Intl knows the zone (it throws a RangeError for an unknown one). */
function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return zone.length > 0;
  } catch {
    return false;
  }
}

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  /** A production demo on the local stand-ins (auth emulator, stripe-mock): see productionProblems. */
  ALLOW_LOCAL_SERVICES: bool,
  /** A staging deployment on Stripe's test mode: production then accepts a test key. */
  STRIPE_TEST_MODE: bool,
  HOST: z.string().min(1).default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(5000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional(),
  MONGODB_URI: z.string().regex(/^mongodb(\+srv)?:\/\/\S+$/, 'must be a mongodb:// or mongodb+srv:// URI'),
  MONGODB_EMBEDDED: bool,
  /**
   * Where the lists that a plain query cannot answer fast on the embedded FerretDB come from:
   * `memory` (kept by this process, the embedded database's only writer) or `database` (queries,
   * as with MongoDB, where several processes share the data). Default: `memory` on the embedded
   * database, else `database`; `memory` needs the embedded database.
   */
  READ_MODELS: z.enum(['memory', 'database']).optional(),
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
  /**
   * Lifetime of our API tokens. Short, because renewing one is when a deleted or disabled
   * Firebase account is noticed; the auth remote renews silently before expiry.
   */
  JWT_EXPIRES_IN_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(15 * 60)
    .default(15 * 60),
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
    .default(15),
  /**
   * How long a hold may be extended while Stripe reports its payment under way (`processing`,
   * `requires_action`: a bank's check, a slow method), counted from the order's placing.
   */
  ORDER_HOLD_MAX_MINUTES: z.coerce
    .number()
    .positive()
    .max(365 * 24 * 60)
    .default(60),
  /** Open (unpaid, not expired) orders or checkouts one customer may have at once; 0 = no cap. */
  MAX_OPEN_ORDERS: z.coerce.number().int().min(0).max(100_000).default(5),
  /** The same for an account whose email Firebase has not verified; 0 = as verified ones. */
  MAX_UNVERIFIED_OPEN_ORDERS: z.coerce.number().int().min(0).max(100_000).default(1),
  /**
   * The shop's public address, for the links in mails (pay an order, see My Order). By default
   * the first of CORS_ORIGINS, else the local shell.
   */
  SHOP_URL: z.url({ protocol: /^https?$/ }).optional(),
  /**
   * The API's own public address (the front ends' `apiBaseUrl`): the photos it hosts are named by
   * it in the shop's page heads (Open Graph, JSON-LD). By default the address a request reached.
   */
  PUBLIC_API_URL: z.url({ protocol: /^https?$/ }).optional(),
  /**
   * The shop's time zone (an IANA name such as Europe/Berlin): where the Overview's days begin and
   * end. Checked at start-up against the zones this Node knows.
   */
  SHOP_TIME_ZONE: z
    .string()
    .default('UTC')
    .refine(isTimeZone, { error: 'must be an IANA time zone such as UTC or Europe/Berlin' }),
  /** Admins hear of a part running low when its stock falls below this many times its minimum order. */
  LOW_STOCK_FACTOR: z.coerce.number().min(1).max(1000).default(3),
  /** How many (remote, version) counters of front-end load failures are kept; the least recent goes first. */
  CLIENT_ERRORS_MAX: z.coerce.number().int().min(1).max(10_000).default(500),
  /** How often the mail worker looks for mail to send (it is also woken by each change). */
  MAIL_INTERVAL_MS: z.coerce.number().int().min(50).max(600_000).default(2_000),
  /** How often the recovery pass finishes or undoes order steps a crash or outage left half done. */
  ORDER_RECOVERY_INTERVAL_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
  /**
   * With a shared MongoDB (several API processes), a half-done order step is only recovered once
   * it is this old, so another process's request still running is never undone under its feet.
   */
  ORDER_RECOVERY_GRACE_MS: z.coerce.number().int().min(0).max(3_600_000).default(60_000),
  /**
   * On SIGTERM/SIGINT: the whole shutdown (in-flight requests, then the jobs and the database)
   * ends within this, so the process is gone before a 10 s stop grace period sends SIGKILL.
   */
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).max(120_000).default(8_000),
  /**
   * Reverse proxies in front of the API that append to X-Forwarded-For (1 behind one ingress or
   * load balancer). 0: the header is ignored and the client address is the socket's, because any
   * client can write the header and would otherwise pick its own per-address rate-limit budget.
   */
  TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
  /**
   * Shared with the shop's own servers (server-side includes, jobs): their requests carry it as
   * `X-Service-Token` and are not counted against the anonymous budget of their address.
   */
  SERVICE_TOKEN: z.string().min(32, 'must be at least 32 characters').optional(),
  /** The memory all the API's caches may hold together, in MB (lib/cache-budget.ts). */
  CACHE_BUDGET_MB: z.coerce.number().int().min(1).max(4096).default(DEFAULT_CACHE_BUDGET_MB),
  BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(10 * 1024 * 1024)
    .default(100 * 1024),
  /**
   * The SMTP server the API sends its mail through: `smtp://[user:password@]host:port` (STARTTLS
   * when the server offers it; `?requireTLS=true` insists) or `smtps://` (TLS from the start).
   * Required in production unless MAIL_DISABLED=1; Mailpit locally. May hold a password, so it is
   * read from SMTP_URL_FILE in deployments and never written into an error message.
   */
  SMTP_URL: z
    .url({ protocol: /^smtps?$/, hostname: /./, error: 'must be an smtp:// or smtps:// URL with a host' })
    .optional(),
  /** The sender of every message: an address, optionally with a name. */
  MAIL_FROM: z
    .string()
    .regex(
      /^(?:[^<>\r\n]*<[^\s<>@]+@[^\s<>@.]+(?:\.[^\s<>@.]+)+>|[^\s<>@]+@[^\s<>@.]+(?:\.[^\s<>@.]+)+)$/,
      'must be an address, optionally with a name: Name <user@host.example>',
    )
    .default(DEFAULT_MAIL_FROM),
  /** `1`: the API sends no mail; SMTP_URL and SMTP_URL_FILE are then not read at all. */
  MAIL_DISABLED: bool,
  /** How long fetching an outside photo address may take, redirects included (at most 10 s). */
  IMAGE_FETCH_TIMEOUT_MS: z.coerce.number().int().min(100).max(10_000).default(10_000),
  /** How often the job re-hosting photos still stored as outside URLs looks for some; 0 = never. */
  IMAGE_REHOST_INTERVAL_MS: z.coerce.number().int().min(0).max(86_400_000).default(60_000),
  /** How many documents one pass of that job takes at most. */
  IMAGE_REHOST_BATCH: z.coerce.number().int().min(1).max(1000).default(20),
  /**
   * Tests only (ignored unless NODE_ENV=test): `name=address,…` makes the photo fetcher resolve
   * each name to that address and count the address as public, so one local server can stand in
   * for a public one while every other local address stays refused.
   */
  IMAGE_FETCH_TEST_HOSTS: z
    .string()
    .regex(/^([\w.-]+=[\d.:a-fA-F]+(,|$))*$/, 'must be name=address,name=address')
    .optional(),
});

const rateLimit = z
  .string()
  .regex(/^\d{1,7}\/\d{1,6}$/, 'must be <points>/<seconds>, e.g. 10/60 (0/… turns the limit off)')
  .transform((v) => {
    const [points, seconds] = v.split('/').map(Number) as [number, number];
    return { points, seconds: Math.max(1, seconds) };
  })
  .optional();

/** `RATE_LIMIT_<NAME>=<points>/<seconds>` overrides one default budget of lib/rate-limits.ts. */
const rateLimitsSchema = z
  .object({
    RATE_LIMIT_EXCHANGE_IP: rateLimit,
    RATE_LIMIT_EXCHANGE_USER: rateLimit,
    RATE_LIMIT_ORDER: rateLimit,
    RATE_LIMIT_REVIEW: rateLimit,
    RATE_LIMIT_LISTING: rateLimit,
    RATE_LIMIT_LISTING_ACCOUNT: rateLimit,
    RATE_LIMIT_STRIPE: rateLimit,
    RATE_LIMIT_CHECKOUT: rateLimit,
    RATE_LIMIT_IMAGES: rateLimit,
    RATE_LIMIT_CLIENT_ERRORS: rateLimit,
  })
  .transform((v) => ({
    RATE_LIMITS: {
      exchangeIp: v.RATE_LIMIT_EXCHANGE_IP,
      exchangeUser: v.RATE_LIMIT_EXCHANGE_USER,
      order: v.RATE_LIMIT_ORDER,
      review: v.RATE_LIMIT_REVIEW,
      listing: v.RATE_LIMIT_LISTING,
      listingAccount: v.RATE_LIMIT_LISTING_ACCOUNT,
      stripe: v.RATE_LIMIT_STRIPE,
      checkout: v.RATE_LIMIT_CHECKOUT,
      images: v.RATE_LIMIT_IMAGES,
      clientErrors: v.RATE_LIMIT_CLIENT_ERRORS,
    },
  }));

const rateLimitStoreSchema = z.object({
  /** Where abuse-limit counters live; default: memory with the embedded DB, MongoDB otherwise. */
  RATE_LIMIT_STORE: z.enum(['memory', 'mongo']).optional(),
});

const fullEnvSchema = envSchema.and(rateLimitsSchema).and(rateLimitStoreSchema);

export type Env = z.infer<typeof fullEnvSchema>;

export class EnvError extends Error {
  constructor(
    readonly variables: string[],
    message: string,
  ) {
    super(message);
    this.name = 'EnvError';
  }
}

/**
 * The variables that hold a secret. Each may be given as `<NAME>_FILE`, the path of a file holding
 * the value (a mounted Kubernetes Secret or compose secret), so the value is not in the process
 * environment where `docker inspect`, `kubectl describe` or a crash dump would show it. The
 * Firebase Admin credential is a file already: firebase-admin reads the service-account key that
 * GOOGLE_APPLICATION_CREDENTIALS names.
 */
export const FILE_VARIABLES = [
  'MONGODB_URI',
  'JWT_SECRET',
  'STRIPE_SECRET_KEY',
  'STRIPE_WEBHOOK_SECRET',
] as const;

/**
 * Secrets a deployment gives only when it uses them (the shop's own servers calling the API; the
 * SMTP server, whose URL may hold its password), read from `<NAME>_FILE` in the same way.
 */
export const OPTIONAL_FILE_VARIABLES = ['SERVICE_TOKEN', 'SMTP_URL'] as const;
const ALL_FILE_VARIABLES: readonly string[] = [...FILE_VARIABLES, ...OPTIONAL_FILE_VARIABLES];

interface Problem {
  variables: string[];
  line: string;
}

/**
 * Replaces each `<NAME>_FILE` of FILE_VARIABLES and OPTIONAL_FILE_VARIABLES in `vars` by `<NAME>` with the file's content (one
 * trailing newline removed). Returns the names read from files and one problem per variable that
 * could not be: both forms given, a file that cannot be read, an empty file.
 */
function readFileVariables(vars: Record<string, string>): { fromFile: Set<string>; problems: Problem[] } {
  const fromFile = new Set<string>();
  const problems: Problem[] = [];
  for (const name of ALL_FILE_VARIABLES) {
    const fileVar = `${name}_FILE`;
    const file = vars[fileVar];
    if (file === undefined) continue;
    if (vars[name] !== undefined) {
      problems.push({ variables: [name, fileVar], line: `${name} and ${fileVar} are both set (give one)` });
      continue;
    }
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      const reason = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
      problems.push({ variables: [fileVar], line: `${fileVar} cannot be read (${file}: ${reason})` });
      continue;
    }
    const value = text.replace(/\r?\n$/, '');
    if (value === '') {
      problems.push({ variables: [fileVar], line: `${fileVar} names an empty file (${file})` });
      continue;
    }
    vars[name] = value;
    fromFile.add(name);
  }
  return { fromFile, problems };
}

/** Parses the environment; throws an EnvError naming every missing or malformed variable. */
export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  // Empty strings mean "unset" (docker-compose passes `VAR=` for unset values).
  const cleaned: Record<string, string> = {};
  for (const [k, v] of Object.entries(source)) if (v !== undefined && v !== '') cleaned[k] = v;
  if (cleaned.PORT === undefined && cleaned.PORT_API !== undefined) cleaned.PORT = cleaned.PORT_API;
  // No mail: the SMTP server's URL is not wanted, so not read (a deployment may then mount any
  // placeholder, e.g. /dev/null, where its secret file goes).
  if (cleaned.MAIL_DISABLED === '1' || cleaned.MAIL_DISABLED === 'true') {
    delete cleaned.SMTP_URL;
    delete cleaned.SMTP_URL_FILE;
  }
  const { fromFile, problems } = readFileVariables(cleaned);
  const parsed = fullEnvSchema.safeParse(cleaned);
  if (parsed.success && parsed.data.READ_MODELS === 'memory' && !parsed.data.MONGODB_EMBEDDED) {
    problems.push({
      variables: ['READ_MODELS'],
      line: 'READ_MODELS=memory needs the embedded database (MONGODB_EMBEDDED=true): elsewhere other processes write too',
    });
  }
  if (parsed.success && problems.length === 0) return parsed.data;
  const reported = new Set(problems.flatMap((p) => p.variables));
  for (const issue of parsed.success ? [] : parsed.error.issues) {
    const name = String(issue.path[0] ?? '?');
    // A variable whose file could not be read is named once, by that problem; one with several
    // issues (an smtp URL with neither scheme nor host) once, by its first.
    if (reported.has(name) || reported.has(`${name}_FILE`)) continue;
    reported.add(name);
    const fileCapable = ALL_FILE_VARIABLES.includes(name);
    let line: string;
    if (cleaned[name] === undefined)
      line = `${name} is missing${fileCapable ? ` (set ${name} or ${name}_FILE)` : ''}`;
    else
      line = `${name} is invalid (${issue.message})${fromFile.has(name) ? `, read from ${name}_FILE` : ''}`;
    problems.push({ variables: [name], line });
  }
  const names = problems.flatMap((p) => p.variables);
  throw new EnvError(names, `Invalid environment:\n${problems.map((p) => `  ${p.line}`).join('\n')}`);
}

/**
 * Secrets that have been written into this repository at some point (scripts, compose defaults,
 * tests): anyone can read them, so a production process must never accept one.
 */
const PUBLISHED_SECRETS = new Set([
  'local-dev-secret-change-me-in-production-0123456789',
  'check-only-secret-0123456789abcdef',
  'whsec_motoparts_local',
  'whsec_abc',
  'whsec_not_ours',
  'render-only-secret-0123456789abcdef0123',
  'whsec_render',
]);
const MIN_SECRET_LENGTH = 32;

function secretProblem(name: string, value: string, prefix = ''): string | null {
  const random = value.startsWith(prefix) ? value.slice(prefix.length) : value;
  if (PUBLISHED_SECRETS.has(value))
    return `${name} is a development value published in the MotoParts repository`;
  if (random.length < MIN_SECRET_LENGTH) {
    return `${name} is shorter than ${MIN_SECRET_LENGTH} characters${prefix ? ` after "${prefix}"` : ''}`;
  }
  // 'x' repeated, '0123…' and similar placeholders pass a length check but are not secrets.
  if (new Set(random).size < 10) return `${name} is not random (fewer than 10 distinct characters)`;
  return null;
}

/**
 * Why this environment must not serve the public: one line per problem, empty when fine (and
 * always empty outside NODE_ENV=production, where the local stack's generated secrets and
 * stand-ins are expected). Published or weak secrets are always refused in production; the
 * local stand-ins (Firebase Auth emulator, stripe-mock, a Stripe API base that is not HTTPS) only
 * with ALLOW_LOCAL_SERVICES=1, which says the deployment is a demo whose identities and payments
 * are not real; a Stripe test key with that or with STRIPE_TEST_MODE=1 (a staging deployment).
 * Mail is never silently off: production needs SMTP_URL, or MAIL_DISABLED=1 to say there is none.
 */
export function productionProblems(env: Env): string[] {
  if (env.NODE_ENV !== 'production') return [];
  const problems = [
    secretProblem('JWT_SECRET', env.JWT_SECRET),
    secretProblem('STRIPE_WEBHOOK_SECRET', env.STRIPE_WEBHOOK_SECRET, 'whsec_'),
  ];
  if (/^(sk|rk)_test_/.test(env.STRIPE_SECRET_KEY) && !env.ALLOW_LOCAL_SERVICES && !env.STRIPE_TEST_MODE) {
    problems.push(
      'STRIPE_SECRET_KEY is a Stripe test key (sk_test_/rk_test_): test cards would pay for orders ' +
        '(STRIPE_TEST_MODE=1 declares a staging deployment)',
    );
  }
  if (!env.ALLOW_LOCAL_SERVICES) {
    if (env.FIREBASE_AUTH_EMULATOR_HOST) {
      problems.push(
        'FIREBASE_AUTH_EMULATOR_HOST is set: the Firebase Auth emulator accepts unsigned ID tokens',
      );
    }
    if (env.STRIPE_API_BASE) {
      const base = new URL(env.STRIPE_API_BASE);
      const reasons: string[] = [];
      if (base.protocol !== 'https:')
        reasons.push('not https://, so the secret key would travel in clear text');
      if (base.host !== 'api.stripe.com') reasons.push('not the real Stripe API (stripe-mock)');
      if (reasons.length > 0)
        problems.push(`STRIPE_API_BASE is ${env.STRIPE_API_BASE}: ${reasons.join(', and ')}`);
    }
  }
  if (!env.SMTP_URL && !env.MAIL_DISABLED) {
    problems.push(
      'SMTP_URL is missing: the API could not send its mail (set SMTP_URL or SMTP_URL_FILE, or ' +
        'MAIL_DISABLED=1 to run without mail)',
    );
  }
  return problems.filter((p): p is string => p !== null);
}

/** Pool size: 1 against the embedded FerretDB (each operation then runs alone, docs/architecture.md). */
export function poolSize(env: Env): number | undefined {
  return env.MONGODB_POOL_SIZE ?? (env.MONGODB_EMBEDDED ? 1 : undefined);
}

/**
 * Catalogue cache TTL. Embedded FerretDB: unlimited, because this process is the only writer
 * (one API per embedded DB, seeding before start or through this connection, docs/architecture.md), and
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

export type ReadModelKind = 'memory' | 'database';

/** The read models' kind for this app (READ_MODELS, by default from the database's kind). */
export function readModelKind(env: Pick<Env, 'READ_MODELS' | 'MONGODB_EMBEDDED'>): ReadModelKind {
  return env.READ_MODELS ?? (env.MONGODB_EMBEDDED ? 'memory' : 'database');
}

/** Where the links in mails lead: SHOP_URL, else the first allowed origin, else the local shell. */
export function shopUrl(env: Pick<Env, 'SHOP_URL' | 'CORS_ORIGINS'>): string {
  const url = env.SHOP_URL ?? env.CORS_ORIGINS[0] ?? 'http://localhost:3000';
  return url.endsWith('/') ? url.slice(0, -1) : url;
}

/** The photo fetcher's test names (IMAGE_FETCH_TEST_HOSTS), honoured only when NODE_ENV=test. */
export function imageFetchTestHosts(env: Env): ReadonlyMap<string, string> {
  if (env.NODE_ENV !== 'test' || !env.IMAGE_FETCH_TEST_HOSTS) return new Map();
  return new Map(
    env.IMAGE_FETCH_TEST_HOSTS.split(',')
      .filter(Boolean)
      .map((pair) => {
        const [name = '', address = ''] = pair.split('=');
        return [name.toLowerCase(), address] as const;
      }),
  );
}
