/**
 * Reading a failed call, the same way in every remote. RTK Query rejects with
 * `{ status, data }`; the API's error body is `{ error: { code, message, details? } }`.
 */
interface ApiErrorBody {
  error?: { code?: unknown; message?: unknown; details?: unknown };
}

function body(error: unknown): ApiErrorBody | undefined {
  if (!error || typeof error !== 'object' || !('data' in error)) return undefined;
  const data = (error as { data?: unknown }).data;
  return data && typeof data === 'object' ? (data as ApiErrorBody) : undefined;
}

/** The HTTP status of a failed call; undefined for a network failure or a thrown Error. */
export function errorStatus(error: unknown): number | undefined {
  if (error && typeof error === 'object' && 'status' in error) {
    const status = (error as { status: unknown }).status;
    if (typeof status === 'number') return status;
  }
  return undefined;
}

/** Message to show for a failed call: the API's own message when it sent one. */
export function errorMessage(error: unknown, fallback = 'Something went wrong. Please try again.'): string {
  const message = body(error)?.error?.message;
  return typeof message === 'string' ? message : fallback;
}

/** The `details` object of the API's error body (e.g. a limit that was reached), if any. */
export function errorDetails(error: unknown): Record<string, unknown> | undefined {
  const details = body(error)?.error?.details;
  return details && typeof details === 'object' ? (details as Record<string, unknown>) : undefined;
}
