import { useEffect } from 'react';
import { useParams } from 'react-router-dom';
import { CATEGORY_LABELS, isInStock } from '@motoparts/contracts/messages';
import { formatCount, formatPrice, useGetPartQuery } from '@motoparts/state';
import { AddToCartButton, useAddToCartAfterSignIn } from '../../../components/add-to-cart';
import { PartImage, PurchaseLink, StockBadge } from '../../../components/part-card';
import { PartFacts } from '../../../components/part-facts';
import { PartLoadProblem } from '../../../components/part-load-problem';
import { ensureStorefrontStyles } from '../../../styles';

ensureStorefrontStyles();

/**
 * docs/product.md, `/parts/:id`: a part's public page, the one search engines and shared links
 * lead to (its served HTML already carries the part's title, description and schema.org Product:
 * deploy/nginx.conf). Purchase leads to the signed-in purchase page; Add to cart adds one minimum
 * order, through /login for a signed-out visitor, who comes back here with it added.
 */
export default function PartPage() {
  const { id = '' } = useParams();
  const { data: part, isLoading, isError, error, refetch } = useGetPartQuery(id, { skip: !id });
  useAddToCartAfterSignIn();

  // The tab names the part, as the served page's <title> did before the app took over.
  const name = part?.name;
  useEffect(() => {
    if (name) document.title = `${name} - MotoParts`;
  }, [name]);

  if (isLoading) return <p className="page-loading">Loading...</p>;
  if (isError || !part) return <PartLoadProblem error={error} retry={() => void refetch()} />;

  return (
    <div className="page">
      <article className="purchase part-page" aria-labelledby="part-heading">
        <div className="purchase-product">
          <PartImage part={part} width={560} height={373} eager />
        </div>
        <div className="purchase-product">
          <p className="part-tags">
            <span className="part-category">{CATEGORY_LABELS[part.category]}</span>
            <StockBadge part={part} />
          </p>
          <h1 id="part-heading">{part.name}</h1>
          <p>{part.text}</p>
          <p className="part-price">
            {formatPrice(part.price)} <span>per piece</span>
          </p>
          <PartFacts part={part} />
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
          <div className="hero-actions">
            <PurchaseLink part={part} />
            <AddToCartButton
              request={{ partId: part._id, name: part.name, qty: part.qty, atLeast: true }}
              disabled={!isInStock(part)}
            />
          </div>
        </div>
      </article>
    </div>
  );
}
