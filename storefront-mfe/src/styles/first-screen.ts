import { hasStyles, injectStyles } from '@motoparts/state/frame';

/** The id of the first screens' stylesheet; the prerendered fragments in the shell's index.html link it. */
export const FIRST_SCREEN_STYLES_ID = 'storefront-first-screen-styles';

/**
 * The first screens' rules (first-screen.css). A cold load of the site already has them: the
 * shell's index.html links them with the prerendered fragments, so the home page's own code does
 * not carry them. Anywhere else (no prerendered fragment: a server without the include, the
 * standalone page) they are fetched, as a chunk of their own, and this resolves once they apply.
 */
export function firstScreenStyles(): Promise<void> | null {
  if (typeof document === 'undefined' || hasStyles(FIRST_SCREEN_STYLES_ID)) return null;
  return import('./first-screen.css').then(({ default: css }) => injectStyles(FIRST_SCREEN_STYLES_ID, css));
}
