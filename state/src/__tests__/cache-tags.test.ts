import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createApi, fakeBaseQuery } from '@reduxjs/toolkit/query';
import { baseApi, LIST_TAGS, orderTag, TAG_TYPES } from '../index';
import { unprovidedTags } from './unprovided-tags';

/** Every remote's endpoints: each feature keeps them in `features/<feature>/api.ts`. */
const featureApis = ['storefront-mfe', 'auth-mfe', 'dashboard-mfe'].flatMap((remote) => {
  const features = join(__dirname, '..', '..', '..', remote, 'src', 'features');
  if (!existsSync(features)) return [];
  return readdirSync(features)
    .map((feature) => join(features, feature, 'api.ts'))
    .filter((file) => existsSync(file));
});

// Injected into the one shared api, as they are in the browser; the kit's own cart entry too.
beforeAll(async () => {
  await import('../cart-api');
  for (const file of featureApis) await import(file);
});

describe('cache tags', () => {
  it('every tag a mutation of any remote invalidates is provided by some query', () => {
    expect(Object.keys(baseApi.endpoints)).toEqual(
      expect.arrayContaining([
        'getParts',
        'placeOrder',
        'getMyOrders',
        'cancelOrder',
        'addPart',
        'getCart',
        'getCheckout',
        'cancelCheckout',
      ]),
    );
    expect(unprovidedTags(baseApi)).toEqual([]);
  });

  it('an order refreshes My Order, Manage Order and the part it took stock from', () => {
    const defs: Record<string, { invalidatesTags?: unknown }> = {};
    baseApi.enhanceEndpoints({
      endpoints: { placeOrder: (d: { invalidatesTags?: unknown }) => void (defs.placeOrder = d) },
    });
    const tags = (defs.placeOrder?.invalidatesTags as (...a: unknown[]) => unknown[])(undefined, undefined, {
      partsId: 'p1',
    });
    expect(tags).toEqual(
      expect.arrayContaining([
        LIST_TAGS.myOrders,
        LIST_TAGS.allOrders,
        LIST_TAGS.parts,
        { type: 'Part', id: 'p1' },
      ]),
    );
  });

  it('catches a mutation that invalidates a tag no query provides', () => {
    const api = createApi({
      baseQuery: fakeBaseQuery(),
      tagTypes: TAG_TYPES,
      endpoints: (build) => ({
        mine: build.query<string[], void>({
          queryFn: () => ({ data: [] }),
          providesTags: [LIST_TAGS.myOrders],
        }),
        order: build.query<string, string>({
          queryFn: () => ({ data: '' }),
          providesTags: (_r, _e, id) => [orderTag(id)],
        }),
        // The old bug: the purchase invalidated "Order LIST", which nothing provides.
        place: build.mutation<void, void>({
          queryFn: () => ({ data: undefined }),
          invalidatesTags: [{ type: 'Order', id: 'LIST' }],
        }),
        cancel: build.mutation<void, string>({
          queryFn: () => ({ data: undefined }),
          invalidatesTags: (_r, _e, id) => [orderTag(id), LIST_TAGS.myOrders],
        }),
        review: build.mutation<void, void>({
          queryFn: () => ({ data: undefined }),
          invalidatesTags: [LIST_TAGS.reviews],
        }),
      }),
    });
    expect(unprovidedTags(api).sort()).toEqual(['place → Order:LIST', 'review → Review:LIST']);
  });
});
