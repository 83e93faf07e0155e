import { injectStyles } from '@motoparts/state';
import css from './storefront.css';

/** Injects the storefront's styles once; each page module calls it when it loads. */
export function ensureStorefrontStyles(): void {
  injectStyles('storefront-styles', css);
}
