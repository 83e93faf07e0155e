import { pageAt } from './page-table';
import type { PageRoute } from './routes';

/**
 * How long the mouse rests on a link before it counts as the visitor's intent to follow it: long
 * enough that a sweep across a grid of cards asks for nothing, short against the 100–300 ms
 * between resting on a link and clicking it.
 */
const HOVER_INTENT_MS = 80;

/**
 * Calls `prefetch` with a link's page (one of the site's, opening in this tab) as soon as the
 * visitor shows they are about to follow it: the mouse resting on the link, a finger or button
 * going down on it, or keyboard focus. The page's code and data then load during the last moments
 * before the click instead of after it. One listener per kind on the document, so it covers every
 * remote's links (each team renders its own with react-router's Link) without any of them
 * knowing. The pointer entering any other element (`pointerover` fires for each) ends a rest that
 * had not lasted long enough. Written small: it is part of the first load's JavaScript budget.
 */
export function prefetchOnIntent(prefetch: (page: PageRoute, pathname: string) => void): void {
  let resting: Element | null | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const follow = (link: Element | null | undefined) => {
    if (!(link instanceof HTMLAnchorElement) || link.origin !== location.origin || link.target) return;
    const page = pageAt(link.pathname);
    if (page) prefetch(page, link.pathname);
  };
  // The document itself has no `closest` (focus coming back to the window).
  const linkOf = (event: Event) => (event.target as Element).closest?.('a[href]');
  document.addEventListener('pointerover', (event) => {
    const link = linkOf(event);
    if (link === resting) return;
    clearTimeout(timer);
    resting = link;
    // A touch comes here too, just before its pointerdown: the second ask finds the first's.
    if (link) timer = setTimeout(follow, HOVER_INTENT_MS, link);
  });
  document.addEventListener('pointerdown', (event) => follow(linkOf(event)));
  document.addEventListener('focusin', (event) => follow(linkOf(event)));
}
