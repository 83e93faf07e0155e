/**
 * The page frame's half of the kit (`@motoparts/state/frame`): everything here works without
 * Redux, so a first screen that imports only this half (the shell's frame, the storefront's
 * home hero) does not load Redux Toolkit. `@motoparts/state` re-exports all of it.
 */
export * from './runtime-config';
export * from './format';
export * from './styles';
export * from './remote-loader';
export * from './remote-boundary';
export * from './routes';
export * from './scroll-restoration';
export * from './store-ready';
export * from './session/state';
export { ACCESS_TOKEN_KEY, readStoredSession, readTokenClaims, SESSION_USER_KEY } from './session/storage';
