import { useParams } from 'react-router-dom';
import { CATEGORY_LABELS } from '@motoparts/contracts/messages';
import { formatCount, formatPrice, useGetPartQuery } from '@motoparts/state';
import { PartImage, StockBadge } from '../../../components/part-card';
import { PartFacts } from '../../../components/part-facts';
import { PartLoadProblem } from '../../../components/part-load-problem';
import { ensureStorefrontStyles } from '../../../styles';
import { PurchaseForm } from '../components/purchase-form';

ensureStorefrontStyles();

/** docs/product.md, `/purchase/:id`: the part with its facts, and the order form beside it. */
export default function PurchasePage() {
  const { id = '' } = useParams();
  const { data: part, isLoading, isError, error, refetch } = useGetPartQuery(id, { skip: !id });

  if (isLoading) return <p className="page-loading">Loading...</p>;
  if (isError || !part) return <PartLoadProblem error={error} retry={() => void refetch()} />;

  return (
    <div className="page">
      <div className="purchase">
        <section className="purchase-product" aria-labelledby="product-heading">
          <PartImage part={part} width={560} height={373} eager />
          <p className="part-tags">
            <span className="part-category">{CATEGORY_LABELS[part.category]}</span>
            <StockBadge part={part} />
          </p>
          <h1 id="product-heading">{part.name}</h1>
          <p>{part.text}</p>
          <p className="part-price">
            {formatPrice(part.price)} <span>per piece</span>
          </p>
          <PartFacts part={part} availableTestId="available-qty" />
          {part.priceTiers && (
            <dl className="part-facts" aria-label="Volume prices" data-testid="price-tiers">
              {part.priceTiers.map((tier) => (
                <div key={tier.fromQty}>
                  <dt>From {formatCount(tier.fromQty)} pcs</dt>
                  <dd>{formatPrice(tier.price)} per piece</dd>
                </div>
              ))}
            </dl>
          )}
        </section>
        {/* Keyed by part so a different part starts again at its own minimum. */}
        <PurchaseForm key={part._id} part={part} />
      </div>
    </div>
  );
}
