/**
 * docs/product.md: Loading... while busy, the provider's message in red under the form, and what
 * an action that keeps the visitor here (the password reset mail) has done.
 */
export function AuthStatus({
  busy,
  error,
  notice = null,
}: {
  busy: boolean;
  error: string | null;
  notice?: string | null;
}) {
  return (
    <>
      {busy && (
        <p className="auth-busy" role="status">
          Loading...
        </p>
      )}
      {notice && (
        <p className="auth-notice" role="status" data-testid="auth-notice">
          {notice}
        </p>
      )}
      {error && (
        <p className="form-error" role="alert" data-testid="auth-error">
          {error}
        </p>
      )}
    </>
  );
}
