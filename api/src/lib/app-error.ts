import type { ApiError, ErrorCode } from '@motoparts/contracts';

const STATUS: Record<ErrorCode, number> = {
  BAD_REQUEST: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  URI_TOO_LONG: 414,
  UNSUPPORTED_MEDIA_TYPE: 415,
  TOO_MANY_REQUESTS: 429,
  UNPROCESSABLE_ENTITY: 422,
  SERVICE_UNAVAILABLE: 503,
  PAYMENT_PROVIDER_ERROR: 502,
  INTERNAL: 500,
};

/** The one error type services throw; the error middleware turns it into the JSON error shape. */
export class AppError extends Error {
  readonly status: number;
  /** Seconds after which a refused request may be retried (sent as Retry-After with a 429). */
  retryAfterSeconds?: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'AppError';
    this.status = STATUS[code];
  }

  /** The one error body of the API: `{ error: { code, message, details? } }`. */
  toBody(): ApiError {
    return {
      error: {
        code: this.code,
        message: this.message,
        ...(this.details !== undefined ? { details: this.details } : {}),
      },
    };
  }

  static badRequest(message: string, details?: unknown): AppError {
    return new AppError('BAD_REQUEST', message, details);
  }
  static unauthenticated(message = 'Sign in first: a valid bearer token is required.'): AppError {
    return new AppError('UNAUTHENTICATED', message);
  }
  static forbidden(message = 'You are not allowed to do this.'): AppError {
    return new AppError('FORBIDDEN', message);
  }
  static notFound(what: string): AppError {
    return new AppError('NOT_FOUND', `${what} not found.`);
  }
  static conflict(message: string, details?: unknown): AppError {
    return new AppError('CONFLICT', message, details);
  }
  static tooManyRequests(message: string, retryAfterSeconds: number): AppError {
    const err = new AppError('TOO_MANY_REQUESTS', message);
    err.retryAfterSeconds = retryAfterSeconds;
    return err;
  }
  static unavailable(message = 'The database is unreachable right now. Please try again shortly.'): AppError {
    return new AppError('SERVICE_UNAVAILABLE', message);
  }
}
