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

/** Gives every request an id (echoed in X-Request-Id) and logs one line when it ends. */
export function requestLog(logger: Logger): Middleware<AppState> {
  return async (ctx, next) => {
    const incoming = ctx.get('x-request-id');
    const requestId = SAFE_ID.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = requestId;
    ctx.state.log = logger.child({ reqId: requestId });
    ctx.set('X-Request-Id', requestId);
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const line = {
        method: ctx.method,
        url: loggableUrl(ctx.url),
        status: ctx.status,
        ms: Math.round(ms * 10) / 10,
      };
      // 503 is an expected state (database away), not a bug: warn, not error.
      if (ctx.status === 503) ctx.state.log.warn(line, 'request refused: service unavailable');
      else if (ctx.status >= 500) ctx.state.log.error(line, 'request failed');
      else ctx.state.log.info(line, 'request');
    }
  };
}
