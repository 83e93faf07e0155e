import type { Middleware } from 'koa';
import mongoose from 'mongoose';
import { ZodError } from 'zod';
import type { ApiError } from '@motoparts/contracts';
import { AppError } from '../lib/app-error';
import { isDbUnavailableError } from '../lib/db';
import type { AppState } from './context';
import { invalidInput } from './validate';

function toAppError(err: unknown): AppError | undefined {
  if (err instanceof AppError) return err;
  if (err instanceof ZodError) return invalidInput(err);
  if (isDbUnavailableError(err)) return AppError.unavailable();
  if (err instanceof mongoose.Error.CastError) return AppError.badRequest(`Invalid value for ${err.path}`);
  if (err instanceof mongoose.Error.ValidationError) {
    const details = Object.values(err.errors).map((e) => ({ path: e.path, message: e.message }));
    return AppError.badRequest('Invalid input', details);
  }
  if (err instanceof mongoose.Error.StrictModeError) return AppError.badRequest(`Unknown field ${err.path}`);
  if ((err as { code?: unknown }).code === 11000) return AppError.conflict('That record already exists.');
  // Errors raised by Koa itself (ctx.throw, http-errors) carry an `expose`d status.
  const httpErr = err as { status?: unknown; expose?: unknown; message?: unknown };
  if (typeof httpErr.status === 'number' && httpErr.expose === true && httpErr.status < 500) {
    const code =
      httpErr.status === 404 ? 'NOT_FOUND' : httpErr.status === 401 ? 'UNAUTHENTICATED' : 'BAD_REQUEST';
    return new AppError(code, String(httpErr.message));
  }
  return undefined;
}

/** The one place errors become HTTP answers: `{ error: { code, message, details? } }`. */
export function errorHandler(): Middleware<AppState> {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        throw new AppError('NOT_FOUND', `No route for ${ctx.method} ${ctx.path}.`);
      }
      if (ctx.status === 405 && ctx.body === undefined) {
        ctx.body = {
          error: { code: 'BAD_REQUEST', message: `${ctx.method} is not allowed on ${ctx.path}.` },
        };
      }
    } catch (err) {
      const appErr = toAppError(err);
      const body: ApiError = appErr
        ? appErr.toBody()
        : { error: { code: 'INTERNAL', message: `Something went wrong (request ${ctx.state.requestId}).` } };
      ctx.status = appErr ? appErr.status : 500;
      if (appErr?.retryAfterSeconds !== undefined) ctx.set('Retry-After', String(appErr.retryAfterSeconds));
      ctx.body = body;
      if (!appErr) ctx.state.log.error({ err }, 'unhandled error');
    }
  };
}
