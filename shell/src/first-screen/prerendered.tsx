import type { MouseEvent } from 'react';
import { useNavigate } from 'react-router-dom';

/** The wrapper of index.html's static first screen (see first-screen.tsx). */
export const FIRST_SCREEN_CLASS = 'first-screen';
/**
 * Where the shell's server finds the storefront's prerendered hero: a path on the shell's own
 * origin that the server maps to the storefront (serve-static.mjs --include, nginx location).
 */
export const HOME_FRAGMENT_URL = '/_fragments/storefront/prerender/home.html';

let captured: { module: string; html: string } | null = null;

/**
 * Keeps the server-rendered stand-in for a remote page (an element with
 * `data-prerendered="<remote>/<module>"` inside index.html's <main>) before React replaces the
 * static markup, and moves its styles (inline or linked) to <head> so they outlive it (the remote's own style
 * injection then finds them there and does not add them twice).
 */
export function capturePrerendered(doc: Document = document): void {
  const el = doc.querySelector<HTMLElement>(`.${FIRST_SCREEN_CLASS} [data-prerendered]`);
  const module = el?.dataset['prerendered'];
  if (!el || !module) return;
  for (const style of el.parentElement?.querySelectorAll('style, link[rel="stylesheet"]') ?? []) {
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
  captured = { module, html: el.outerHTML };
}

/** The captured stand-in for `<remote>/<module>`, if the server sent one. */
export function prerenderedHtml(module: string): string | null {
  return captured?.module === module ? captured.html : null;
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
