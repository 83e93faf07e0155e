import { lazy, Suspense, useEffect, useRef, useState, type ComponentType } from 'react';
import { Link, NavLink, useNavigate } from 'react-router-dom';
import { toast } from 'react-toastify';
import { requireStore, useSession } from '@motoparts/state/frame';

const DEFAULT_AVATAR = '/images/avatar-default.svg';

function AvatarMenu({ name, photo }: { name: string; photo: string | null }) {
  const [open, setOpen] = useState(false);
  const [imgSrc, setImgSrc] = useState(photo || DEFAULT_AVATAR);
  const ref = useRef<HTMLDivElement>(null);
  const navigate = useNavigate();

  useEffect(() => setImgSrc(photo || DEFAULT_AVATAR), [photo]);
  useEffect(() => {
    if (!open) return;
    const close = (e: MouseEvent | KeyboardEvent) => {
      if (e instanceof KeyboardEvent ? e.key === 'Escape' : !ref.current?.contains(e.target as Node)) {
        setOpen(false);
      }
    };
    document.addEventListener('mousedown', close);
    document.addEventListener('keydown', close);
    return () => {
      document.removeEventListener('mousedown', close);
      document.removeEventListener('keydown', close);
    };
  }, [open]);

  const signOut = () => {
    setOpen(false);
    // The session listeners have the auth remote end the API and Firebase sessions (or, with
    // the auth remote down, end ours alone); the top bar changes once that is done.
    // On the home page the store may still be loading: the request waits for it.
    Promise.all([import('../app/store'), requireStore()]).then(
      ([{ requestSignOut }, store]) => requestSignOut(store),
      (err: unknown) => {
        console.error('[session] sign-out could not start:', err);
        toast.error('You are still signed in: the page could not load what signs you out. Please try again.');
      },
    );
    navigate('/');
  };

  return (
    <div className="avatar-menu" ref={ref}>
      <button
        type="button"
        className="avatar-button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-label={`Account menu for ${name}`}
        onClick={() => setOpen((o) => !o)}
      >
        <img src={imgSrc} alt="" width={36} height={36} onError={() => setImgSrc(DEFAULT_AVATAR)} />
      </button>
      {open && (
        <div className="avatar-dropdown" role="menu">
          <p className="avatar-name">{name}</p>
          <Link role="menuitem" to="/dashboard" onClick={() => setOpen(false)}>
            Update profile
          </Link>
          <button role="menuitem" type="button" onClick={signOut}>
            Sign Out
          </button>
        </div>
      )}
    </div>
  );
}

/**
 * A customer's cart link, in a chunk of its own, loaded once the page is idle: no first screen
 * shows it, and on the home page the store comes then too. If its code does not arrive, its box
 * stays empty and the rest of the bar works on.
 */
const CartLink = lazy<ComponentType<{ onClick: () => void }>>(() =>
  new Promise((idle) => (self.requestIdleCallback ?? setTimeout)(idle))
    .then(() => Promise.all([import('./cart-link'), requireStore()]))
    .then(
      ([link]) => link,
      () => ({ default: () => null }),
    ),
);

export function TopBar() {
  const auth = useSession();
  const [menuOpen, setMenuOpen] = useState(false);
  const close = () => setMenuOpen(false);
  const signedIn = auth.status === 'signedIn' && auth.user;

  return (
    <header className="top-bar">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <nav className="top-bar-inner" aria-label="Main">
        <Link to="/" className="brand" onClick={close}>
          <img src="/images/logo.svg" alt="" width={32} height={32} />
          <span>MotoParts</span>
        </Link>
        <button
          type="button"
          className="menu-toggle"
          aria-expanded={menuOpen}
          aria-controls="main-menu"
          onClick={() => setMenuOpen((o) => !o)}
        >
          Menu
        </button>
        <ul id="main-menu" className={menuOpen ? 'nav-links open' : 'nav-links'}>
          <li>
            <NavLink to="/" end onClick={close}>
              Home
            </NavLink>
          </li>
          <li>
            <NavLink to="/blogs" onClick={close}>
              Blogs
            </NavLink>
          </li>
          <li>
            <NavLink to="/reviews" onClick={close}>
              Reviews
            </NavLink>
          </li>
          <li>
            <NavLink to="/myPortfolio" onClick={close}>
              My Portfolio
            </NavLink>
          </li>
          {signedIn ? (
            <li>
              <NavLink to="/dashboard" onClick={close}>
                Dashboard
              </NavLink>
            </li>
          ) : (
            <li>
              <NavLink to="/login" onClick={close}>
                Login
              </NavLink>
            </li>
          )}
        </ul>
        {signedIn && !auth.admin && (
          // Its box is there from the first render, so nothing in the bar moves when it arrives.
          <div className="cart-slot">
            <Suspense>
              <CartLink onClick={close} />
            </Suspense>
          </div>
        )}
        {signedIn && auth.user && (
          <AvatarMenu name={auth.user.displayName || auth.user.email} photo={auth.user.photoURL} />
        )}
      </nav>
    </header>
  );
}
