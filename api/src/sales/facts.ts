import { isListed, type OrderDoc } from '../orders/model';

/** What the Overview needs of one order, ids as strings and times in ms. */
export interface OrderFact {
  id: string;
  partId: string;
  /** The part's name when the order was placed. */
  name: string;
  quantity: number;
  priceCents: number;
  refundedCents: number;
  paid: boolean;
  status: string;
  user: string;
  /** When it was placed. */
  placedAt: number;
  /**
   * When Stripe confirmed the payment (ms); orders paid before the shop recorded that time count
   * as paid when placed (a hold lasts minutes, so that is the same day but for a few).
   */
  paidAt: number;
  checkoutId?: string;
  /** Unpaid and still holding its pieces (orders/model.ts `isOpen`, less the releases under way). */
  holding: boolean;
}

/** The fields a fact is made of: what the reads ask the database for. */
export const FACT_FIELDS = {
  partId: 1,
  partName: 1,
  quantity: 1,
  priceCents: 1,
  refundedCents: 1,
  paid: 1,
  status: 1,
  user: 1,
  createdAt: 1,
  paidAt: 1,
  checkoutId: 1,
  hold: 1,
} as const;

export type FactDoc = Pick<
  OrderDoc,
  | '_id'
  | 'partId'
  | 'partName'
  | 'quantity'
  | 'priceCents'
  | 'refundedCents'
  | 'paid'
  | 'status'
  | 'user'
  | 'createdAt'
  | 'paidAt'
  | 'checkoutId'
  | 'hold'
>;

/** Holds that hold nothing (any more, or yet): what `holding` leaves out. */
export const NOT_HOLDING = ['reserving', 'releasing', 'released', 'void'] as const;

/** One copy of each repeated text (part ids and names, emails, statuses): facts are many. */
const texts = new Map<string, string>();

/** Lets the shared texts go with the facts that used them (sales/read-models.ts). */
export function forgetSharedTexts(): void {
  texts.clear();
}
function shared(text: string): string {
  const kept = texts.get(text);
  if (kept !== undefined) return kept;
  if (texts.size >= 50_000) texts.clear();
  texts.set(text, text);
  return text;
}

/** An order's fact, or undefined for one that is not listed (never completed, a tombstone). */
export function factOf(doc: FactDoc): OrderFact | undefined {
  if (!isListed(doc.hold)) return undefined;
  const placedAt = doc.createdAt ? new Date(doc.createdAt).getTime() : 0;
  const fact: OrderFact = {
    id: String(doc._id),
    partId: shared(String(doc.partId)),
    name: shared(doc.partName ?? ''),
    quantity: doc.quantity,
    priceCents: doc.priceCents ?? 0,
    refundedCents: doc.refundedCents ?? 0,
    paid: doc.paid,
    status: shared(doc.status),
    user: shared(doc.user),
    placedAt,
    paidAt: doc.paidAt ? new Date(doc.paidAt).getTime() : placedAt,
    holding:
      !doc.paid &&
      doc.status === 'pending' &&
      !(NOT_HOLDING as readonly (string | null | undefined)[]).includes(doc.hold),
  };
  if (doc.checkoutId) fact.checkoutId = doc.checkoutId;
  return fact;
}
