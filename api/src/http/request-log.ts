import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { AppState } from './context';
import type { Logger } from '../lib/logger';

const SAFE_ID = /^[\w.-]{1,100}$/;
export const MAX_LOGGED_URL = 200;
/**
 * How much of a URL is searched for emails before it is cut: an address that starts before the
 * cut and ends after it is still found whole (a valid one is at most 254 characters, three times
 * that percent-encoded).
 */
const REDACTED_WINDOW = MAX_LOGGED_URL + 3 * 254;
/** What separates an email from the rest of a URL; kept in the split (the capture group). */
const URL_DELIMITERS = /([/?&=#\s])/;

/** Whether one run of a URL between delimiters holds an email, raw or percent-encoded (`%40`). */
const isEmail = (run: string) => run.includes('@') || run.includes('%40');

/**
 * The URL as the log keeps it: emails (`/user/<email>`, `?user=<email>`) replaced, so the log is
 * no list of customers' addresses, and long URLs cut, so one request cannot flood a log line.
 * Splitting on the delimiters keeps the work linear in the URL's length, whatever it holds.
 */
export function loggableUrl(url: string): string {
  const runs = url.slice(0, REDACTED_WINDOW).split(URL_DELIMITERS);
  const redacted = runs.map((run) => (isEmail(run) ? '[email]' : run)).join('');
  return redacted.length > MAX_LOGGED_URL ? `${redacted.slice(0, MAX_LOGGED_URL)}…` : redacted;
}

/** The request's id: the caller's X-Request-Id when it is a safe token, else a new one. */
export function requestIdOf(incoming: string | string[] | undefined): string {
  return typeof incoming === 'string' && SAFE_ID.test(incoming) ? incoming : randomUUID();
}

/** A finished request's one log line, if its level is on (made only then: it costs). */
export function logRequest(
  logger: Logger,
  log: () => Logger,
  request: { method: string; url: string; status: number; startedNs: bigint },
): void {
  // 503 is an expected state (database away), not a bug: warn, not error.
  const { status } = request;
  const level = status === 503 ? 'warn' : status >= 500 ? 'error' : 'info';
  if (!logger.isLevelEnabled(level)) return;
  const ms = Number(process.hrtime.bigint() - request.startedNs) / 1e6;
  const line = {
    method: request.method,
    url: loggableUrl(request.url),
    status,
    ms: Math.round(ms * 10) / 10,
  };
  const message =
    level === 'warn'
      ? 'request refused: service unavailable'
      : level === 'error'
        ? 'request failed'
        : 'request';
  log()[level](line, message);
}

/**
 * Gives every request an id (echoed in X-Request-Id) and logs one line when it ends. The child
 * logger carrying the id is made only when something logs, and the line only when its level is
 * on: at `warn` a cached catalogue read logs nothing, and those two steps were a tenth of its time.
 */
export function requestLog(logger: Logger): Middleware<AppState> {
  return async (ctx, next) => {
    const requestId = requestIdOf(ctx.get('x-request-id'));
    ctx.state.requestId = requestId;
    let log: Logger | undefined;
    Object.defineProperty(ctx.state, 'log', {
      get: () => (log ??= logger.child({ reqId: requestId })),
      enumerable: true,
      configurable: true,
    });
    ctx.set('X-Request-Id', requestId);
    const startedNs = process.hrtime.bigint();
    try {
      await next();
    } finally {
      logRequest(logger, () => ctx.state.log, {
        method: ctx.method,
        url: ctx.url,
        status: ctx.status,
        startedNs,
      });
    }
  };
}
