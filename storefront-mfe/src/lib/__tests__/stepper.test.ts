import { canOrder, decrease, increase, initialQty, minimumMessage, STOCK_MESSAGE } from '../stepper';

const bounds = { min: 100, stock: 103 };

describe('purchase stepper', () => {
  it('starts at the minimum', () => {
    expect(initialQty(bounds)).toBe(100);
  });

  it('refuses to go below the minimum with the exact message of docs/product.md', () => {
    expect(decrease(100, bounds)).toEqual({ qty: 100, message: 'Minimum purchase quantity is 100' });
  });

  it('decreases by one above the minimum', () => {
    expect(decrease(102, bounds)).toEqual({ qty: 101, message: null });
    expect(decrease(101, bounds)).toEqual({ qty: 100, message: null });
  });

  it('increases by one up to the stock', () => {
    expect(increase(100, bounds)).toEqual({ qty: 101, message: null });
    expect(increase(102, bounds)).toEqual({ qty: 103, message: null });
  });

  it('refuses to exceed the stock with the exact message of docs/product.md', () => {
    expect(increase(103, bounds)).toEqual({ qty: 103, message: 'You have reach our available stocks' });
    expect(STOCK_MESSAGE).toBe('You have reach our available stocks');
  });

  it('names another minimum in the same sentence', () => {
    expect(minimumMessage(250)).toBe('Minimum purchase quantity is 250');
    expect(decrease(250, { min: 250, stock: 1000 }).message).toBe('Minimum purchase quantity is 250');
  });

  it('allows ordering only within the bounds', () => {
    expect(canOrder(100, bounds)).toBe(true);
    expect(canOrder(103, bounds)).toBe(true);
    expect(canOrder(104, bounds)).toBe(false);
    expect(canOrder(99, bounds)).toBe(false);
    expect(canOrder(100.5, bounds)).toBe(false);
  });

  it('disables ordering when the stock is below the minimum', () => {
    const short = { min: 100, stock: 40 };
    expect(initialQty(short)).toBe(100);
    expect(canOrder(100, short)).toBe(false);
    expect(increase(100, short)).toEqual({ qty: 100, message: STOCK_MESSAGE });
  });
});
