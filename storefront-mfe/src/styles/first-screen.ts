import { hasStyles, injectStyles } from '@motoparts/state/frame';

/** The id of the first screen's stylesheet; the prerendered hero in the shell's index.html links it. */
export const HERO_STYLES_ID = 'storefront-hero-styles';

/**
 * The home page's first screen rules (hero.css). A cold load of the site already has them: the
 * shell's index.html links them with the prerendered hero, so the home page's own code does not
 * carry them. Anywhere else (no prerendered hero: a server without the include, the standalone
 * page) they are fetched, as a chunk of their own, and this resolves once they apply.
 */
export function firstScreenStyles(): Promise<void> | null {
  if (typeof document === 'undefined' || hasStyles(HERO_STYLES_ID)) return null;
  return import('./hero.css').then(({ default: css }) => injectStyles(HERO_STYLES_ID, css));
}
