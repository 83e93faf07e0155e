import { injectStyles } from '@motoparts/state/frame';
import css from './storefront.css';

/**
 * Injects the pages' own rules once, without the first screens' (first-screen.css). Alone, for
 * the home page's lower sections: the home page renders them only once it has the first screens'
 * rules (firstScreenStyles, linked by the prerendered fragment on a cold load), so their chunk
 * does not carry that stylesheet a second time.
 */
export function ensurePageStyles(): void {
  injectStyles('storefront-styles', css);
}
