/** docs/product.md: Loading... while busy, and the provider's message in red under the form. */
export function AuthStatus({ busy, error }: { busy: boolean; error: string | null }) {
  return (
    <>
      {busy && (
        <p className="auth-busy" role="status">
          Loading...
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
