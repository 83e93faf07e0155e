import { lazy, Suspense, useEffect, useRef, useState, type ComponentType, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { loadRemoteModule, RemoteBoundary, selectAuth, useAppSelector } from '@motoparts/state';

/** The auth remote's card, fetched (with Firebase) only when it is about to be seen. */
function loadLoginCard() {
  return lazy(async () => {
    const mod = await loadRemoteModule<{ default: ComponentType }>('auth', 'LoginCard');
    return { default: mod.default };
  });
}

function Fallback({ children }: { children: ReactNode }) {
  return (
    <div className="card login-slot-fallback">
      <h3>Login</h3>
      {children}
    </div>
  );
}

/** The card failed to load or to render: say so, and offer a retry and the full login page. */
function CardUnavailable({ retry }: { retry: () => void }) {
  return (
    <Fallback>
      <p role="alert">Sign-in is unavailable right now. The rest of the site still works.</p>
      <div className="hero-actions">
        <button type="button" className="btn btn-outline" onClick={retry}>
          Retry
        </button>
        <Link className="btn" to="/login">
          Go to the login page
        </Link>
      </div>
    </Fallback>
  );
}

/** Rendered in the home page's lower half; shows nothing extra to a signed-in visitor. */
export function LoginCardSlot() {
  const auth = useAppSelector(selectAuth);
  const ref = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(false);
  const [Card, setCard] = useState<ReturnType<typeof loadLoginCard> | null>(null);

  useEffect(() => {
    const el = ref.current;
    if (!el || near) return;
    if (typeof IntersectionObserver === 'undefined') {
      setNear(true);
      return;
    }
    // Start loading a screen before the card scrolls into view, so it is ready when seen.
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) setNear(true);
      },
      { rootMargin: '400px 0px' },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [near]);

  useEffect(() => {
    if (near && !Card) setCard(() => loadLoginCard());
  }, [near, Card]);

  if (auth.status === 'signedIn') {
    return (
      <div className="login-slot">
        <Fallback>
          <p>
            You are signed in as <strong>{auth.user?.displayName || auth.user?.email}</strong>.
          </p>
          <Link className="btn" to="/dashboard">
            Go to your dashboard
          </Link>
        </Fallback>
      </div>
    );
  }

  return (
    <div className="login-slot" ref={ref} data-testid="login-slot">
      {Card ? (
        <RemoteBoundary
          name="auth/LoginCard"
          fallback={(retry) => <CardUnavailable retry={retry} />}
          onRetry={() => setCard(() => loadLoginCard())}
        >
          <Suspense
            fallback={
              <Fallback>
                <p>Loading...</p>
              </Fallback>
            }
          >
            <Card />
          </Suspense>
        </RemoteBoundary>
      ) : (
        <Fallback>
          <p>Sign in to order parts in bulk.</p>
        </Fallback>
      )}
    </div>
  );
}
