import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { HomeHero } from '../components/home-hero';
import heroCss from '../styles/hero.css';
import { HERO_STYLES_ID } from '../styles';

/**
 * Build time (Node): the home page's first screen as an HTML fragment, emitted as
 * dist/prerender/home.html. The shell's server includes it in index.html, so the hero (the
 * largest paint) shows before any JavaScript runs, and the shell shows it again as the home
 * route's loading state until this remote's HomePage replaces it with the same markup.
 * `data-prerendered` names the exposed module it stands in for.
 */
export default function prerenderHome(): string {
  const markup = renderToStaticMarkup(
    <MemoryRouter>
      <div className="home" data-prerendered="storefront/HomePage">
        <HomeHero />
      </div>
    </MemoryRouter>,
  );
  return `<style id="${HERO_STYLES_ID}">${heroCss}</style>${markup}`;
}
