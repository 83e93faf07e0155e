const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const counts = new Intl.NumberFormat('en-US');

export const formatPrice = (dollars: number) => usd.format(dollars);
export const formatCount = (n: number) => counts.format(n);
