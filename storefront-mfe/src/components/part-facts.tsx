import { formatCount } from '@motoparts/state';
import type { Part } from '@motoparts/contracts';

/**
 * A part's minimum order and stock on hand, as on its card and its purchase page. The purchase
 * page names the stock (`availableTestId`) because its tests watch it change after an order.
 */
export function PartFacts({
  part,
  availableTestId,
}: {
  part: Pick<Part, 'qty' | 'availableQty'>;
  availableTestId?: string;
}) {
  return (
    <dl className="part-facts">
      <div>
        <dt>Minimum order</dt>
        <dd>{formatCount(part.qty)} pcs</dd>
      </div>
      <div>
        <dt>Available</dt>
        <dd data-testid={availableTestId}>{formatCount(part.availableQty)} pcs</dd>
      </div>
    </dl>
  );
}
