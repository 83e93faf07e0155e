import { Link } from 'react-router-dom';
import { errorMessage, errorStatus } from '@motoparts/state';

/**
 * What a page about one part shows when the part cannot be shown: "not found" for an id no part
 * has (or one the API refuses as malformed), else the reason with Retry. Both lead back to the
 * catalogue.
 */
export function PartLoadProblem({ error, retry }: { error: unknown; retry: () => void }) {
  const status = errorStatus(error);
  const missing = status === 404 || status === 400;
  return (
    <div className="page">
      <div className="card" role="alert">
        <h1>{missing ? 'Part not found' : 'This part could not be loaded'}</h1>
        <p>
          {missing
            ? 'This part does not exist or is no longer sold.'
            : errorMessage(error, 'Please check your connection and try again.')}
        </p>
        <div className="hero-actions">
          {!missing && (
            <button type="button" className="btn btn-outline" onClick={retry}>
              Retry
            </button>
          )}
          <Link className="btn" to="/parts">
            Back to all parts
          </Link>
        </div>
      </div>
    </div>
  );
}
