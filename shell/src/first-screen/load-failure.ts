/**
 * The name under which index.html's inline script (first-screen.tsx) leaves its reporter of
 * remotes that failed to load, `(remote, error) => void`: it knows the versions the page runs and
 * the API's address from the included config, and the home page's JavaScript budget has no room
 * for a reporter in the app's bundles (hence the short name too). Absent where the server did not
 * include the config. No imports: read by the remotes' registry.
 */
export const LOAD_FAILURE_KEY = '__mpFail';

export type LoadFailureReporter = (remote: string, error: unknown) => void;
