import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { call, type TestApp } from './harness';

export interface Seen {
  method: string;
  path: string;
  body: string;
}

/**
 * A pass-through proxy in front of stripe-mock that records every request the API sends, so a
 * test can assert that a cancel or a refund really reached Stripe's API (stripe-mock answers).
 */
export async function startStripeProxy(
  target: string,
  seen: Seen[],
): Promise<{ base: string; close: () => Promise<void> }> {
  const upstream = new URL(target);
  const proxy = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', path: req.url ?? '', body });
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

/** Posts a signed `payment_intent.succeeded` for the order, as Stripe would. */
export function postSucceededWebhook(t: TestApp, orderId: string, amount: number, intentId: string) {
  const payload = JSON.stringify({
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
        metadata: { orderId },
      },
    },
  });
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
