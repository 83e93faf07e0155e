/*
 * The shop's mails, as text and as HTML in the shop's look (its dark bar and orange accent),
 * written by hand: a handful of fixed layouts with inline styles, which mail clients need, are
 * less than any template engine would bring.
 */

import { escapeHtml } from '../lib/html';

export const usd = (cents: number) =>
  `$${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

export interface MailLine {
  name: string;
  quantity: number;
  unitCents: number;
  totalCents: number;
}

export interface MailBody {
  subject: string;
  greeting: string;
  paragraphs: string[];
  lines?: MailLine[];
  totalCents?: number;
  /** Facts under the lines: transaction id, carrier, tracking number. */
  facts?: [string, string][];
  action?: { label: string; url: string };
}

const qtyText = (n: number) => n.toLocaleString('en-US');

/** The text and HTML of one mail. */
export function render(body: MailBody): { subject: string; text: string; html: string } {
  const text: string[] = [body.greeting, '', ...body.paragraphs.flatMap((p) => [p, ''])];
  if (body.lines?.length) {
    for (const l of body.lines) {
      text.push(`- ${l.name}: ${qtyText(l.quantity)} × ${usd(l.unitCents)} = ${usd(l.totalCents)}`);
    }
    if (body.totalCents !== undefined) text.push(`Total: ${usd(body.totalCents)}`);
    text.push('');
  }
  for (const [k, v] of body.facts ?? []) text.push(`${k}: ${v}`);
  if (body.facts?.length) text.push('');
  if (body.action) text.push(`${body.action.label}: ${body.action.url}`, '');
  text.push('MotoParts — parts, tools and gear for riders and workshops');

  const cell = 'padding:6px 8px;border-bottom:1px solid #e5e7eb;';
  const rows = (body.lines ?? [])
    .map(
      (l) =>
        `<tr><td style="${cell}">${escapeHtml(l.name)}</td><td style="${cell}text-align:right">${qtyText(l.quantity)}</td>` +
        `<td style="${cell}text-align:right">${usd(l.unitCents)}</td><td style="${cell}text-align:right">${usd(l.totalCents)}</td></tr>`,
    )
    .join('');
  const table = rows
    ? `<table style="border-collapse:collapse;width:100%;font-size:14px;margin:16px 0">` +
      `<tr><th style="${cell}text-align:left">Part</th><th style="${cell}text-align:right">Qty</th><th style="${cell}text-align:right">Unit</th><th style="${cell}text-align:right">Line</th></tr>` +
      rows +
      (body.totalCents !== undefined
        ? `<tr><td colspan="3" style="padding:8px;text-align:right;font-weight:bold">Total</td><td style="padding:8px;text-align:right;font-weight:bold">${usd(body.totalCents)}</td></tr>`
        : '') +
      `</table>`
    : '';
  const facts = (body.facts ?? [])
    .map(
      ([k, v]) =>
        `<p style="margin:4px 0;font-size:14px"><strong>${escapeHtml(k)}:</strong> ${escapeHtml(v)}</p>`,
    )
    .join('');
  const action = body.action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(body.action.url)}" style="background:#f97316;color:#111827;padding:10px 18px;border-radius:6px;text-decoration:none;font-weight:bold">${escapeHtml(body.action.label)}</a></p>`
    : '';
  const html =
    `<!doctype html><html><body style="margin:0;background:#f3f4f6;font-family:Arial,Helvetica,sans-serif;color:#111827">` +
    `<div style="max-width:600px;margin:0 auto;background:#ffffff">` +
    `<div style="background:#111827;color:#f97316;padding:16px 24px;font-size:20px;font-weight:bold">MotoParts</div>` +
    `<div style="padding:24px">` +
    `<p style="margin:0 0 16px">${escapeHtml(body.greeting)}</p>` +
    body.paragraphs.map((p) => `<p style="margin:0 0 12px;line-height:1.5">${escapeHtml(p)}</p>`).join('') +
    table +
    facts +
    action +
    `</div><div style="padding:16px 24px;font-size:12px;color:#6b7280">MotoParts — parts, tools and gear for riders and workshops</div>` +
    `</div></body></html>`;
  return { subject: body.subject, text: text.join('\n'), html };
}
