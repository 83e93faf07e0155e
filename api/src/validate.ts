import type { z } from 'zod';
import { ZodError } from 'zod';
import { objectIdSchema, emailSchema } from '@motoparts/contracts';
import { AppError } from './errors';
import { zodDetails } from './middleware/errors';

/** Validates the JSON body; no body counts as `{}` so the 400 names each missing field. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  return schema.parse(body === undefined ? {} : body);
}

export function parseQuery<S extends z.ZodType>(schema: S, query: Record<string, unknown>): z.output<S> {
  const parsed = schema.safeParse(query);
  if (!parsed.success) {
    throw AppError.badRequest(
      `Invalid query: ${[...new Set(zodDetails(parsed.error).map((d) => d.path))].join(', ')}`,
      zodDetails(parsed.error),
    );
  }
  return parsed.data;
}

function parseParam<S extends z.ZodType>(schema: S, value: unknown, name: string): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const details =
      parsed.error instanceof ZodError ? zodDetails(parsed.error).map((d) => ({ ...d, path: name })) : [];
    throw AppError.badRequest(`Invalid ${name} in the path: ${details[0]?.message ?? 'malformed'}`, details);
  }
  return parsed.data;
}

export const idParam = (value: unknown, name = 'id'): string => parseParam(objectIdSchema, value, name);
export const emailParam = (value: unknown): string => parseParam(emailSchema, value, 'email');
