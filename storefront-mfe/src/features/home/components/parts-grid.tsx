import { useGetPartsQuery } from '@motoparts/state';
import { PartCard } from '../../../components/part-card';
import { PartsSkeleton } from './parts-section';

export function PartsGrid({ limit }: { limit?: number }) {
  const { data, isLoading, isError, refetch } = useGetPartsQuery(limit ? { limit } : undefined);
  if (isLoading) return <PartsSkeleton />;
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
