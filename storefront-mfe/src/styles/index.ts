import { injectStyles } from '@motoparts/state/frame';
import { FIRST_SCREEN_STYLES_ID } from './first-screen';
import firstScreenCss from './first-screen.css';
import { ensurePageStyles } from './pages';

export { FIRST_SCREEN_STYLES_ID };

/** Injects the storefront's styles once; each page module calls it when it loads. */
export function ensureStorefrontStyles(): void {
  injectStyles(FIRST_SCREEN_STYLES_ID, firstScreenCss);
  ensurePageStyles();
}
