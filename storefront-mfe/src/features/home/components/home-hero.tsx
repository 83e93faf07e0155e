import { Link } from 'react-router-dom';
import { HeroArt } from './hero-art';

/**
 * The home page's first screen. It is also rendered at build time (src/app/prerender.tsx), so
 * keep it free of data, effects and browser-only APIs: the same markup must come out of
 * react-dom/server and the browser.
 */
export function HomeHero() {
  return (
    <section className="hero" aria-labelledby="hero-heading">
      <div className="hero-inner">
        <div>
          <p className="hero-eyebrow">Parts, tools and gear for every ride</p>
          <h1 id="hero-heading">Motorcycle parts in bulk, straight from stock</h1>
          <p className="hero-lead">
            Brake pads, chains, spark plugs and more for workshops, dealers and fleets. Order from 100 pieces,
            pay by card and track every order from your dashboard.
          </p>
          <div className="hero-actions">
            <Link className="btn" to="/login">
              Get Started
            </Link>
            <Link className="btn btn-ghost" to="/parts">
              Browse parts
            </Link>
          </div>
          <ul className="hero-points">
            <li>Genuine, tested parts</li>
            <li>Bulk pricing</li>
            <li>Secure card payment</li>
          </ul>
        </div>
        <div className="hero-art">
          <HeroArt />
        </div>
      </div>
    </section>
  );
}
