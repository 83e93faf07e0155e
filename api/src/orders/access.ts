import type { Order } from '@motoparts/contracts';
import type { Caller } from '../http/context';
import { AppError } from '../lib/app-error';
import { isListed, OrderModel, type OrderDoc, type OrderRow } from './model';
import type { OrderRules } from './rules';
import { toOrder } from './wire';

const isVisible = (doc: OrderDoc) => isListed(doc.hold);

/**
 * GET /order/:id's answer: from the read model's row where it keeps the order in memory, else
 * from the database; the same checks.
 */
export async function orderAnswerFor(
  caller: Caller,
  id: string,
  rules: OrderRules,
  row: OrderRow | undefined,
): Promise<Order> {
  if (!row) return toOrder(await getOrderFor(caller, id), rules);
  if (row.uid !== caller.uid && !caller.admin)
    throw AppError.forbidden('This order belongs to someone else.');
  return toOrder(row, rules);
}

/** Loads an order the caller may see: their own, or any order for an admin. */
export async function getOrderFor(
  caller: Caller,
  id: string,
  { adminMaySee = true } = {},
): Promise<OrderDoc> {
  const doc = await OrderModel.findById(id).lean<OrderDoc>();
  if (!doc || !isVisible(doc)) throw AppError.notFound('Order');
  if (doc.uid !== caller.uid && !(adminMaySee && caller.admin)) {
    throw AppError.forbidden('This order belongs to someone else.');
  }
  return doc;
}
