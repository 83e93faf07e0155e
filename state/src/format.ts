const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const counts = new Intl.NumberFormat('en-US');

/** Prices are dollars with cents, shown the same way on every screen: $1,234.50. */
export const formatPrice = (dollars: number): string => usd.format(dollars);
/** Quantities and counts with thousands separators: 10,000. */
export const formatCount = (n: number): string => counts.format(n);
