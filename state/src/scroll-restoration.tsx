import { useEffect, useLayoutEffect, useRef } from 'react';
import { useLocation, useNavigationType } from 'react-router-dom';

/**
 * React Router's <ScrollRestoration> needs its data router, which the shared router build leaves
 * out (it is most of react-router's size: scripts/webpack/slim/react-router.mjs), so this is the same
 * behaviour for <BrowserRouter>:
 * - a click to another page (push or replace to a new path) opens it at its top, or at its
 *   `#hash` target (below the sticky top bar, through `scroll-padding-top` in the site's CSS);
 * - Back, Forward and reload return to where the reader was on that history entry, waiting for
 *   the page to grow tall enough (remotes and their data arrive after the route changes);
 * - a change of only the query string (a catalogue filter, a search being typed) leaves the
 *   scroll position alone.
 * Positions are kept per history entry (`location.key`) in sessionStorage.
 */
const STORE_KEY = 'motoparts.scroll';
/** How long a restore may wait for the page to become tall enough. */
const RESTORE_WAIT_MS = 4000;

function readPositions(): Map<string, number> {
  try {
    const raw = sessionStorage.getItem(STORE_KEY);
    return new Map(raw ? (JSON.parse(raw) as [string, number][]) : []);
  } catch {
    return new Map();
  }
}

function scrollToHash(hash: string): boolean {
  const id = decodeURIComponent(hash.slice(1));
  const target = id ? document.getElementById(id) : null;
  if (!target) return false;
  target.scrollIntoView({ block: 'start' });
  return true;
}

/**
 * Retries `attempt` whenever the page changes size until it succeeds, the reader scrolls, or time
 * runs out. Returns null when the first attempt succeeded, else a function that stops waiting.
 */
function retryUntil(attempt: () => boolean, onDone: () => void): (() => void) | null {
  if (attempt()) return null;
  let finished = false;
  const observer = new ResizeObserver(() => {
    if (attempt()) stop();
  });
  const stop = () => {
    if (finished) return;
    finished = true;
    observer.disconnect();
    clearTimeout(timer);
    for (const type of ['wheel', 'touchstart', 'keydown', 'mousedown'] as const) {
      window.removeEventListener(type, stop);
    }
    onDone();
  };
  observer.observe(document.body);
  const timer = setTimeout(stop, RESTORE_WAIT_MS);
  // The reader taking over ends the wait: never yank the page away from them.
  for (const type of ['wheel', 'touchstart', 'keydown', 'mousedown'] as const) {
    window.addEventListener(type, stop, { passive: true });
  }
  return stop;
}

export function ScrollRestoration() {
  const location = useLocation();
  const navigationType = useNavigationType();
  const positions = useRef<Map<string, number> | null>(null);
  const currentKey = useRef(location.key);
  const previousPath = useRef<string | null>(null);
  const cancelRestore = useRef<(() => void) | null>(null);

  useEffect(() => {
    positions.current ??= readPositions();
    const previous = history.scrollRestoration;
    history.scrollRestoration = 'manual';
    const onScroll = () => {
      // While a restore is pending, scroll events come from the page growing, not the reader.
      if (!cancelRestore.current) positions.current?.set(currentKey.current, window.scrollY);
    };
    const persist = () => {
      const entries = [...(positions.current ?? new Map<string, number>())].slice(-200);
      try {
        sessionStorage.setItem(STORE_KEY, JSON.stringify(entries));
      } catch {
        // Storage full or disabled: positions still work within this page load.
      }
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    window.addEventListener('pagehide', persist);
    return () => {
      window.removeEventListener('scroll', onScroll);
      window.removeEventListener('pagehide', persist);
      history.scrollRestoration = previous;
    };
  }, []);

  useLayoutEffect(() => {
    positions.current ??= readPositions();
    cancelRestore.current?.();
    currentKey.current = location.key;
    const samePath = previousPath.current === location.pathname;
    previousPath.current = location.pathname;
    const done = () => {
      cancelRestore.current = null;
    };

    const saved = positions.current.get(location.key);
    if (navigationType === 'POP' && saved !== undefined) {
      cancelRestore.current = retryUntil(() => {
        window.scrollTo(0, saved);
        return Math.abs(window.scrollY - saved) < 2;
      }, done);
    } else if (location.hash) {
      cancelRestore.current = retryUntil(() => scrollToHash(location.hash), done);
    } else if (!samePath) {
      window.scrollTo(0, 0);
    }
  }, [location.key, location.pathname, location.hash, navigationType]);

  return null;
}
