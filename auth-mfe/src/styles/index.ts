import { injectStyles } from '@motoparts/state';
import css from './auth.css';

/**
 * The id of the auth remote's stylesheet: injected under it, or linked under it by the shell's
 * inline script where a prerendered sign-in page shows (src/app/prerender.tsx).
 */
export const AUTH_STYLES_ID = 'auth-styles';

/** Injects the auth remote's styles once, whichever of its surfaces loads first. */
export function ensureAuthStyles(): void {
  injectStyles(AUTH_STYLES_ID, css);
}
