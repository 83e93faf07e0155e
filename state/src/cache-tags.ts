/**
 * The RTK Query cache tags every remote shares. A tag is a contract between the query that
 * provides it and the mutations (often in another remote) that invalidate it, so both sides
 * build their tags from these constants instead of spelling strings: a mutation can then only
 * name a tag some query provides (checked by `unprovidedTags` in this package's unit tests, which
 * lives beside them: the kit is a shared module, never tree-shaken, so what it exports ships).
 */
export const TAG_TYPES = ['Part', 'Order', 'Review', 'User', 'Profile', 'Cart', 'Checkout'] as const;
export type TagType = (typeof TAG_TYPES)[number];

/** Whole lists. Each is provided by exactly the query named beside it. */
export const LIST_TAGS = {
  /** getParts: every page, search and filter of the catalogue (home grid, catalogue, Manage Products). */
  parts: { type: 'Part', id: 'LIST' },
  /** getMyOrders: My Order. */
  myOrders: { type: 'Order', id: 'MINE' },
  /** getAllOrders: Manage Order. */
  allOrders: { type: 'Order', id: 'ALL' },
  /** getReviews: the Reviews page and the home page's testimonials. */
  reviews: { type: 'Review', id: 'LIST' },
  /** getUsers: All Users. */
  users: { type: 'User', id: 'LIST' },
  /** getCart: the cart page and the top bar's count. */
  cart: { type: 'Cart', id: 'MINE' },
} as const satisfies Record<string, { type: TagType; id: string }>;

export type ListTag = (typeof LIST_TAGS)[keyof typeof LIST_TAGS];

/** One entity's tag: provided by its single-item query and by every list that shows it. */
export interface EntityTag<T extends TagType = TagType> {
  type: T;
  id: string;
}
export type AppTag = ListTag | EntityTag<'Part' | 'Order' | 'Profile' | 'Checkout'>;

export const partTag = (id: string): EntityTag<'Part'> => ({ type: 'Part', id });
export const orderTag = (id: string): EntityTag<'Order'> => ({ type: 'Order', id });
export const profileTag = (email: string): EntityTag<'Profile'> => ({ type: 'Profile', id: email });
export const checkoutTag = (id: string): EntityTag<'Checkout'> => ({ type: 'Checkout', id });

/** What changes when stock moves (an order, a cancel, a restock): the part and every list of parts. */
export const stockTags = (partId: string): AppTag[] => [partTag(partId), LIST_TAGS.parts];

/** What changes when an order changes: the order and both order lists. */
export const orderTags = (orderId: string): AppTag[] => [
  orderTag(orderId),
  LIST_TAGS.myOrders,
  LIST_TAGS.allOrders,
];
