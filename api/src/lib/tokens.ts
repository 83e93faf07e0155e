import { createSecretKey, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { Env } from './env';
import { AppError } from './app-error';

/**
 * Claims of our API token. `sub` is the Firebase uid (who the caller is); the front end reads
 * email/admin/exp (unverified) to restore a session; `epoch` ties the token to the account's
 * sign-outs.
 */
export interface ApiTokenClaims {
  sub: string;
  email: string;
  name: string;
  admin: boolean;
  epoch: number;
  exp: number;
  iat: number;
}

export interface VerifiedToken {
  uid: string;
  epoch: number;
}

const keys = new Map<string, KeyObject>();

/**
 * The secret as a key object, made once per secret. Handed the plain string, jsonwebtoken first
 * tries to parse it as a PEM key on every call and falls back to a secret key when that throws;
 * the failed parse took two thirds to three quarters of the CPU of a signed-in read. The bytes
 * are the same (UTF-8), so tokens signed either way verify either way.
 */
function keyOf(secret: string): KeyObject {
  let key = keys.get(secret);
  if (!key) {
    key = createSecretKey(Buffer.from(secret, 'utf8'));
    keys.set(secret, key);
  }
  return key;
}

export function signApiToken(
  env: Env,
  claims: { uid: string; email: string; name: string; admin: boolean; epoch: number },
): string {
  const { uid, ...rest } = claims;
  return jwt.sign(rest, keyOf(env.JWT_SECRET), {
    algorithm: 'HS256',
    expiresIn: env.JWT_EXPIRES_IN_SECONDS,
    subject: uid,
    issuer: 'motoparts-api',
  });
}

export function verifyApiToken(env: Env, token: string): VerifiedToken {
  let payload: string | jwt.JwtPayload;
  try {
    payload = jwt.verify(token, keyOf(env.JWT_SECRET), { algorithms: ['HS256'], issuer: 'motoparts-api' });
  } catch (err) {
    const expired = err instanceof jwt.TokenExpiredError;
    throw AppError.unauthenticated(
      expired ? 'Your session has expired; sign in again.' : 'The token is not valid.',
    );
  }
  // Tokens issued before accounts were keyed by uid carry the email as `sub` and no epoch.
  if (typeof payload === 'string' || typeof payload.sub !== 'string' || typeof payload.epoch !== 'number') {
    throw AppError.unauthenticated('The token is not valid.');
  }
  return { uid: payload.sub, epoch: payload.epoch };
}

/** The bearer token of the request, or undefined when there is none. */
export function bearer(header: string): string | undefined {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m?.[1];
}
