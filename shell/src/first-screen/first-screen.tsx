import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { EARLY_CONFIG_KEY, SESSION_USER_KEY } from '@motoparts/state/frame';
import { PAGES } from '../app/routes';
import { TopBar } from '../components/top-bar';
import shellCss from '../styles/shell.css';
import { FIRST_SCREEN_CLASS, HOME_FRAGMENT_URL } from './prerendered';

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** A react-router path as a regular expression over `location.pathname` (`:id` one segment, `*` the rest). */
function routePattern(path: string): string {
  const segments = path.split('/').filter(Boolean);
  const rest = segments.at(-1) === '*';
  const fixed = (rest ? segments.slice(0, -1) : segments).map((s) =>
    s.startsWith(':') ? '[^\\/]+' : escapeRegExp(s),
  );
  return `^${fixed.map((s) => `\\/${s}`).join('')}${rest ? '(?:\\/.*)?' : ''}\\/?$`;
}

/**
 * Build time (Node, scripts/webpack/prerender.cjs): what index.html paints before any script runs, so
 * the home page's largest paint does not wait for JavaScript. The shell's styles are inline,
 * the top bar is rendered as a signed-out visitor sees it, and `<main>` holds a server-side
 * include of the storefront's prerendered hero (its dist/prerender/home.html), so the
 * storefront team still ships its hero alone. The
 * include is resolved by the server in front of the shell (scripts/serve-static.mjs locally,
 * nginx's ssi in deploy/); a server that does not resolve it leaves a comment and the page
 * simply paints later.
 *
 * Two attributes on <html>, set by a tiny inline script before the body parses, tailor the
 * static markup: the hero shows only on the routes that render the home page, and a returning
 * user's top bar does not flash "Login". React replaces all of it on its first render.
 */
export default function firstScreen(): { head: string; root: string } {
  const homePaths = PAGES.filter((p) => p.remote === 'storefront' && p.module === 'HomePage').map((p) =>
    escapeRegExp(p.path.replace(/\/$/, '')),
  );
  const homeRoute = `^(?:${homePaths.join('|')})\\/?$`;
  // Each route's remote, so the page can fetch /config.json and that remote's entry while the
  // shell's own bundles still load and compile (the shell asks for them only after running
  // them). Not on the home routes: their largest paint is the prerendered hero, and work around
  // that first paint only delays it (measured in bench/web).
  const remoteRoutes = PAGES.filter((p) => !(p.remote === 'storefront' && p.module === 'HomePage'))
    .map((p) => `[/${routePattern(p.path)}/,${JSON.stringify(p.remote)}]`)
    .join(',');
  const flags =
    `(function(h){h.toggleAttribute('data-home-route',/${homeRoute}/.test(location.pathname));` +
    `try{if(localStorage.getItem(${JSON.stringify(SESSION_USER_KEY)}))h.setAttribute('data-session','')}` +
    `catch(e){}` +
    `try{var m=[${remoteRoutes}].filter(function(r){return r[0].test(location.pathname)})[0];` +
    `if(m){var c=window.${EARLY_CONFIG_KEY}=fetch('/config.json',{cache:'no-cache'}).then(function(r){` +
    `if(!r.ok)throw new Error('HTTP '+r.status);return r.json()});` +
    `c.then(function(cfg){` +
    `if(!cfg.remotes||!cfg.remotes[m[1]])return;var l=document.createElement('link');l.rel='preload';` +
    `l.as='script';l.href=new URL('remoteEntry.js',cfg.remotes[m[1]].replace(/\\/?$/,'/')).href;` +
    `document.head.appendChild(l)}).catch(function(){})}}catch(e){}})(document.documentElement)`;
  const firstScreenCss =
    `.${FIRST_SCREEN_CLASS}{display:contents}` +
    `html:not([data-home-route]) .${FIRST_SCREEN_CLASS} [data-prerendered]{display:none}` +
    `html[data-session] .${FIRST_SCREEN_CLASS} a[href="/login"]{visibility:hidden}`;

  const topBar = renderToStaticMarkup(
    <MemoryRouter>
      <TopBar />
    </MemoryRouter>,
  );
  return {
    head: `<style id="shell-styles">${shellCss}${firstScreenCss}</style><script>${flags}</script>`,
    root:
      `<div class="${FIRST_SCREEN_CLASS}">${topBar}<main id="main" class="site-main">` +
      `<!--# config errmsg="" --><!--# include virtual="${HOME_FRAGMENT_URL}" --></main></div>`,
  };
}
