import { useState, type MouseEvent, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { ADMIN_CANNOT_ORDER, CATEGORY_LABELS, isInStock, isLowStock } from '@motoparts/contracts/messages';
import {
  assetUrl,
  thumbnailUrl,
  formatCount,
  formatPrice,
  selectIsAdmin,
  useAppSelector,
} from '@motoparts/state';
import type { Part } from '@motoparts/contracts';
import { PartFacts } from './part-facts';

/** Shown instead of a photo that fails to load (moved, deleted, wrong URL). */
export const PART_PLACEHOLDER = '/images/part-placeholder.svg';

/** A photo that falls back to the placeholder instead of the browser's broken-image icon. */
export function PartImage({
  part,
  width,
  height,
  eager = false,
}: {
  part: Pick<Part, 'img' | 'name'>;
  width: number;
  height: number;
  eager?: boolean;
}) {
  const [failed, setFailed] = useState(false);
  const src = failed ? PART_PLACEHOLDER : part.img;
  // A photo the API hosts also has a 400 px version: the browser takes it where that is enough
  // (a card at 1x), the full one elsewhere.
  const small = thumbnailUrl(src);
  return (
    <img
      src={assetUrl(src)}
      srcSet={small !== src ? `${assetUrl(small)} 400w, ${assetUrl(src)} 1600w` : undefined}
      sizes={small !== src ? `${width}px` : undefined}
      alt={part.name}
      width={width}
      height={height}
      loading={eager ? 'eager' : 'lazy'}
      decoding="async"
      data-fallback={failed ? 'true' : undefined}
      onError={() => setFailed(true)}
    />
  );
}

export function StockBadge({ part }: { part: Pick<Part, 'qty' | 'availableQty'> }) {
  if (!isInStock(part)) return <span className="badge badge-out">Sold out</span>;
  if (isLowStock(part)) return <span className="badge badge-low">Low stock</span>;
  return <span className="badge badge-in">In stock</span>;
}

/**
 * Purchase: a link to the part's purchase page, or a button that cannot be pressed when the part
 * is sold out. An admin pressing it is told that admins cannot buy and stays on the page
 * (docs/product.md).
 */
export function PurchaseLink({ part, className = 'btn' }: { part: Part; className?: string }) {
  const isAdmin = useAppSelector(selectIsAdmin);
  const onPurchase = (event: MouseEvent<HTMLAnchorElement>) => {
    if (!isAdmin) return;
    event.preventDefault();
    window.alert(ADMIN_CANNOT_ORDER);
  };
  if (!isInStock(part)) {
    return (
      <button type="button" className={className} disabled aria-label={`Purchase ${part.name} (sold out)`}>
        Purchase
      </button>
    );
  }
  return (
    <Link
      className={className}
      to={`/purchase/${part._id}`}
      onClick={onPurchase}
      aria-label={`Purchase ${part.name}`}
    >
      Purchase
    </Link>
  );
}

/**
 * One part in a grid. The whole card opens the part's own page (the name's link stretches over
 * it); the Purchase button sits above that link and leads to the purchase page, and a sold-out
 * part has none that can be pressed.
 */
export function PartCard({ part, eager, children }: { part: Part; eager: boolean; children?: ReactNode }) {
  const buyable = isInStock(part);
  // Tiers ascend with falling prices: the last one is the lowest price a line can reach.
  const best = part.priceTiers?.at(-1);

  return (
    <article
      className={`part-card card${buyable ? '' : ' is-sold-out'}`}
      data-testid="part-card"
      aria-labelledby={`part-${part._id}`}
    >
      <PartImage part={part} width={360} height={240} eager={eager} />
      <div className="part-body">
        <div className="part-tags">
          <span className="part-category">{CATEGORY_LABELS[part.category]}</span>
          <StockBadge part={part} />
        </div>
        <h3 id={`part-${part._id}`}>
          <Link className="card-link" to={`/parts/${part._id}`}>
            {part.name}
          </Link>
        </h3>
        <p className="part-price">
          {formatPrice(part.price)} <span>per piece</span>
          {best && (
            <span className="part-tier">
              from {formatPrice(best.price)} at {formatCount(best.fromQty)} pcs
            </span>
          )}
        </p>
        <PartFacts part={part} />
        <PurchaseLink part={part} className="btn card-action" />
        {children}
      </div>
    </article>
  );
}
