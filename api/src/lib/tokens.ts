import jwt from 'jsonwebtoken';
import type { Env } from '../env';
import type { Caller } from '../context';
import { AppError } from '../errors';

/** Claims of our API token; the front end reads email/admin/exp (unverified) to restore a session. */
export interface ApiTokenClaims {
  email: string;
  name: string;
  admin: boolean;
  exp: number;
  iat: number;
}

export function signApiToken(env: Env, claims: { email: string; name: string; admin: boolean }): string {
  return jwt.sign(claims, env.JWT_SECRET, {
    algorithm: 'HS256',
    expiresIn: env.JWT_EXPIRES_IN_SECONDS,
    subject: claims.email,
    issuer: 'motoparts-api',
  });
}

export function verifyApiToken(env: Env, token: string): Caller {
  let payload: string | jwt.JwtPayload;
  try {
    payload = jwt.verify(token, env.JWT_SECRET, { algorithms: ['HS256'], issuer: 'motoparts-api' });
  } catch (err) {
    const expired = err instanceof jwt.TokenExpiredError;
    throw AppError.unauthenticated(
      expired ? 'Your session has expired; sign in again.' : 'The token is not valid.',
    );
  }
  if (typeof payload === 'string' || typeof payload.email !== 'string') {
    throw AppError.unauthenticated('The token is not valid.');
  }
  return { email: payload.email, name: typeof payload.name === 'string' ? payload.name : '' };
}

/** The bearer token of the request, or undefined when there is none. */
export function bearer(header: string): string | undefined {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m?.[1];
}
