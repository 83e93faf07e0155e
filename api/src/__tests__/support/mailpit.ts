// What the suite's Mailpit received, through its HTTP API (https://mailpit.axllent.org/docs/api-v1/).
// jest/global-setup.mjs starts one Mailpit per run (or takes `npm test`'s) and exports SMTP_URL, where
// the API sends, and MAILPIT_URL, where these read. Every test file of the run shares it, so a test
// reads the messages sent to its own addresses (uniqueEmail) rather than counting all of them.
// The e2e suite reads its stack's Mailpit through this module too (e2e/support/mailpit.ts).

export interface MailAddress {
  Name: string;
  Address: string;
}

/** One message as Mailpit lists it (GET /api/v1/messages, /api/v1/search). */
export interface MailSummary {
  ID: string;
  /** The Message-ID header without its angle brackets. */
  MessageID: string;
  From: MailAddress | null;
  To: MailAddress[] | null;
  Cc: MailAddress[] | null;
  Bcc: MailAddress[] | null;
  Subject: string;
  /** When Mailpit received it (ISO 8601). */
  Created: string;
  Snippet: string;
}

/** One message in full (GET /api/v1/message/{ID}). */
export interface MailMessage {
  ID: string;
  MessageID: string;
  From: MailAddress | null;
  To: MailAddress[] | null;
  Cc: MailAddress[] | null;
  Bcc: MailAddress[] | null;
  ReplyTo: MailAddress[] | null;
  Subject: string;
  /** The Date header (ISO 8601). */
  Date: string;
  Text: string;
  HTML: string;
  Attachments: { PartID: string; FileName: string; ContentType: string; Size: number }[];
}

export interface MailList {
  /** Messages in this Mailpit (or matching the search), whatever the page. */
  messages_count: number;
  messages: MailSummary[];
}

/** The suite's Mailpit (MAILPIT_URL). */
export function mailpitUrl(): string {
  const url = process.env.MAILPIT_URL;
  if (!url) throw new Error('MAILPIT_URL is not set (jest/global-setup.mjs starts a Mailpit and sets it)');
  return url.replace(/\/$/, '');
}

async function mailpit<T>(method: string, path: string): Promise<T> {
  const res = await fetch(`${mailpitUrl()}${path}`, { method });
  const text = await res.text();
  if (!res.ok) throw new Error(`Mailpit ${method} ${path} → ${res.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** One page of every message, newest first (GET /api/v1/messages). */
export function listMessages({ start = 0, limit = 50 } = {}): Promise<MailList> {
  return mailpit<MailList>('GET', `/api/v1/messages?start=${start}&limit=${limit}`);
}

const PAGE = 250;

/**
 * Every message with `address` among its recipients (To, Cc or Bcc; compared without case), in the
 * order Mailpit received them.
 */
export async function messagesTo(address: string): Promise<MailSummary[]> {
  const wanted = address.toLowerCase();
  const query = encodeURIComponent(`addressed:${address}`);
  const found: MailSummary[] = [];
  for (let start = 0; ; start += PAGE) {
    // `addressed:` is a substring match on From, To, Cc, Bcc and Reply-To: narrowed below.
    const page = await mailpit<MailList>('GET', `/api/v1/search?query=${query}&start=${start}&limit=${PAGE}`);
    found.push(...page.messages);
    if (page.messages.length < PAGE) break;
  }
  return found
    .filter((m) =>
      [...(m.To ?? []), ...(m.Cc ?? []), ...(m.Bcc ?? [])].some((a) => a.Address.toLowerCase() === wanted),
    )
    .sort((a, b) => Date.parse(a.Created) - Date.parse(b.Created));
}

/**
 * Waits until at least `count` messages to `address` have arrived (mail sent in the background
 * arrives a moment later) and returns them all; throws naming what did arrive after `timeoutMs`.
 */
export async function waitForMessagesTo(
  address: string,
  { count = 1, timeoutMs = 10_000 }: { count?: number; timeoutMs?: number } = {},
): Promise<MailSummary[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const messages = await messagesTo(address);
    if (messages.length >= count) return messages;
    if (Date.now() > deadline) {
      const subjects = messages.map((m) => JSON.stringify(m.Subject)).join(', ') || 'none';
      throw new Error(`${count} message(s) to ${address} expected within ${timeoutMs} ms; got ${subjects}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** One message in full: text, HTML, headers' addresses (GET /api/v1/message/{ID}). */
export function readMessage(id: string): Promise<MailMessage> {
  return mailpit<MailMessage>('GET', `/api/v1/message/${encodeURIComponent(id)}`);
}

/**
 * Deletes every message in this Mailpit (DELETE /api/v1/messages). It is shared by the whole run
 * (with `npm test`, by the stack's API too): tests that can read their own addresses do that instead.
 */
export async function deleteAllMessages(): Promise<void> {
  await mailpit<unknown>('DELETE', '/api/v1/messages');
}
