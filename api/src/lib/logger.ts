import pino from 'pino';
import type { Env } from './env';

export type Logger = pino.Logger;

export function createLogger(env: Pick<Env, 'NODE_ENV' | 'LOG_LEVEL'>): Logger {
  const level = env.LOG_LEVEL ?? (env.NODE_ENV === 'test' ? 'warn' : 'info');
  return pino({ level, base: { service: 'motoparts-api' } });
}
