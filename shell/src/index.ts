import { earlyFill } from './first-screen/early-fill';

// Async boundary: lets Module Federation negotiate the shared singletons before React loads.
// It first lets the browser paint index.html's static first screen (the top bar and the home
// hero): otherwise the app's chunks arrive first on a fast network and the largest paint waits
// for them to compile. One frame, or 50 ms where frames are paused (a tab opened in the background).
const painted = new Promise<void>((resolve) => {
  requestAnimationFrame(() => setTimeout(resolve, 0));
  setTimeout(resolve, 50);
});
// Where the inline script is filling a stand-in with the route's data (the purchase page's part),
// that too: its answer is handled only between the app's tasks. The promise settles within
// EARLY_FILL_WAIT_MS, filled or not, and never rejects (first-screen.tsx).
Promise.all([painted, earlyFill()])
  .then(() => import('./app/bootstrap'))
  .catch((err: unknown) => console.error(err));
