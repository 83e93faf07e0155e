import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { call, type TestApp } from './harness';

export interface Seen {
  method: string;
  path: string;
  body: string;
  /** The Idempotency-Key the API sent, if any. */
  idempotencyKey?: string;
}

/**
 * A pass-through proxy in front of stripe-mock that records every request the API sends, so a
 * test can assert that a cancel or a refund really reached Stripe's API (stripe-mock answers).
 *
 * stripe-mock never lets a payment succeed, so `succeeded` (intent id → amount in cents) makes the
 * proxy answer for those intents as Stripe does once the customer has paid: a cancel is refused
 * (400, `payment_intent_unexpected_state`) and a retrieve says `status: 'succeeded'`.
 */
export async function startStripeProxy(
  target: string,
  seen: Seen[],
  succeeded: Map<string, number> = new Map(),
): Promise<{ base: string; close: () => Promise<void> }> {
  const upstream = new URL(target);
  const proxy = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      const key = req.headers['idempotency-key'];
      seen.push({
        method: req.method ?? '',
        path: req.url ?? '',
        body,
        ...(typeof key === 'string' ? { idempotencyKey: key } : {}),
      });
      const paid = /^\/v1\/payment_intents\/([^/?]+)(\/cancel)?/.exec(req.url ?? '');
      const amount = paid?.[1] !== undefined ? succeeded.get(paid[1]) : undefined;
      if (paid?.[1] !== undefined && amount !== undefined) {
        const json = (status: number, value: unknown) => {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(value));
        };
        if (paid[2]) {
          json(400, {
            error: {
              type: 'invalid_request_error',
              code: 'payment_intent_unexpected_state',
              message: 'You cannot cancel this PaymentIntent because it has a status of succeeded.',
            },
          });
        } else {
          json(200, { id: paid[1], object: 'payment_intent', amount, currency: 'usd', status: 'succeeded' });
        }
        return;
      }
      const out = http.request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers: req.headers,
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      out.on('error', () => res.destroy());
      out.end(body);
    });
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', () => r()));
  return {
    base: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    close: () => new Promise((r) => proxy.close(() => r())),
  };
}

const signer = new Stripe('sk_test_123'); // only to sign webhook payloads, as Stripe does

/** The JSON body of a `payment_intent.succeeded` event for the order, as Stripe sends it. */
export function succeededEvent(
  orderId: string,
  amount: number,
  intentId = 'pi_test_webhook_1',
  metadata: Record<string, string> = { orderId },
): string {
  return JSON.stringify({
    id: `evt_${Math.random().toString(36).slice(2)}`,
    object: 'event',
    type: 'payment_intent.succeeded',
    data: {
      object: {
        id: intentId,
        object: 'payment_intent',
        amount,
        currency: 'usd',
        status: 'succeeded',
        metadata,
      },
    },
  });
}

/** Posts a signed `payment_intent.succeeded` for the order, as Stripe would. */
export function postSucceededWebhook(
  t: TestApp,
  orderId: string,
  amount: number,
  intentId: string,
  metadata?: Record<string, string>,
) {
  const payload = succeededEvent(orderId, amount, intentId, metadata);
  return call(t.base, 'POST', '/webhooks/stripe', {
    raw: payload,
    headers: {
      'content-type': 'application/json',
      'stripe-signature': signer.webhooks.generateTestHeaderString({
        payload,
        secret: t.env.STRIPE_WEBHOOK_SECRET,
      }),
    },
  });
}

/** Posts any event to the webhook, signed as Stripe signs it; `id` is the event's id. */
export function postEvent(
  t: TestApp,
  type: string,
  object: Record<string, unknown>,
  id = `evt_${Math.random().toString(36).slice(2)}`,
) {
  const payload = JSON.stringify({ id, object: 'event', type, data: { object } });
  return call(t.base, 'POST', '/webhooks/stripe', {
    raw: payload,
    headers: {
      'content-type': 'application/json',
      'stripe-signature': signer.webhooks.generateTestHeaderString({
        payload,
        secret: t.env.STRIPE_WEBHOOK_SECRET,
      }),
    },
  });
}
