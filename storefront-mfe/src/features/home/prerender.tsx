import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import heroCss from '../../styles/hero.css';
import { HERO_STYLES_ID } from '../../styles/first-screen';
import { HomeHero } from './components/home-hero';

/**
 * Where the shell's server mounts this build's prerender/ folder (its server-side include and
 * the stylesheet below are fetched from there; see the shell's HOME_FRAGMENT_URL).
 */
const SHELL_MOUNT = '/_fragments/storefront/prerender/';

/**
 * Build time (Node): the home page's first screen as an HTML fragment, emitted as
 * dist/prerender/home.html. The shell's server includes it in index.html, so the hero (the
 * largest paint) shows before any JavaScript runs, and the shell shows it again as the home
 * route's loading state until this remote's HomePage replaces it with the same markup.
 * `data-prerendered` names the exposed module it stands in for. Its styles are a linked
 * stylesheet (dist/prerender/hero.css), not inline: the shell's Content-Security-Policy allows
 * inline styles only by a hash fixed at the shell's build, and this fragment changes with ours.
 */
export default function prerenderHome(): Record<'home.html' | 'hero.css', string> {
  const markup = renderToStaticMarkup(
    <MemoryRouter>
      <div className="home" data-prerendered="storefront/HomePage">
        <HomeHero />
      </div>
    </MemoryRouter>,
  );
  return {
    'home.html': `<link rel="stylesheet" id="${HERO_STYLES_ID}" href="${SHELL_MOUNT}hero.css">${markup}`,
    'hero.css': heroCss,
  };
}
