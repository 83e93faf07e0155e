import { injectStyles } from '@motoparts/state';
import heroCss from './hero.css';
import css from './storefront.css';

/** The id of the hero's style element; the prerendered first screen brings it already. */
export const HERO_STYLES_ID = 'storefront-hero-styles';

/** Injects the storefront's styles once; each page module calls it when it loads. */
export function ensureStorefrontStyles(): void {
  injectStyles(HERO_STYLES_ID, heroCss);
  injectStyles('storefront-styles', css);
}
