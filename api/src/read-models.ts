import { readModelKind, type Env, type ReadModelKind } from './lib/env';
import { useOpenSlots } from './orders/open-slots';
import { DatabaseOrderReads, MemoryOrderReads, type OrderReads } from './orders/read-models';
import { orderRules } from './orders/rules';
import { DatabaseSalesReads, MemorySalesReads, type SalesReads } from './sales/read-models';

/**
 * The one seam between the two ways of reading what a plain query cannot answer fast on the
 * embedded FerretDB (it pushes no filter, sort or count down, so each reads every record through
 * the API's one connection): `memory`, lists kept by this process, the embedded database's only
 * writer; `database`, queries, as a MongoDB deployment runs them. Chosen once per app, here, from
 * READ_MODELS (by default from the database's kind); no service or route asks which. `npm test`
 * runs the API suite with each.
 *
 * - the orders' lists (orders/read-models.ts): the admin's list, My Order, the expiry candidates;
 * - the Overview's facts (sales/read-models.ts): paid orders by payment time, orders by placing
 *   time, the unpaid orders holding pieces;
 * - the open-order cap (orders/open-slots.ts): counted in memory or in slot documents;
 * - accounts by email and the admin's list of users (users/lookup.ts), and who a token's account
 *   is (users/callers.ts), which read the same switch.
 */
export interface ReadModels {
  kind: ReadModelKind;
  orders: OrderReads;
  sales: SalesReads;
}

export function readModelsFor(
  env: Pick<Env, 'READ_MODELS' | 'MONGODB_EMBEDDED' | 'ORDER_HOLD_MINUTES' | 'MAX_OPEN_ORDERS'>,
): ReadModels {
  const kind = readModelKind(env);
  useOpenSlots(kind);
  const rules = orderRules(env);
  return kind === 'memory'
    ? { kind, orders: new MemoryOrderReads(rules), sales: new MemorySalesReads() }
    : { kind, orders: new DatabaseOrderReads(rules), sales: new DatabaseSalesReads() };
}
