import type { Order } from '@motoparts/contracts';
import { checkoutDate, groupOrders, linesLabel } from '../checkout-groups';

let n = 0;
function order(over: Partial<Order> = {}): Order {
  n += 1;
  return {
    _id: `o${n}`,
    partsId: `p${n}`,
    Parts: `Part ${n}`,
    user: 'rider@motoparts.test',
    userName: 'Rider',
    qty: 100,
    price: 10,
    paid: false,
    status: 'pending',
    ...over,
  };
}

describe('My Order groups', () => {
  it('keeps orders without a checkout as single orders, in the list’s order', () => {
    const a = order();
    const b = order();
    expect(groupOrders([a, b])).toEqual({ checkouts: [], singles: [a, b] });
  });

  it('puts the lines of one checkout under one group, newest checkout first', () => {
    const newer = [order({ checkoutId: 'c2' }), order({ checkoutId: 'c2' })];
    const single = order();
    const older = [order({ checkoutId: 'c1' }), order({ checkoutId: 'c1' }), order({ checkoutId: 'c1' })];
    const [first, second] = newer;
    if (!first || !second) throw new Error('two lines');
    const { checkouts, singles } = groupOrders([first, single, second, ...older]);
    expect(singles).toEqual([single]);
    expect(checkouts.map((g) => [g.checkoutId, g.orders.map((o) => o._id)])).toEqual([
      ['c2', newer.map((o) => o._id)],
      ['c1', older.map((o) => o._id)],
    ]);
  });

  it('adds the total in whole cents', () => {
    const [group] = groupOrders([
      order({ checkoutId: 'c', price: 0.1 }),
      order({ checkoutId: 'c', price: 0.2 }),
      order({ checkoutId: 'c', price: 1234.05 }),
    ]).checkouts;
    expect(group?.total).toBe(1234.35);
  });

  it('is paid with one transaction id once every line is paid', () => {
    const lines = ['a', 'b', 'c'].map(() =>
      order({ checkoutId: 'c', paid: true, transactionId: 'pi_1', status: 'shipped' }),
    );
    expect(groupOrders(lines).checkouts[0]).toMatchObject({ state: 'paid', transactionId: 'pi_1' });
  });

  it('is unpaid while a line is unpaid, and expired once a line has expired', () => {
    const unpaid = groupOrders([order({ checkoutId: 'c' }), order({ checkoutId: 'c' })]).checkouts[0];
    expect(unpaid).toMatchObject({ state: 'unpaid', transactionId: undefined });
    const expired = groupOrders([
      order({ checkoutId: 'c', status: 'expired' }),
      order({ checkoutId: 'c', status: 'expired' }),
    ]).checkouts[0];
    expect(expired?.state).toBe('expired');
  });

  it('is dated by its earliest line', () => {
    const [group] = groupOrders([
      order({ checkoutId: 'c', createdAt: '2026-11-27T09:41:02.000Z' }),
      order({ checkoutId: 'c', createdAt: '2026-11-27T09:41:01.000Z' }),
      order({ checkoutId: 'c' }),
    ]).checkouts;
    expect(group?.createdAt).toBe('2026-11-27T09:41:01.000Z');
  });
});

describe('group heading parts', () => {
  it('names the date and the number of lines', () => {
    expect(checkoutDate('2026-11-27T12:41:00.000Z')).toMatch(/^Nov 27, 2026, \d{1,2}:41\s?[AP]M$/);
    expect(checkoutDate(undefined)).toBe('');
    expect(checkoutDate('not a date')).toBe('');
    expect(linesLabel(1)).toBe('1 line');
    expect(linesLabel(3)).toBe('3 lines');
  });
});
