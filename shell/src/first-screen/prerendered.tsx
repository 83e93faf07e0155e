import type { MouseEvent } from 'react';
import { useNavigate } from 'react-router-dom';

/** The wrapper of index.html's static first screen (see first-screen.tsx). */
export const FIRST_SCREEN_CLASS = 'first-screen';
/**
 * Where the shell's server finds the remotes' prerendered first screens, in this order: the
 * storefront's home hero, top of the purchase page's part column and pages that need no data
 * (the Q&A page, the portfolio, the tops of the reviews page and the catalogue), the dashboard's
 * frame with the top of My Profile, and the sign-in pages. Paths on the
 * shell's own origin that the server maps to each remote (serve-static.mjs --include, nginx
 * locations).
 */
export const FRAGMENT_URLS = [
  '/_fragments/storefront/prerender/home.html',
  '/_fragments/storefront/prerender/purchase.html',
  '/_fragments/storefront/prerender/pages.html',
  '/_fragments/dashboard/prerender/dashboard.html',
  '/_fragments/auth/prerender/auth.html',
];

/** A stand-in kept for its page; `path` when it holds the data of that URL only. */
const captured: { module: string; html: string; path?: string }[] = [];

/**
 * Keeps the server-rendered stand-ins for remote pages (elements with
 * `data-prerendered="<remote>/<module>"` inside index.html's <main>) before React replaces the
 * static markup: the static ones (the home page's hero, shown again whenever that page's code is
 * still loading), and one that the inline script filled with its route's data (`data-needs`, then
 * `data-filled`; first-screen.tsx), for that URL only. Stand-ins not filled by now are dropped,
 * so an answer arriving later fills nothing. The styles the fragments bring (inline or linked)
 * move to <head> so they outlive them (the remote's own style injection then finds them there
 * and does not add them twice): those of a filled stand-in were linked by the inline script, so a
 * stand-in not shown leaves its remote to inject its rules when it needs them.
 */
export function capturePrerendered(doc: Document = document): void {
  const main = doc.querySelector(`.${FIRST_SCREEN_CLASS} main`);
  for (const el of main?.querySelectorAll<HTMLElement>('[data-prerendered]') ?? []) {
    const path = el.hasAttribute('data-needs') ? location.pathname : undefined;
    if (path && !el.hasAttribute('data-filled')) el.remove();
    else captured.push({ module: el.dataset['prerendered'] ?? '', html: el.outerHTML, path });
  }
  for (const style of main?.querySelectorAll('style, link[rel="stylesheet"]') ?? []) {
    if (style instanceof HTMLLinkElement && style.sheet && 'adoptedStyleSheets' in doc) {
      // Moving a <link> drops its sheet until it has loaded again, a frame in which the page
      // would reflow: keep the same rules applied meanwhile as a constructed sheet (allowed by
      // the Content-Security-Policy, unlike a <style> copy).
      const copy = new CSSStyleSheet();
      copy.replaceSync([...style.sheet.cssRules].map((rule) => rule.cssText).join('\n'));
      doc.adoptedStyleSheets = [...doc.adoptedStyleSheets, copy];
    }
    doc.head.appendChild(style);
  }
}

/** The captured stand-in for `<remote>/<module>` on the page being shown, if the server sent one. */
export function prerenderedHtml(module: string): string | null {
  return captured.find((c) => c.module === module && (!c.path || c.path === location.pathname))?.html ?? null;
}

/**
 * Shows the prerendered markup while the remote's real page loads. It is the same markup the
 * page renders first, so the swap neither moves nor repaints anything larger (CLS 0, and the
 * largest paint stays the one from the HTML). Links in it navigate in-app.
 */
export function PrerenderedView({ html }: { html: string }) {
  const navigate = useNavigate();
  const onClick = (e: MouseEvent<HTMLDivElement>) => {
    const link = (e.target as Element).closest('a');
    const href = link?.getAttribute('href');
    if (!href?.startsWith('/') || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(href);
  };
  return <div style={{ display: 'contents' }} onClick={onClick} dangerouslySetInnerHTML={{ __html: html }} />;
}
