import type { MouseEvent } from 'react';
import { Link } from 'react-router-dom';
import { ADMIN_CANNOT_ORDER } from '@motoparts/contracts/messages';
import { assetUrl, selectIsAdmin, useAppSelector, useGetPartsQuery } from '@motoparts/state';
import type { Part } from '@motoparts/contracts';
import { formatCount, formatPrice } from './format';

function PartCard({ part, eager }: { part: Part; eager: boolean }) {
  const isAdmin = useAppSelector(selectIsAdmin);

  // SPEC §6: admins cannot buy; they are told so and stay on the page.
  const onPurchase = (event: MouseEvent<HTMLAnchorElement>) => {
    if (!isAdmin) return;
    event.preventDefault();
    window.alert(ADMIN_CANNOT_ORDER);
  };

  return (
    <article className="part-card card" data-testid="part-card" aria-labelledby={`part-${part._id}`}>
      <img
        src={assetUrl(part.img)}
        alt={part.name}
        width={360}
        height={240}
        loading={eager ? 'eager' : 'lazy'}
        decoding="async"
      />
      <div className="part-body">
        <h3 id={`part-${part._id}`}>{part.name}</h3>
        <p className="part-text">{part.text}</p>
        <p className="part-price">
          {formatPrice(part.price)} <span>per piece</span>
        </p>
        <dl className="part-facts">
          <div>
            <dt>Minimum order</dt>
            <dd>{formatCount(part.qty)} pcs</dd>
          </div>
          <div>
            <dt>Available</dt>
            <dd>{formatCount(part.availableQty)} pcs</dd>
          </div>
        </dl>
        <Link
          className="btn"
          to={`/purchase/${part._id}`}
          onClick={onPurchase}
          aria-label={`Purchase ${part.name}`}
        >
          Purchase
        </Link>
      </div>
    </article>
  );
}

export function PartsGrid({ limit }: { limit?: number }) {
  const { data, isLoading, isError, refetch } = useGetPartsQuery(limit ? { limit } : undefined);
  if (isLoading) {
    return (
      <div className="parts-grid" aria-busy="true">
        <p className="visually-hidden">Loading...</p>
        {[0, 1, 2].map((n) => (
          <div key={n} className="skeleton-card" />
        ))}
      </div>
    );
  }
  if (isError || !data) {
    return (
      <div className="parts-status" role="alert">
        <p>The parts could not be loaded.</p>
        <button type="button" className="btn btn-outline" onClick={() => void refetch()}>
          Retry
        </button>
      </div>
    );
  }
  if (data.parts.length === 0) return <p className="parts-status">No parts are listed right now.</p>;
  return (
    <div className="parts-grid">
      {data.parts.map((part, i) => (
        <PartCard key={part._id} part={part} eager={i < 3} />
      ))}
    </div>
  );
}
