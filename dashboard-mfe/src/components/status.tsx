import { errorMessage } from '@motoparts/state';

/** One loading line for every dashboard screen (docs/product.md's "Loading..."). */
export function Loading({ what }: { what?: string }) {
  return (
    <p className="dash-status" role="status">
      {what ? `Loading ${what}...` : 'Loading...'}
    </p>
  );
}

/** A failed read: the API's message when it sent one, and a way to try again. */
export function LoadError({ error, what, onRetry }: { error: unknown; what: string; onRetry?: () => void }) {
  return (
    <div className="dash-alert" role="alert">
      <p>
        Could not load {what}. {errorMessage(error)}
      </p>
      {onRetry && (
        <button type="button" className="btn btn-outline" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}
