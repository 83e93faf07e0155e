import { earlyFill } from './first-screen/early-fill';

/**
 * Resolves once the browser has painted what the document holds now: one frame, or 50 ms where
 * frames are paused (a tab opened in the background).
 */
const nextPaint = () =>
  new Promise<void>((resolve) => {
    requestAnimationFrame(() => setTimeout(resolve, 0));
    setTimeout(resolve, 50);
  });

// Async boundary: lets Module Federation negotiate the shared singletons before React loads.
// It first lets the browser paint index.html's static first screen (the top bar and the home
// hero): otherwise the app's chunks arrive first on a fast network and the largest paint waits
// for them to compile. Where the inline script is filling a stand-in with the route's data (the
// purchase page's part), after that filling, and after the paint that shows it: its answer is
// handled only between the app's tasks, and evaluating the app's next chunk straight after it
// held that paint back by 100–200 ms at 4× CPU. earlyFill() settles within EARLY_FILL_WAIT_MS,
// filled or not, and never rejects (first-screen.tsx).
Promise.all([nextPaint(), earlyFill()])
  .then(([, filled]) => (filled === undefined ? undefined : nextPaint()))
  .then(() => import('./app/bootstrap'))
  .catch((err: unknown) => console.error(err));
