import { Link } from 'react-router-dom';
import { useGetPartsQuery } from '@motoparts/state';
import type { Part } from '@motoparts/contracts';

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

function PartCard({ part }: { part: Part }) {
  return (
    <article className="part-card card" data-testid="part-card">
      <img src={part.img} alt={part.name} width={320} height={200} loading="lazy" />
      <h3>{part.name}</h3>
      <p>{part.text}</p>
      <p className="part-price">{usd.format(part.price)} / piece</p>
      <p>Minimum order: {part.qty}</p>
      <p>Available: {part.availableQty}</p>
      <Link className="btn" to={`/purchase/${part._id}`}>
        Purchase
      </Link>
    </article>
  );
}

export function PartsGrid() {
  const { data, isLoading, isError, refetch } = useGetPartsQuery();
  if (isLoading) return <p>Loading...</p>;
  if (isError || !data) {
    return (
      <p role="alert">
        The parts could not be loaded.{' '}
        <button type="button" className="btn btn-outline" onClick={() => void refetch()}>
          Retry
        </button>
      </p>
    );
  }
  return (
    <div className="parts-grid">
      {data.parts.map((part) => (
        <PartCard key={part._id} part={part} />
      ))}
    </div>
  );
}
