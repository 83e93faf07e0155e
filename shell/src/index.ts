// Async boundary: lets Module Federation negotiate the shared singletons before React loads.
// It first lets the browser paint index.html's static first screen (the top bar and the home
// hero): otherwise the app's chunks arrive first on a fast network and the largest paint waits
// for them to compile. One frame, or 50 ms where frames are paused (a tab opened in the background).
new Promise<void>((resolve) => {
  requestAnimationFrame(() => setTimeout(resolve, 0));
  setTimeout(resolve, 50);
})
  .then(() => import('./app/bootstrap'))
  .catch((err: unknown) => console.error(err));
