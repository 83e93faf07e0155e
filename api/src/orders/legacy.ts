import { OrderModel } from './model';
import type { OrderReads } from './read-models';

/**
 * Gives the orders placed under `email` before accounts were keyed by uid to the account `uid`
 * (its first sign-in with that address verified). The read model finds them (by the `user` index,
 * or on the embedded database from the address's list, forgotten last: a crash before leaves the
 * claim to the next sign-in, which repeats every step harmlessly, each update skipping orders
 * that have a uid). The update names many orders, so the in-memory order list reads them again
 * and lists them as the customer's from then on.
 */
export async function claimLegacyOrders(
  uid: string,
  email: string,
  reads: Pick<OrderReads, 'legacyOrderIds' | 'legacyClaimed'>,
): Promise<void> {
  const ids = await reads.legacyOrderIds(email);
  // At most 500 ids a read: the embedded FerretDB answers those from its `_id` index.
  for (let i = 0; i < ids.length; i += 500) {
    await OrderModel.updateMany(
      { _id: { $in: ids.slice(i, i + 500) }, uid: { $exists: false } },
      { $set: { uid } },
    );
  }
  await reads.legacyClaimed(email);
}
