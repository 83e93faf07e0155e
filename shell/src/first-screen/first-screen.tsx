import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { CANARY_KEY, EARLY_CONFIG_KEY, SESSION_USER_KEY } from '@motoparts/state/frame';
import { PAGES } from '../app/routes';
import { TopBar } from '../components/top-bar';
import shellCss from '../styles/shell.css';
import { assignCanarySource } from './canary';
import { EARLY_FILL_KEY, EARLY_FILL_WAIT_MS } from './early-fill';
import { LOAD_FAILURE_KEY } from './load-failure';
import { FIRST_SCREEN_CLASS, FRAGMENT_URLS } from './prerendered';

/**
 * The data block the server fills with the site's /config.json (a server-side include, as for
 * the fragments; serve-static.mjs and deploy/nginx.conf both resolve it).
 */
const CONFIG_ELEMENT_ID = 'site-config';

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/**
 * A react-router path as a regular expression over `location.pathname` (`:id` one segment,
 * captured in order, `*` the rest).
 */
function routePattern(path: string): string {
  const segments = path.split('/').filter(Boolean);
  const rest = segments.at(-1) === '*';
  const fixed = (rest ? segments.slice(0, -1) : segments).map((s) =>
    s.startsWith(':') ? '([^\\/]+)' : escapeRegExp(s),
  );
  return `^${fixed.map((s) => `\\/${s}`).join('')}${rest ? '(?:\\/.*)?' : ''}\\/?$`;
}

/** Which capture group of routePattern(path) holds the parameter `name` (1-based), 0 if none. */
function paramGroup(path: string, name: string | undefined): number {
  const params = path.split('/').filter((s) => s.startsWith(':'));
  return name ? params.indexOf(`:${name}`) + 1 : 0;
}

/**
 * Build time (Node, scripts/webpack/prerender.cjs): what index.html paints before any script runs, so
 * a page's largest paint does not wait for JavaScript. The shell's styles are inline, the top bar
 * is rendered as a signed-out visitor sees it, and `<main>` holds server-side includes of the
 * remotes' prerendered stand-ins (FRAGMENT_URLS: the storefront's home hero, part columns and
 * pages or tops of pages that need no data, the dashboard's frame, the sign-in pages), so each
 * team still ships its own. The includes are resolved
 * by the server in front of the shell (scripts/serve-static.mjs locally, nginx's ssi in
 * deploy/); a server that does not resolve them leaves comments and the page simply paints later.
 *
 * A tiny inline script, run before the body parses, tailors the static markup: each stand-in
 * shows only on its own page's routes (the hero on the home page's), a returning user's top bar
 * does not flash "Login", and a stand-in that needs data shows once it is filled (below). React
 * replaces all of it on its first render.
 */
export default function firstScreen(): { head: string; root: string } {
  const homePaths = PAGES.filter((p) => p.remote === 'storefront' && p.module === 'HomePage').map((p) =>
    escapeRegExp(p.path.replace(/\/$/, '')),
  );
  const homeRoute = `^(?:${homePaths.join('|')})\\/?$`;
  // Each route's remote, so the page can preload that remote's entry (and fetch /config.json,
  // where the server did not include it) while the shell's own bundles still load and compile
  // (the shell asks for them only after running them). Not on the home routes: their largest
  // paint is the prerendered hero, and work around that first paint only delays it (measured in
  // bench/web). A route that declares a part (RemoteRoute.prefetch) also names which capture
  // group holds the part's id, whether the page needs a signed-in visitor (1) or not (0), and
  // whether it shows the site's reviews (1).
  const remoteRoutes = PAGES.filter((p) => !(p.remote === 'storefront' && p.module === 'HomePage'))
    .map(
      (p) =>
        `[/${routePattern(p.path)}/,${JSON.stringify(p.remote)},` +
        `${JSON.stringify(`${p.remote}/${p.module}`)},${paramGroup(p.path, p.prefetch?.part)},` +
        `${p.protected ? 1 : 0},${p.prefetch?.reviews ? 1 : 0}]`,
    )
    .join(',');
  // A remote's prerendered stand-in that needs data (`data-needs`) shows once it is filled: each
  // `data-fill` is an `attribute:field` list (`text` for the text), filled from that data. A
  // stand-in that brings a stylesheet of its own (`data-styles-href`, under the id `data-styles`)
  // links it only now, just before itself, and shows once it has loaded: linked in the fragment,
  // every page would fetch it (and, in force, wait for it before its first paint).
  const fill =
    `function f(t,p){[].forEach.call(t.querySelectorAll('[data-fill]'),function(e){` +
    `e.getAttribute('data-fill').split(' ').forEach(function(a){var k=a.split(':'),v=p[k[1]];` +
    `if(typeof v==='string'){if(k[0]==='text')e.textContent=v;else e.setAttribute(k[0],v)}})});` +
    `var y=t.getAttribute('data-styles-href'),d=function(){t.setAttribute('data-filled','')};` +
    `if(y){var s=document.createElement('link');s.rel='stylesheet';s.id=t.getAttribute('data-styles');` +
    `s.href=y;s.onload=d;return t.parentNode.insertBefore(s,t)}d()}` +
    // `w(k)`: runs k once the document is parsed (the stand-ins are in it). On `readystatechange`
    // to "interactive", which comes before the deferred scripts run; DOMContentLoaded waits for
    // them (the shell's entry, downloaded and evaluated).
    `function w(k){if(document.readyState!=='loading')return k();document.addEventListener(` +
    `'readystatechange',function(){if(document.readyState==='interactive')k()})}`;
  // `data-needs="session"`: from the stored session, once the document is parsed, on the path
  // the stand-in names (`data-path`).
  const fillSession =
    `try{var u=JSON.parse(localStorage.getItem(${JSON.stringify(SESSION_USER_KEY)})||'null');` +
    `if(u)w(function(){` +
    `[].forEach.call(document.querySelectorAll('.${FIRST_SCREEN_CLASS} [data-needs=session]'),function(t){` +
    `if(t.getAttribute('data-path')===location.pathname.replace(/\\/$/,''))f(t,u)})})}catch(e){}`;
  // `data-needs="part"`: for a visitor opening a route that declares a part (signed in, where the
  // page needs it: a signed-out one is sent to /login), the part is fetched (public, no credentials, so no preflight) as soon as the config names the API,
  // and filled once the document is parsed (the answer can come first). Filled only while the
  // static first screen is still there: once the shell has taken it over (capturePrerendered), a
  // late answer changes nothing. The shell's entry waits for it, up to EARLY_FILL_WAIT_MS
  // (shell/src/index.ts), and the store starts with the part it brought.
  const fillPart =
    `if(m[3]&&(!m[4]||h.hasAttribute('data-session')))window.${EARLY_FILL_KEY}=Promise.race([new Promise(function(r){` +
    `setTimeout(r,${EARLY_FILL_WAIT_MS})}),c.then(function(cfg){` +
    `var a=cfg.apiBaseUrl.replace(/\\/?$/,'');` +
    `return fetch(a+'/parts/'+m[0].exec(location.pathname)[m[3]])` +
    `.then(function(r){if(!r.ok)throw new Error('HTTP '+r.status);return r.json()}).then(function(p){` +
    `return new Promise(function(r){w(function(){` +
    `var t=document.querySelector('.${FIRST_SCREEN_CLASS} [data-prerendered="'+m[2]+'"][data-needs=part]');` +
    // A photo hosted by the API (`/uploads/…`) is shown from the API's origin (assetUrl).
    `if(t)f(t,/^\\/uploads\\//.test(p.img)?Object.assign({},p,{img:a+p.img}):p);r(p)})})})}).catch(function(){})]);`;
  // A route that declares the reviews (RemoteRoute.prefetch): GET /review, fetched as the part is
  // (the same wait, the same hand-over to the store), and one copy of the stand-in's list
  // template (`data-fill-list`) per review, filled from the fields TestimonialsSlot names: the
  // stars as StarRating writes them (out of 5), a photo hosted by the API from the API's origin.
  const fillReviews =
    `if(m[5])window.${EARLY_FILL_KEY}=Promise.race([new Promise(function(r){` +
    `setTimeout(r,${EARLY_FILL_WAIT_MS})}),c.then(function(cfg){` +
    `var a=cfg.apiBaseUrl.replace(/\\/?$/,'');` +
    `return fetch(a+'/review').then(function(r){if(!r.ok)throw new Error('HTTP '+r.status);return r.json()})` +
    `.then(function(l){return new Promise(function(r){w(function(){` +
    `var t=document.querySelector('.${FIRST_SCREEN_CLASS} [data-prerendered="'+m[2]+'"] [data-fill-list]'),` +
    `p=t&&t.querySelector('template');if(p&&Array.isArray(l))l.forEach(function(v){` +
    `var n=Math.max(0,Math.min(5,Math.round(v.rating)))||0,e=p.content.firstElementChild.cloneNode(true);` +
    `f(e,{review:v.review,name:v.name,img:v.img?(/^\\/uploads\\//.test(v.img)?a+v.img:v.img):0,` +
    `on:'\\u2605'.repeat(n),off:'\\u2605'.repeat(5-n),label:'Rated '+n+' out of 5'});t.appendChild(e)});` +
    `r(l)})})})}).catch(function(){})]);`;
  // `data-needs="styles"`: a static stand-in whose remote's stylesheet the shell's styles do not
  // carry (the sign-in pages'), on its own route: linked and shown once the document is parsed.
  // One marked `data-signed-out` only without a stored session (the page sends a signed-in
  // visitor on: its form must not flash first).
  const fillStyles =
    `w(function(){var t=document.querySelector('.${FIRST_SCREEN_CLASS} [data-prerendered="'+m[2]+'"][data-needs=styles]');` +
    `if(t&&!(t.hasAttribute('data-signed-out')&&h.hasAttribute('data-session')))f(t,{})});`;
  // A stand-in that needs anything (`data-needs`) and is not this route's could not show here, and
  // the shell drops it when it takes over (capturePrerendered): it goes once the document is
  // parsed, so that no hidden copy of another page's form or part column stays beside this one.
  const dropOthers =
    `w(function(){[].forEach.call(document.querySelectorAll('.${FIRST_SCREEN_CLASS} [data-needs]'),function(t){` +
    `if(!m||t.getAttribute('data-prerendered')!==m[2])t.parentNode.removeChild(t)})});`;
  // The site's config, when the server has included it (CONFIG_ELEMENT_ID): the app and the
  // requests below start without a round trip for /config.json, which also left them waiting
  // for a turn of the main thread between the page's own tasks (measured: 90–150 ms at 4× CPU).
  // Where nothing was included (no SSI, or not JSON), /config.json is fetched as before.
  // Every copy of the config the page reads goes through the canary assignment first (`P`,
  // canary.ts), so the preloaded remote entry, the versions announced and the app's registry all
  // name the releases this browser runs; the app applies it to a config it fetches itself
  // (CANARY_KEY). The prerendered stand-ins the server included are the stable releases' always:
  // the canary's own code replaces them when its page renders.
  const canary =
    `var P=window.${CANARY_KEY}=function(c){var s;try{s=localStorage}catch(e){}` +
    `try{return(${assignCanarySource()})(c,s,Math.random)}catch(e){return c}};`;
  const inlineConfig =
    `try{var g=JSON.parse(document.getElementById(${JSON.stringify(CONFIG_ELEMENT_ID)}).textContent);` +
    `if(typeof g.apiBaseUrl==='string')window.${EARLY_CONFIG_KEY}=Promise.resolve(g=P(g));else g=0}catch(e){}`;
  // Which remote versions the page runs, for people and tests: a remote's release is the last
  // segment of its URL (scripts/publish-remote.mjs: `…/dashboard/2.2.0/`), `unversioned` for one
  // served from its build's root. Announced on <html data-remotes> and in one console line. The
  // shell reports a remote that failed to load through LOAD_FAILURE_KEY (POST /client-errors,
  // fire and forget), under the version announced here. A remote this browser runs on its canary
  // is announced with the canary's release; if that fails to load, the shell falls back to the
  // stable release (registry.ts), and the page announces it again, once, with that release. Both
  // here, not in the app's bundles, which the home page's budget leaves no room in.
  const announce =
    `try{if(g&&g.remotes){var V={},S=Object.assign({},g.stableRemotes),n=function(u){` +
    `var x=/\\/(\\d+\\.\\d+\\.\\d+[-0-9A-Za-z.]*)\\/?$/.exec(u);return x?x[1]:'unversioned'},A=function(){` +
    `var v=Object.keys(V).map(function(k){return k+'@'+V[k]}).join(' ');` +
    `h.setAttribute('data-remotes',v);console.info('[remotes] '+v)};` +
    `Object.keys(g.remotes).forEach(function(k){V[k]=n(g.remotes[k])});A();` +
    `window.${LOAD_FAILURE_KEY}=function(r,e){fetch(g.apiBaseUrl.replace(/\\/?$/,'/client-errors'),` +
    `{method:'POST',keepalive:true,headers:{'content-type':'application/json'},body:JSON.stringify({remote:r,` +
    `version:V[r]||'unknown',url:location.href.slice(0,2048),message:String(e&&e.message||e).slice(0,1000)})})` +
    `.catch(function(){});if(S[r]){V[r]=n(S[r]);delete S[r];A()}}}}catch(e){}`;
  const flags =
    `(function(h){${fill}h.toggleAttribute('data-home-route',/${homeRoute}/.test(location.pathname));` +
    `try{if(localStorage.getItem(${JSON.stringify(SESSION_USER_KEY)}))h.setAttribute('data-session','')}` +
    `catch(e){}${fillSession}${canary}${inlineConfig}${announce}` +
    `try{var m=[${remoteRoutes}].filter(function(r){return r[0].test(location.pathname)})[0];` +
    `if(m){h.setAttribute('data-page',m[2]);${fillStyles}var c=g?window.${EARLY_CONFIG_KEY}:window.${EARLY_CONFIG_KEY}=fetch('/config.json',{cache:'no-cache'}).then(function(r){` +
    `if(!r.ok)throw new Error('HTTP '+r.status);return r.json()}).then(P);` +
    `c.then(function(cfg){` +
    `if(!cfg.remotes||!cfg.remotes[m[1]])return;var l=document.createElement('link');l.rel='preload';` +
    `l.as='script';l.href=new URL('remoteEntry.js',cfg.remotes[m[1]].replace(/\\/?$/,'/')).href;` +
    `document.head.appendChild(l)}).catch(function(){});${fillPart}${fillReviews}}}catch(e){}${dropOthers}})(document.documentElement)`;
  // A stand-in shows only on its own page's routes: the home hero on the home routes, any other
  // one where the inline script named its module (`data-page`, from the route table above).
  const homeModule = 'storefront/HomePage';
  const pageModules = [...new Set(PAGES.map((p) => `${p.remote}/${p.module}`))].filter(
    (m) => m !== homeModule,
  );
  const standInCss =
    `html:not([data-home-route]) .${FIRST_SCREEN_CLASS} [data-prerendered="${homeModule}"]` +
    pageModules
      .map((m) => `,html:not([data-page="${m}"]) .${FIRST_SCREEN_CLASS} [data-prerendered="${m}"]`)
      .join('') +
    `{display:none}`;
  const firstScreenCss =
    `.${FIRST_SCREEN_CLASS}{display:contents}` +
    standInCss +
    `.${FIRST_SCREEN_CLASS} [data-needs]:not([data-filled]){display:none}` +
    `html[data-session] .${FIRST_SCREEN_CLASS} a[href="/login"]{visibility:hidden}`;

  const topBar = renderToStaticMarkup(
    <MemoryRouter>
      <TopBar />
    </MemoryRouter>,
  );
  return {
    head:
      `<style id="shell-styles">${shellCss}${firstScreenCss}</style>` +
      `<script type="application/json" id="${CONFIG_ELEMENT_ID}"><!--# include virtual="/config.json" --></script>` +
      `<script>${flags}</script>`,
    root:
      `<div class="${FIRST_SCREEN_CLASS}">${topBar}<main id="main" class="site-main">` +
      `<!--# config errmsg="" -->` +
      FRAGMENT_URLS.map((url) => `<!--# include virtual="${url}" -->`).join('') +
      `</main></div>`,
  };
}
