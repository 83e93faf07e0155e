import nodemailer, {
  type SMTPSentMessageInfo,
  type SMTPTransportOptions,
  type Transporter,
} from 'nodemailer';
import type { Env } from '../lib/env';

export type MailTransport = Transporter<SMTPSentMessageInfo, SMTPTransportOptions>;

/**
 * How long one delivery may wait on the SMTP server (nodemailer's defaults are minutes): for the
 * TCP connection, its greeting, and any silence after that. A `?connectionTimeout=…` (or
 * greetingTimeout, socketTimeout) in SMTP_URL overrides one.
 */
const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 } as const;

/**
 * The SMTP transport to SMTP_URL, every message from MAIL_FROM unless it names its own sender; one
 * connection per message. Null when the API sends no mail: MAIL_DISABLED=1, or no SMTP_URL (which
 * production refuses at boot, lib/env.ts productionProblems). Nothing is connected until the
 * first message (or `verify()`).
 */
export function createMailTransport(
  env: Pick<Env, 'SMTP_URL' | 'MAIL_FROM' | 'MAIL_DISABLED'>,
): MailTransport | null {
  if (env.MAIL_DISABLED || !env.SMTP_URL) return null;
  return nodemailer.createTransport({ ...TIMEOUTS, url: env.SMTP_URL }, { from: env.MAIL_FROM });
}
