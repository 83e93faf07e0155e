/**
 * The one source of truth for what crosses the wire between the front ends and the API:
 * zod schemas with their inferred types side by side, plus the error codes.
 * Input schemas strip unknown keys (they are never stored) and reject operator objects such as
 * `{ "$gt": "" }` simply by demanding primitive types.
 */
import { z } from './zod';
import {
  DELIVERY_ADDRESS_MAX_LENGTH,
  DELIVERY_PHONE_MIN_LENGTH,
  PHONE_CHARACTERS,
  PHONE_MAX_LENGTH,
  PHONE_PATTERN,
} from './contact';
import { DEFAULT_PART_CATEGORY, PART_CATEGORIES, PART_SORTS, PRICE_BAND_IDS } from './messages';
import { MAX_PRICE_TIERS, priceTierProblems, type PriceTier } from './pricing';

// Texts, constants and the pricing rule live in zod-free modules so light pages can import them alone.
export * from './messages';
export * from './pricing';
export * from './contact';
export * from './sales';

// ---------- shared primitives ----------

export const objectIdSchema = z.string().regex(/^[a-fA-F0-9]{24}$/, 'must be a 24-character hex id');

/**
 * Control characters (C0, DEL, C1) ring bells, rewrite terminals and hide text in the admin's
 * views and our logs; no field has a use for them. Long texts keep their line breaks and tabs.
 */
// Matching control characters is the point of these two patterns.
// eslint-disable-next-line no-control-regex
export const NO_CONTROL_CHARS = /^[^\x00-\x1f\x7f-\x9f]*$/;
// eslint-disable-next-line no-control-regex
export const NO_CONTROL_CHARS_EXCEPT_LINES = /^[^\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]*$/;
export const CONTROL_CHARS_MESSAGE = 'must not contain control characters';
/** Text from elsewhere (a Firebase display name) made one clean line: control characters removed. */
// eslint-disable-next-line no-control-regex
export const oneCleanLine = (s: string): string => s.replace(/[\x00-\x1f\x7f-\x9f]/g, '').trim();
/** A one-line string: no control characters at all. */
const line = () => z.string().regex(NO_CONTROL_CHARS, CONTROL_CHARS_MESSAGE);

/**
 * Email accepted by the API (RFC-ish, bounded). The UI applies the stricter docs/product.md pattern.
 * The length is checked first and ends the parse (`abort`), so no pattern ever runs on a long
 * input; the domain's labels are split on their dots, so the pattern matches in linear time.
 */
export const emailSchema = z
  .string()
  .max(254, { abort: true })
  .regex(NO_CONTROL_CHARS, CONTROL_CHARS_MESSAGE)
  .trim()
  .toLowerCase()
  .regex(/^[^\s@$]+@[^\s@$.]+(?:\.[^\s@$.]+)+$/, 'must be an email address');

const text = (max: number) => line().trim().min(1, 'is required').max(max);
/** Multi-line text (descriptions, reviews): newlines and tabs allowed, other control characters not. */
const longText = (max: number) =>
  z
    .string()
    .regex(NO_CONTROL_CHARS_EXCEPT_LINES, CONTROL_CHARS_MESSAGE)
    .trim()
    .min(1, 'is required')
    .max(max);
const httpUrl = line()
  .trim()
  .max(2048)
  .regex(/^https?:\/\/\S+$/i, 'must be an http(s) URL');
/**
 * An image: an absolute http(s) URL, or a root-relative path on our own site (the seed's
 * `/images/parts/<slug>.svg`, served by the shell). No `//host` (protocol-relative) paths.
 */
export const imageUrlSchema = line()
  .trim()
  .max(2048)
  .regex(/^(https?:\/\/\S+|\/(?!\/)[A-Za-z0-9._~\-/]+)$/i, 'must be an http(s) URL or a /path on this site');
/** A count of pieces: an integer, never negative, bounded so sums cannot overflow. */
const count = z.number().int('must be an integer').min(0).max(10_000_000);
/**
 * Dollars with at most two decimals; stored as integer cents on the server. At least one cent,
 * which with two decimals is the same as "more than 0" but is a limit a form can name.
 */
const dollars = z
  .number()
  .min(0.01)
  .max(1_000_000)
  .refine((v) => Number.isInteger(Math.round(v * 100)) && Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, {
    message: 'must have at most two decimals',
  });

// ---------- errors ----------

export const ERROR_CODES = [
  'BAD_REQUEST',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  'PAYLOAD_TOO_LARGE',
  'URI_TOO_LONG',
  'UNSUPPORTED_MEDIA_TYPE',
  'TOO_MANY_REQUESTS',
  'UNPROCESSABLE_ENTITY',
  'SERVICE_UNAVAILABLE',
  'PAYMENT_PROVIDER_ERROR',
  'INTERNAL',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export const apiErrorSchema = z.object({
  error: z.object({
    code: z.enum(ERROR_CODES),
    message: z.string(),
    details: z.unknown().optional(),
  }),
});
export type ApiError = z.infer<typeof apiErrorSchema>;

// ---------- parts ----------

/** A volume price on the wire: from `fromQty` pieces a line, `price` dollars a piece. */
const priceTierWire = z.object({ fromQty: z.number().int(), price: z.number() });

export const partSchema = z.object({
  _id: z.string(),
  name: z.string(),
  text: z.string(),
  img: z.string(),
  price: z.number(),
  qty: z.number().int(),
  availableQty: z.number().int(),
  category: z.enum(PART_CATEGORIES),
  /** Volume prices, ascending by `fromQty`; absent when the part has none (pricing.ts prices a quantity). */
  priceTiers: z.array(priceTierWire).optional(),
});
export type Part = z.infer<typeof partSchema>;

/**
 * A part's volume prices as an admin writes them: at most MAX_PRICE_TIERS, each a whole quantity
 * and a price like the part's. How they relate to each other and to the part (ascending
 * quantities above the minimum order, falling prices below the part's) is `checkPriceTiers`.
 */
export const priceTiersSchema = z
  .array(
    z.object({
      fromQty: z.number().int('must be an integer').min(2).max(10_000_000),
      price: dollars,
    }),
  )
  .max(MAX_PRICE_TIERS, `must have at most ${MAX_PRICE_TIERS} tiers`);

/** The object-level half of the tier rules (pricing.ts), as issues on `priceTiers.<i>.<field>`. */
export function checkPriceTiers(
  part: { price: number; qty: number; priceTiers?: readonly PriceTier[] | undefined },
  ctx: z.RefinementCtx,
): void {
  for (const problem of priceTierProblems(part)) {
    ctx.addIssue({ code: 'custom', path: ['priceTiers', ...problem.path], message: problem.message });
  }
}

const partMinimumQty = z.number().int('must be an integer').min(1).max(1_000_000);

/**
 * POST /parts, field by field. A form builds on these fields (`.extend`) and adds the tier rules
 * with `checkPriceTiers`, as `partInputSchema` does.
 */
export const partFieldsSchema = z.object({
  name: text(120),
  text: longText(2000),
  img: imageUrlSchema,
  price: dollars,
  qty: partMinimumQty,
  availableQty: count,
  // Optional so clients written before categories keep working.
  category: z.enum(PART_CATEGORIES).default(DEFAULT_PART_CATEGORY),
  priceTiers: priceTiersSchema.optional(),
});

/** POST /parts. */
export const partInputSchema = partFieldsSchema.superRefine(checkPriceTiers);
export type PartInput = z.infer<typeof partInputSchema>;

/** What PUT /parts/:id says to a body that carries the stock. */
export const STOCK_NOT_EDITABLE = 'changes only through restock and orders';

/**
 * PUT /parts/:id: the part's own fields, never its stock (`availableQty` moves only through
 * restocks, write-offs and orders, which keep the stock journal's invariant; a body carrying it
 * is refused, naming it). `category` and `priceTiers` are kept when not sent; `priceTiers: []`
 * removes the tiers.
 */
export const partEditSchema = z
  .object({
    name: text(120),
    text: longText(2000),
    img: imageUrlSchema,
    price: dollars,
    qty: partMinimumQty,
    category: z.enum(PART_CATEGORIES).optional(),
    priceTiers: priceTiersSchema.optional(),
    // Any value is refused (absent is the only valid form): documented as `not: {}`.
    availableQty: z
      .unknown()
      .refine((v) => v === undefined, { error: STOCK_NOT_EDITABLE })
      .optional()
      .meta({ description: `Refused: the stock ${STOCK_NOT_EDITABLE}.`, not: {} }),
  })
  .superRefine(checkPriceTiers);
export type PartEdit = z.infer<typeof partEditSchema>;

/**
 * POST /import/parts's answer: what was (or with `?dryRun=true` would be) done, and each row's
 * problems, numbered as a spreadsheet numbers rows (the header is row 1).
 */
export const partImportReportSchema = z.object({
  created: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  errors: z.array(
    z.object({
      row: z.number().int().meta({ description: 'As a spreadsheet numbers it: the header is row 1.' }),
      field: z.string(),
      message: z.string(),
    }),
  ),
});
export type PartImportReport = z.infer<typeof partImportReportSchema>;

export const partListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(24),
  /** Searched in the name and the description: every word, by prefix, with typos, joined or split. */
  q: line().trim().max(100).optional(),
  sort: z.enum(PART_SORTS).optional(),
  category: z.enum(PART_CATEGORIES).optional(),
  /** Only `true` or `false` (a query string has no booleans; anything else is a 400). */
  inStock: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional(),
  /** A price band (PRICE_BANDS). */
  price: z.enum(PRICE_BAND_IDS).optional(),
  /** `true`: the answer also carries the search's counts per filter choice (`X-Facets`). */
  facets: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional(),
});
export type PartListQuery = z.infer<typeof partListQuerySchema>;

/** PUT /restockQty/:id and PUT /reduceQty/:id: how many pieces to add or take (atomic $inc). */
export const stockChangeSchema = z.object({
  quantity: z.number().int('must be an integer').min(1).max(1_000_000),
});
export type StockChange = z.infer<typeof stockChangeSchema>;

/** PUT /increaseQty/:id and PUT /decreaseQty/:id: the new minimum purchase quantity. */
export const minimumQtySchema = z.object({
  newQuantity: z.number().int('must be an integer').min(1).max(1_000_000),
});
export type MinimumQty = z.infer<typeof minimumQtySchema>;

// ---------- orders ----------

/** The spec's shipping statuses: what `PATCH /order/:id/status` has always taken. */
export const SHIPPING_STATUSES = ['pending', 'shipped'] as const;
export type ShippingStatus = (typeof SHIPPING_STATUSES)[number];
/** What an admin sets on a paid order: the spec's two, then delivered once shipped. */
export const FULFILMENT_STATUSES = [...SHIPPING_STATUSES, 'delivered'] as const;
export type FulfilmentStatus = (typeof FULFILMENT_STATUSES)[number];
/**
 * What an order can show: the fulfilment statuses, `expired` (an unpaid order whose stock hold ran
 * out; its pieces went back to stock), `refunded` (its whole amount went back to the buyer) and
 * `disputed` (the buyer's bank disputes the payment: it does not ship until the dispute closes).
 * Payment stays in `paid` and `transactionId`.
 */
export const ORDER_STATUSES = [...FULFILMENT_STATUSES, 'expired', 'refunded', 'disputed'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** The events of an order's history, each with its time. */
export const ORDER_EVENTS = [
  'placed',
  'paid',
  'shipped',
  'unshipped',
  'delivered',
  'refunded',
  'partlyRefunded',
  'disputed',
  'disputeWon',
  'disputeLost',
  'expired',
] as const;
export type OrderEventKind = (typeof ORDER_EVENTS)[number];
export const orderEventSchema = z.object({
  event: z.enum(ORDER_EVENTS),
  at: z.string(),
  /** Dollars, for refunds. */
  amount: z.number().optional(),
  /** Carrier and tracking number of a shipment. */
  note: z.string().optional(),
});
export type OrderEvent = z.infer<typeof orderEventSchema>;

export const orderSchema = z.object({
  _id: z.string(),
  partsId: z.string(),
  Parts: z.string(),
  user: z.string(),
  userName: z.string(),
  qty: z.number().int(),
  /** qty × unit price in dollars (computed by the server from integer cents). */
  price: z.number(),
  paid: z.boolean(),
  transactionId: z.string().optional(),
  status: z.enum(ORDER_STATUSES),
  createdAt: z.string().optional(),
  /** When an unpaid order stops holding its stock and expires (ISO time). */
  expiresAt: z.string().optional(),
  /** The checkout this order is a line of: paid, cancelled and expired with it. */
  checkoutId: z.string().optional(),
  /** The shipment, when the admin gave them. */
  carrier: z.string().optional(),
  trackingNumber: z.string().optional(),
  /** Dollars given back so far (a partial refund leaves the order as it was otherwise). */
  refunded: z.number().optional(),
  /** What happened to the order, oldest first. */
  history: z.array(orderEventSchema).optional(),
});
export type Order = z.infer<typeof orderSchema>;

/**
 * POST /order. The original client's payload (partsId, Parts, user, userName, qty, price) is
 * accepted, but Parts and price are recomputed from the part and user must be the caller.
 */
export const orderInputSchema = z.object({
  partsId: objectIdSchema,
  qty: z.number().int('must be an integer').min(1).max(10_000_000),
  userName: line().trim().max(120).optional(),
  user: emailSchema.optional(),
  Parts: line().max(200).optional(),
  price: z.number().optional(),
});
export type OrderInput = z.infer<typeof orderInputSchema>;

/** PATCH /order/:id — the client reports a transaction id; the server asks Stripe. */
export const orderPaymentClaimSchema = z.object({
  transactionId: line().trim().min(1, 'is required').max(255),
  parts: line().optional(),
});
export type OrderPaymentClaim = z.infer<typeof orderPaymentClaimSchema>;

export const orderPaymentResultSchema = z.object({
  paid: z.boolean(),
  message: z.string(),
  order: orderSchema,
});
export type OrderPaymentResult = z.infer<typeof orderPaymentResultSchema>;

/**
 * PATCH /order/:id/status: the spec's `{status}` (pending or shipped), or delivered; a shipment may
 * name its carrier and tracking number.
 */
export const shippingStatusInputSchema = z.object({
  status: z.enum(FULFILMENT_STATUSES),
  carrier: line().trim().min(1).max(60).optional(),
  trackingNumber: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9][A-Za-z0-9 -]{0,39}$/, 'must be 1 to 40 letters, digits, spaces or dashes')
    .optional(),
});
export type ShippingStatusInput = z.infer<typeof shippingStatusInputSchema>;

/**
 * POST /order/:id/refund: the whole remaining amount, or (admins) `amount` dollars of it. An order
 * refunded whole becomes `refunded`; its pieces go back to stock when it had not shipped.
 */
export const refundInputSchema = z.object({ amount: dollars.optional() });
export type RefundInput = z.infer<typeof refundInputSchema>;

// ---------- payments ----------

/**
 * One order's payment (the spec's body: `orderId`), or a checkout's (`checkoutId`: every line with
 * one PaymentIntent). Exactly one of the two; without either, `orderId` is the one named missing.
 */
export const paymentIntentInputSchema = z
  .object({
    orderId: objectIdSchema.optional(),
    checkoutId: objectIdSchema.optional(),
    /** Sent by the original client; ignored — the amount comes from the stored order. */
    price: z.unknown().optional(),
  })
  .superRefine((body, ctx) => {
    if (body.orderId === undefined && body.checkoutId === undefined) {
      ctx.addIssue({ code: 'custom', path: ['orderId'], message: 'is required (or checkoutId)' });
    } else if (body.orderId !== undefined && body.checkoutId !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['checkoutId'], message: 'goes without orderId' });
    }
  });
export type PaymentIntentInput = z.infer<typeof paymentIntentInputSchema>;
export const paymentIntentSchema = z.object({ clientSecret: z.string() });
export type PaymentIntent = z.infer<typeof paymentIntentSchema>;

// ---------- reviews ----------

/**
 * A public review shows who wrote it by display name only: reviewers' email addresses are never
 * published (the `email` a client may send with a review stays private).
 */
export const reviewSchema = z.object({
  _id: z.string(),
  name: z.string(),
  img: z.string(),
  review: z.string(),
  rating: z.number().int(),
});
export type Review = z.infer<typeof reviewSchema>;

export const reviewInputSchema = z.object({
  email: emailSchema.optional(),
  img: imageUrlSchema,
  review: longText(1000),
  rating: z.number().int('must be an integer').min(1).max(5),
});
export type ReviewInput = z.infer<typeof reviewInputSchema>;

// ---------- hosted photos ----------

/** The photo formats POST /images takes (the bytes are checked, not only this header). */
export const UPLOAD_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
/** The largest photo POST /images takes, in bytes. */
export const MAX_UPLOAD_IMAGE_BYTES = 5 * 1024 * 1024;

/**
 * A photo hosted by the API: `url` the WebP at most 1600 px on its longest side, `thumbUrl` the
 * 400 px one, both paths on the API (`/uploads/<id>.webp`) that never change; width and height of
 * the full-size file.
 */
export const hostedImageSchema = z.object({
  url: z.string(),
  thumbUrl: z.string(),
  width: z.number().int(),
  height: z.number().int(),
});
export type HostedImage = z.infer<typeof hostedImageSchema>;

// ---------- users ----------

export const ROLES = ['admin', 'user'] as const;
export type Role = (typeof ROLES)[number];

/** The profile's free-text fields (education, location). */
const profileText = () => line().trim().max(200);
const phone = () =>
  line().trim().max(PHONE_MAX_LENGTH).regex(PHONE_PATTERN, `must contain only ${PHONE_CHARACTERS}`);
/** Empty (no profile link) or an http(s) URL. */
const profileLink = () => z.union([z.literal(''), httpUrl]);

export const profileFieldsSchema = z.object({
  education: profileText().default(''),
  location: profileText().default(''),
  phone: phone().default(''),
  linkedin: profileLink().default(''),
});
export type ProfileFields = z.infer<typeof profileFieldsSchema>;

/** PUT /userInfo/:email: any subset of the profile fields; fields not sent are left unchanged. */
export const profileUpdateSchema = z.object({
  education: profileText().optional(),
  location: profileText().optional(),
  phone: phone().optional(),
  linkedin: profileLink().optional(),
});
export type ProfileUpdate = z.infer<typeof profileUpdateSchema>;

export const userSchema = profileFieldsSchema.extend({
  _id: z.string(),
  email: z.string(),
  name: z.string().optional(),
  role: z.enum(ROLES),
  /** Where the last checkout was delivered (set by POST /checkout), offered at the next one. */
  address: z.string().optional(),
  /** Present (true) while an admin has disabled the account: it cannot sign in or use its tokens. */
  disabled: z.boolean().optional(),
});
export type User = z.infer<typeof userSchema>;

/** PUT /user/:email answer: our API token, plus the admin flag so the client needs no extra call. */
export const tokenResponseSchema = z.object({ token: z.string(), admin: z.boolean() });
export type TokenResponse = z.infer<typeof tokenResponseSchema>;

export const adminLookupSchema = z.object({ admin: z.boolean() });
export type AdminLookup = z.infer<typeof adminLookupSchema>;

export const makeAdminResultSchema = z.object({ modifiedCount: z.number().int() });
export type MakeAdminResult = z.infer<typeof makeAdminResultSchema>;

export const successSchema = z.object({ success: z.literal(true) });

/** DELETE /parts/:id answer: `archived` when open orders still need the part, so it was kept hidden. */
export const deletedPartSchema = successSchema.extend({ archived: z.boolean() });
export type DeletedPart = z.infer<typeof deletedPartSchema>;

export const healthSchema = z.object({ status: z.literal('ok') });
export type Health = z.infer<typeof healthSchema>;

/** GET /parts, GET /orders, GET /user, GET /review: page through with these; totals in X-Total-Count. */
export const pageQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(100),
});
export type PageQuery = z.infer<typeof pageQuerySchema>;

/**
 * Manage Order's filters (GET /orders, GET /export/orders.csv): the status, paid or not, and a
 * search that is an order's id or the buyer's email address (the whole address, any case).
 */
export const orderFilterSchema = z.object({
  status: z.enum(ORDER_STATUSES).optional(),
  /** Only `true` or `false` (a query string has no booleans; anything else is a 400). */
  paid: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional(),
  q: z
    .string()
    .max(254, { abort: true })
    .trim()
    .toLowerCase()
    .refine((v) => v === '' || objectIdSchema.safeParse(v).success || emailSchema.safeParse(v).success, {
      message: "must be an order id or a customer's email address",
    })
    .optional(),
});
export type OrderFilter = z.infer<typeof orderFilterSchema>;

/** GET /orders: a page of the orders the filters keep. */
export const orderListQuerySchema = pageQuerySchema.extend(orderFilterSchema.shape);
export type OrderListQuery = z.infer<typeof orderListQuerySchema>;

/** GET /order?user=<email> */
export const userOrdersQuerySchema = pageQuerySchema.extend({ user: emailSchema });
export type UserOrdersQuery = z.infer<typeof userOrdersQuerySchema>;
export type Success = z.infer<typeof successSchema>;

// ---------- cart and checkout ----------

/** At most this many lines in a cart (and so in one checkout). */
export const MAX_CART_LINES = 50;

/** Why a cart line cannot be checked out as it is; the cart page shows it, nothing changes silently. */
export const CART_PROBLEMS = ['deleted', 'stock', 'price'] as const;
export type CartProblemCode = (typeof CART_PROBLEMS)[number];

export const cartLineSchema = z.object({
  partId: z.string(),
  name: z.string(),
  img: z.string(),
  qty: z.number().int(),
  /** The part's minimum order. */
  minQty: z.number().int(),
  availableQty: z.number().int(),
  /** Dollars a piece at this quantity now (the tier it reaches, else the part's price). */
  unitPrice: z.number(),
  lineTotal: z.number(),
  problem: z.object({ code: z.enum(CART_PROBLEMS), message: z.string() }).optional(),
});
export type CartLine = z.infer<typeof cartLineSchema>;

export const cartSchema = z.object({ lines: z.array(cartLineSchema), total: z.number() });
export type Cart = z.infer<typeof cartSchema>;

/** PUT /cart/lines/:partId */
export const cartLineInputSchema = z.object({
  qty: z.number().int('must be an integer').min(1).max(10_000_000),
});
export type CartLineInput = z.infer<typeof cartLineInputSchema>;

/** POST /checkout: where the parts go, saved to the profile for next time. */
export const checkoutInputSchema = z.object({
  address: longText(DELIVERY_ADDRESS_MAX_LENGTH),
  phone: phone().min(DELIVERY_PHONE_MIN_LENGTH, 'is required'),
});
export type CheckoutInput = z.infer<typeof checkoutInputSchema>;

export const CHECKOUT_STATUSES = ['placed', 'paid', 'cancelled', 'expired'] as const;

export const checkoutSchema = z.object({
  checkoutId: z.string(),
  orders: z.array(orderSchema),
  total: z.number(),
  status: z.enum(CHECKOUT_STATUSES),
  paid: z.boolean(),
  transactionId: z.string().optional(),
  address: z.string(),
  phone: z.string(),
  /** When its unpaid lines stop holding their stock (ISO time). */
  expiresAt: z.string().optional(),
});
export type Checkout = z.infer<typeof checkoutSchema>;

/** A checkout refused because lines are short: each with what is still available. */
export const checkoutShortLineSchema = z.object({
  partId: z.string(),
  requested: z.number().int(),
  availableQty: z.number().int(),
});
export type CheckoutShortLine = z.infer<typeof checkoutShortLineSchema>;

/** PATCH /checkout/:id — the client reports the checkout's payment; the server asks Stripe. */
export const checkoutPaymentClaimSchema = z.object({
  transactionId: line().trim().min(1, 'is required').max(255),
});
