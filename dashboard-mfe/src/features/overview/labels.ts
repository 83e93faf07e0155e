import type { SalesState } from '@motoparts/contracts';

const STATE_LABELS: Record<SalesState, string> = {
  unpaid: 'Unpaid',
  pending: 'Paid, not shipped',
  shipped: 'Shipped',
  delivered: 'Delivered',
  refunded: 'Refunded',
  disputed: 'Disputed',
  expired: 'Expired (not paid in time)',
};

/** How the Overview names a state. */
export const stateLabel = (state: SalesState) => STATE_LABELS[state];

const DAY_FORMAT = new Intl.DateTimeFormat('en-US', {
  timeZone: 'UTC',
  weekday: 'short',
  month: 'short',
  day: 'numeric',
  year: 'numeric',
});

/** A shop day (`YYYY-MM-DD`, already in the shop's zone) as people read it: "Fri, Nov 27, 2026". */
export const dayLabel = (date: string) => DAY_FORMAT.format(new Date(`${date}T00:00:00Z`));
