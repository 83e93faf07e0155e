import { injectStyles } from '@motoparts/state/frame';
import { HERO_STYLES_ID } from './first-screen';
import heroCss from './hero.css';
import css from './storefront.css';

export { HERO_STYLES_ID };

/** Injects the storefront's styles once; each page module calls it when it loads. */
export function ensureStorefrontStyles(): void {
  injectStyles(HERO_STYLES_ID, heroCss);
  injectStyles('storefront-styles', css);
}
