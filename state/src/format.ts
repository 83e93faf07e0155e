/**
 * Numbers as en-US shows them, written out rather than through `Intl.NumberFormat`: the first
 * Intl formatter a page makes loads the browser's locale data, 60–85 ms of main thread at 4× CPU,
 * in the same task as the first screen. These give the same strings (a unit test compares them
 * with Intl over edge cases and random values).
 */

/**
 * |n| to `digits` decimals, rounded half away from zero on its shortest decimal form (1.005 is
 * 1.005 there, not the 1.00499… that multiplying by 100 would see), as Intl rounds.
 */
function roundedDigits(abs: number, digits: number): { whole: string; fraction: string } {
  const text = String(abs);
  if (text.includes('e')) {
    // ≥ 1e21 is an integer (its digits exactly, through BigInt); below 1e-6 rounds to zero here.
    const whole = abs >= 1 ? BigInt(abs).toString() : '0';
    return { whole, fraction: '0'.repeat(digits) };
  }
  const [int = '0', frac = ''] = text.split('.');
  if (frac.length <= digits) return { whole: int, fraction: frac.padEnd(digits, '0') };
  let units = BigInt(int + frac.slice(0, digits));
  if (frac.charCodeAt(digits) >= 53 /* '5' */) units += BigInt(1);
  const all = units.toString().padStart(digits + 1, '0');
  return { whole: all.slice(0, all.length - digits), fraction: all.slice(all.length - digits) };
}

/** Digits with a comma before every group of three from the right: 1234567 → 1,234,567. */
const grouped = (whole: string): string =>
  // The lookahead rescans the digits after each position: quadratic, but `whole` is the integer
  // part of a finite double (at most 309 digits), never outside input, and this is the shortest
  // code on the first screen's budget.
  // eslint-disable-next-line regexp/no-super-linear-move
  whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** Intl's sign: a minus for negative numbers, negative zero included. */
const signOf = (n: number): string => (n < 0 || Object.is(n, -0) ? '-' : '');

/** Prices are dollars with cents, shown the same way on every screen: $1,234.50. */
export function formatPrice(dollars: number): string {
  const sign = signOf(dollars);
  if (!Number.isFinite(dollars)) return `${sign}$${Number.isNaN(dollars) ? 'NaN' : '∞'}`;
  const { whole, fraction } = roundedDigits(Math.abs(dollars), 2);
  return `${sign}$${grouped(whole)}.${fraction}`;
}

/** Quantities and counts with thousands separators: 10,000 (up to three decimals, as Intl). */
export function formatCount(n: number): string {
  const sign = signOf(n);
  if (!Number.isFinite(n)) return `${sign}${Number.isNaN(n) ? 'NaN' : '∞'}`;
  const { whole, fraction } = roundedDigits(Math.abs(n), 3);
  const decimals = fraction.replace(/0{1,3}$/, ''); // `fraction` has three digits
  return `${sign}${grouped(whole)}${decimals ? `.${decimals}` : ''}`;
}
