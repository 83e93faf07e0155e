import { injectStyles } from '@motoparts/state';
import css from './auth.css';

/** Injects the auth remote's styles once, whichever of its surfaces loads first. */
export function ensureAuthStyles(): void {
  injectStyles('auth-styles', css);
}
