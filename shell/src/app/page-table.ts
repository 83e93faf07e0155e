import { useSyncExternalStore } from 'react';
import { matchPath } from 'react-router-dom';
import { PAGES, type PageRoute } from './routes';

/**
 * The site's pages as the router sees them. It starts with the route tables the shell was built
 * with (PAGES: what the first screen, the inline preload and a cold load rely on) and, once a
 * path matches none of them, asks every configured remote for the table it publishes at runtime
 * (its exposed `routes` module, published-pages.ts): a team's new page is then routed by a shell
 * that never heard of it. Each remote's published table replaces what the build knew of that
 * remote; a remote whose table does not load keeps the build's.
 */
let pages: PageRoute[] = PAGES;
let published: Promise<PageRoute[]> | undefined;
let answered = false;
const listeners = new Set<() => void>();

/** Asks the remotes for their published tables (once per page load) and routes by them. */
export function refreshPages(): Promise<PageRoute[]> {
  published ??= import('./published-pages').then(async ({ publishedPages }) => {
    pages = await publishedPages();
    answered = true;
    listeners.forEach((listener) => listener());
    return pages;
  });
  return published;
}

/** The page at `pathname` among those known so far. */
export const pageAt = (pathname: string): PageRoute | undefined =>
  pages.find((page) => matchPath(page.path, pathname));

/** Whether the published tables have been asked for and have answered. */
export const pagesPublished = () => answered;

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** The current pages, re-rendering when the published tables arrive. */
export const usePages = (): PageRoute[] => useSyncExternalStore(subscribe, () => pages);
