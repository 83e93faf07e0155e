import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { AppState } from './context';
import type { Logger } from '../lib/logger';

const SAFE_ID = /^[\w.-]{1,100}$/;
/** An email in a path segment or query value, raw or percent-encoded (`%40`). */
const EMAIL_IN_URL = /[^/?&=#\s]+(?:@|%40)[^/?&=#\s]+/gi;
export const MAX_LOGGED_URL = 200;

/**
 * The URL as the log keeps it: emails (`/user/<email>`, `?user=<email>`) replaced, so the log is
 * no list of customers' addresses, and long URLs cut, so one request cannot flood a log line.
 */
export function loggableUrl(url: string): string {
  const redacted = url.replace(EMAIL_IN_URL, '[email]');
  return redacted.length > MAX_LOGGED_URL ? `${redacted.slice(0, MAX_LOGGED_URL)}…` : redacted;
}

/**
 * Gives every request an id (echoed in X-Request-Id) and logs one line when it ends. The child
 * logger carrying the id is made only when something logs, and the line only when its level is
 * on: at `warn` a cached catalogue read logs nothing, and those two steps were a tenth of its time.
 */
export function requestLog(logger: Logger): Middleware<AppState> {
  return async (ctx, next) => {
    const incoming = ctx.get('x-request-id');
    const requestId = SAFE_ID.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = requestId;
    let log: Logger | undefined;
    Object.defineProperty(ctx.state, 'log', {
      get: () => (log ??= logger.child({ reqId: requestId })),
      enumerable: true,
      configurable: true,
    });
    ctx.set('X-Request-Id', requestId);
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      // 503 is an expected state (database away), not a bug: warn, not error.
      const level = ctx.status === 503 ? 'warn' : ctx.status >= 500 ? 'error' : 'info';
      if (logger.isLevelEnabled(level)) {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        const line = {
          method: ctx.method,
          url: loggableUrl(ctx.url),
          status: ctx.status,
          ms: Math.round(ms * 10) / 10,
        };
        const message =
          level === 'warn'
            ? 'request refused: service unavailable'
            : level === 'error'
              ? 'request failed'
              : 'request';
        ctx.state.log[level](line, message);
      }
    }
  };
}
