// The API's SMTP transport (src/mail/transport.ts) against the suite's Mailpit: what it sends is
// read back through Mailpit's HTTP API, headers and bodies as a mail client would see them.
import { loadEnv } from '../lib/env';
import { createMailTransport, type MailTransport } from '../mail/transport';
import { uniqueEmail } from './support/auth';
import { freePort, got } from './support/faults';
import { listMessages, readMessage, waitForMessagesTo } from './support/mailpit';

const open: MailTransport[] = [];
function transport(overrides: Record<string, string> = {}): MailTransport {
  const t = got(
    createMailTransport(loadEnv({ ...process.env, NODE_ENV: 'test', ...overrides })),
    'a transport',
  );
  open.push(t);
  return t;
}
afterAll(() => {
  for (const t of open) t.close();
});

it('sends one message through SMTP_URL that Mailpit holds as sent: Message-ID, sender, subject, to, text, html', async () => {
  const to = uniqueEmail('mail');
  const subject = `Order MP-${Date.now().toString(36)} confirmed — 100 × brake pads ✓`;
  const text = 'Thank you for your order.\n\nTotal: €1,234.00\n';
  const html = '<p>Thank you for your <strong>order</strong>.</p><p>Total: €1,234.00</p>';
  const info = await transport().sendMail({ to: `Rider One <${to}>`, subject, text, html });
  expect(info.accepted).toEqual([to]);
  expect(info.messageId).toMatch(/^<[^<>@]+@[^<>@]+>$/);

  const [summary, ...more] = await waitForMessagesTo(to);
  expect(more).toEqual([]);
  const listed = await listMessages();
  expect(listed.messages.map((m) => m.ID)).toContain(summary?.ID);

  const message = await readMessage(got(summary).ID);
  expect(`<${message.MessageID}>`).toBe(info.messageId);
  expect(message.From).toEqual({ Name: 'MotoParts', Address: 'orders@motoparts.test' });
  expect(message.To).toEqual([{ Name: 'Rider One', Address: to }]);
  expect(message.Subject).toBe(subject);
  // Mail's lines end in CRLF on the wire, and so in Mailpit's copy.
  expect(message.Text.replace(/\r\n/g, '\n')).toBe(text);
  expect(message.HTML.trim()).toBe(html);
  expect(message.Attachments).toEqual([]);
});

it('sends from MAIL_FROM', async () => {
  const to = uniqueEmail('mail-from');
  await transport({ MAIL_FROM: 'Shop Orders <shop@motoparts.example>' }).sendMail({
    to,
    subject: 'from',
    text: 'x',
  });
  const [summary] = await waitForMessagesTo(to);
  expect(summary?.From).toEqual({ Name: 'Shop Orders', Address: 'shop@motoparts.example' });
});

it('keeps a message sent twice twice: Mailpit hides no duplicate, as a retry would send one', async () => {
  const to = uniqueEmail('mail-twice');
  const t = transport();
  const message = { to, subject: 'twice', text: 'once', messageId: `<twice-${Date.now()}@motoparts.test>` };
  await t.sendMail(message);
  await t.sendMail(message);
  const both = await waitForMessagesTo(to, { count: 2 });
  expect(both.map((m) => `<${m.MessageID}>`)).toEqual([message.messageId, message.messageId]);
});

it('is null without mail: MAIL_DISABLED=1 (SMTP_URL then unread), or no SMTP_URL', () => {
  const withUrl = { ...process.env, NODE_ENV: 'test', SMTP_URL: 'smtp://127.0.0.1:1' };
  expect(createMailTransport(loadEnv({ ...withUrl, MAIL_DISABLED: '1' }))).toBeNull();
  expect(createMailTransport(loadEnv({ ...withUrl, SMTP_URL: undefined }))).toBeNull();
  expect(createMailTransport(loadEnv(withUrl))).not.toBeNull();
});

it('rejects a send when nothing listens at SMTP_URL, at once', async () => {
  const port = await freePort();
  const started = Date.now();
  await expect(
    transport({ SMTP_URL: `smtp://127.0.0.1:${port}` }).sendMail({ to: uniqueEmail('nobody'), text: 'x' }),
  ).rejects.toMatchObject({ code: 'ESOCKET' });
  expect(Date.now() - started).toBeLessThan(5_000);
});
