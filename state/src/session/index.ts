/**
 * Who is signed in: one owner for the session, shared by the shell and every remote.
 *
 * The state, its selectors, the stored copy and the contract with the auth remote live here, in
 * the shared kit, rather than in the auth remote's bundle: the shell paints the signed-in top bar
 * and guards routes from its first render, from the stored session, while the auth remote is
 * still loading or down. Loading it first would put Firebase on every first paint and turn an
 * auth outage into a site outage. The effects that need Firebase (sign-in, token exchange,
 * renewal, sign-out) stay in the auth remote, behind `SessionModule`, loaded only when needed.
 *
 * Everyone else reads selectors and dispatches requests (`signOutRequested`); the listeners
 * (added by `makeStore`) keep localStorage in step and carry the requests out.
 */
export {
  profileRenamed,
  requestVerificationMail,
  restoreRequested,
  signedIn,
  signedOut,
  signOutRequested,
} from './slice';
export type { LoadSessionModule, SessionHost, SessionModule } from './contract';
