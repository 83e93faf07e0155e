import { formatCount, formatPrice } from '../format';

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const counts = new Intl.NumberFormat('en-US');

/** Values where rounding, grouping or the sign is easy to get wrong. */
const EDGES = [
  0,
  -0,
  1,
  -1,
  0.5,
  0.005,
  0.015,
  0.125,
  1.005,
  1.015,
  2.675,
  10.235,
  99.995,
  999.995,
  999.999,
  1000,
  1234.5,
  9999.995,
  12345.6789,
  1e6,
  1234567.891,
  -5,
  -0.001,
  -1234.565,
  0.0004,
  0.0005,
  1e-7,
  123456789012.345,
  2 ** 53,
  2 ** 53 + 2,
  1e21,
  1.5e22,
  123456789012345.67,
  NaN,
  Infinity,
  -Infinity,
];

/** A deterministic spread of prices and quantities (no Math.random: a failure must repeat). */
function* spread(): Generator<number> {
  let seed = 12345;
  for (let i = 0; i < 5000; i++) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    const scale = 10 ** (seed % 9);
    yield (seed / 2 ** 31) * scale;
    yield Math.round((seed / 2 ** 31) * scale * 1000) / 1000;
    yield -Math.round((seed / 2 ** 31) * scale * 100) / 100;
    yield Math.floor((seed / 2 ** 31) * scale) + 0.005;
  }
}

describe('formatPrice and formatCount', () => {
  it('give the examples the screens show', () => {
    expect(formatPrice(1234.5)).toBe('$1,234.50');
    expect(formatPrice(12)).toBe('$12.00');
    expect(formatCount(10000)).toBe('10,000');
    expect(formatCount(100)).toBe('100');
  });

  it.each(EDGES)('match Intl.NumberFormat en-US for %p', (n) => {
    expect(formatPrice(n)).toBe(usd.format(n));
    expect(formatCount(n)).toBe(counts.format(n));
  });

  it('match Intl.NumberFormat en-US over 20,000 generated values', () => {
    const mismatches: string[] = [];
    for (const n of spread()) {
      if (formatPrice(n) !== usd.format(n))
        mismatches.push(`price ${n}: ${formatPrice(n)} ≠ ${usd.format(n)}`);
      if (formatCount(n) !== counts.format(n))
        mismatches.push(`count ${n}: ${formatCount(n)} ≠ ${counts.format(n)}`);
    }
    expect(mismatches.slice(0, 10)).toEqual([]);
  });
});
