import { useEffect, useState } from 'react';
import { NotFound } from '../components/not-found';
import { pagesPublished, refreshPages } from './page-table';
import { pageTitle } from './routes';

/**
 * A path no table the shell knows routes: before saying Not Found, ask the remotes for the tables
 * they publish now, which may hold a page released after this shell was built. Its own chunk, as
 * no cold load of a known page needs it.
 */
export default function Unrouted() {
  const [asked, setAsked] = useState(pagesPublished);
  useEffect(() => {
    if (!asked) void refreshPages().finally(() => setAsked(true));
  }, [asked]);
  useEffect(() => {
    if (asked) document.title = pageTitle('Not Found');
  }, [asked]);
  return asked ? <NotFound /> : <p className="page-loading">Loading...</p>;
}
