import { render, usd, type MailBody, type MailLine } from '../mail/layout';
import type { Message, MailSource } from '../mail/outbox';
import type { OutboxEntry, WithOutbox } from '../mail/outbox-model';
import { UserModel } from '../users/model';
import { CheckoutModel, OrderModel, type CheckoutDoc, type OrderDoc } from './model';

/*
 * What the buyer is told, from the order or checkout as it is when the mail goes out (the entry
 * says which change it tells of). Only the buyer's own address; no token or secret in any mail.
 */

/** The profile's name for the greeting, else the name given with the order. */
async function nameOf(uid: string | null | undefined, fallback: string | null | undefined): Promise<string> {
  const user = uid ? await UserModel.findById(uid, { name: 1 }).lean<{ name?: string }>() : null;
  return (user?.name || fallback || '').trim();
}

const hello = (name: string) => (name ? `Hello ${name},` : 'Hello,');

const lineOfOrder = (o: OrderDoc): MailLine => ({
  name: o.partName ?? '',
  quantity: o.quantity,
  unitCents: o.unitPriceCents ?? 0,
  totalCents: o.priceCents ?? 0,
});

function orderBody(o: OrderDoc, entry: OutboxEntry, name: string, shop: string): MailBody | null {
  const id = String(o._id);
  const lines = [lineOfOrder(o)];
  const greeting = hello(name);
  const myOrder = { label: 'See My Order', url: `${shop}/dashboard/myOrder` };
  switch (entry.kind) {
    case 'placed':
      return {
        subject: `Your MotoParts order ${id}`,
        greeting,
        paragraphs: ['Thank you for your order. Its pieces are held for you until you pay it.'],
        lines,
        totalCents: o.priceCents ?? 0,
        action: { label: 'Pay now', url: `${shop}/dashboard/payment/${id}` },
      };
    case 'paid':
      return {
        subject: `Receipt for your MotoParts order ${id}`,
        greeting,
        paragraphs: [
          'We received your payment. This is your receipt; we will tell you when the order ships.',
        ],
        lines,
        totalCents: o.priceCents ?? 0,
        facts: [['Transaction id', o.transactionId ?? '']],
        action: myOrder,
      };
    case 'shipped':
      return {
        subject: `Your MotoParts order ${id} has shipped`,
        greeting,
        paragraphs: [`Your ${o.quantity.toLocaleString('en-US')} × ${o.partName ?? ''} are on their way.`],
        facts: [
          ...(o.carrier ? ([['Carrier', o.carrier]] as [string, string][]) : []),
          ...(o.trackingNumber ? ([['Tracking number', o.trackingNumber]] as [string, string][]) : []),
        ],
        action: myOrder,
      };
    case 'delivered':
      return {
        subject: `Your MotoParts order ${id} was delivered`,
        greeting,
        paragraphs: [
          `Your ${o.quantity.toLocaleString('en-US')} × ${o.partName ?? ''} were delivered. Ride safe!`,
        ],
        action: myOrder,
      };
    case 'refunded': {
      const amount = entry.amountCents ?? o.priceCents ?? 0;
      return {
        subject: `Refund for your MotoParts order ${id}`,
        greeting,
        paragraphs: [
          `We refunded ${usd(amount)} of your order to your card. ` +
            'It shows on your statement within a few days.',
        ],
        lines,
        facts: [['Transaction id', o.transactionId ?? '']],
        action: myOrder,
      };
    }
    default:
      return null;
  }
}

function checkoutBody(
  c: CheckoutDoc & { _id: unknown },
  entry: OutboxEntry,
  name: string,
  shop: string,
): MailBody | null {
  const id = String(c._id);
  const lines = c.lines.map((l) => ({
    name: l.partName,
    quantity: l.quantity,
    unitCents: l.unitPriceCents,
    totalCents: l.priceCents,
  }));
  const greeting = hello(name);
  if (entry.kind === 'placed') {
    return {
      subject: `Your MotoParts order (checkout ${id})`,
      greeting,
      paragraphs: ['Thank you for your order. Its pieces are held for you until you pay it, in one payment.'],
      lines,
      totalCents: c.totalCents,
      facts: [['Delivery address', c.address]],
      action: { label: 'Pay now', url: `${shop}/dashboard/payment/checkout/${id}` },
    };
  }
  if (entry.kind === 'paid') {
    return {
      subject: `Receipt for your MotoParts order (checkout ${id})`,
      greeting,
      paragraphs: ['We received your payment. This is your receipt; we will tell you as each part ships.'],
      lines,
      totalCents: c.totalCents,
      facts: [
        ['Transaction id', c.transactionId ?? ''],
        ['Delivery address', c.address],
      ],
      action: { label: 'See My Order', url: `${shop}/dashboard/myOrder` },
    };
  }
  return null;
}

/** The outboxes of orders and checkouts, for the mail worker. */
export function orderMailSources(shop: string): MailSource[] {
  const message = (body: MailBody | null, to: string): Message | null =>
    body ? { to: [to], ...render(body) } : null;
  return [
    {
      name: 'orders',
      model: OrderModel,
      compose: async (doc: WithOutbox, entry) => {
        const order = doc as unknown as OrderDoc;
        return message(orderBody(order, entry, await nameOf(order.uid, order.userName), shop), order.user);
      },
    },
    {
      name: 'checkouts',
      model: CheckoutModel,
      compose: async (doc: WithOutbox, entry) => {
        const checkout = doc as unknown as CheckoutDoc & { _id: unknown };
        return message(
          checkoutBody(checkout, entry, await nameOf(checkout.uid, checkout.userName), shop),
          checkout.user,
        );
      },
    },
  ];
}
