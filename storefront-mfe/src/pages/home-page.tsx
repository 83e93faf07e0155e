import { Link } from 'react-router-dom';
import { BusinessSummary } from '../components/business-summary';
import { ContactForm } from '../components/contact-form';
import { HeroArt } from '../components/hero-art';
import { LoginCardSlot } from '../components/login-card-slot';
import { PartsGrid } from '../components/parts-grid';
import { Testimonials } from '../components/testimonials';
import { ensureStorefrontStyles } from '../styles';

ensureStorefrontStyles();

export default function HomePage() {
  return (
    <div className="home">
      <section className="hero" aria-labelledby="hero-heading">
        <div className="hero-inner">
          <div>
            <p className="hero-eyebrow">Parts, tools and gear for every ride</p>
            <h1 id="hero-heading">Motorcycle parts in bulk, straight from stock</h1>
            <p className="hero-lead">
              Brake pads, chains, spark plugs and more for workshops, dealers and fleets. Order from 100
              pieces, pay by card and track every order from your dashboard.
            </p>
            <div className="hero-actions">
              <Link className="btn" to="/login">
                Get Started
              </Link>
              <a className="btn btn-ghost" href="#parts-heading">
                Browse parts
              </a>
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

      <section className="section" aria-labelledby="parts-heading">
        <div className="section-head">
          <p className="section-kicker">Our catalogue</p>
          <h2 id="parts-heading">Parts</h2>
          <p>Every part ships from our own warehouse. Minimum order and stock are shown on each card.</p>
        </div>
        <PartsGrid />
      </section>

      <section className="section" aria-labelledby="reviews-heading">
        <div className="section-head">
          <p className="section-kicker">Testimonials</p>
          <h2 id="reviews-heading">What our clients say</h2>
          <p>Real reviews from the workshops and riders who buy from us.</p>
        </div>
        <Testimonials limit={6} />
        <div className="parts-toolbar">
          <Link className="btn btn-outline" to="/reviews">
            Read all reviews
          </Link>
        </div>
      </section>

      <BusinessSummary />

      <section className="section" aria-labelledby="connect-heading">
        <div className="section-head">
          <p className="section-kicker">Get in touch</p>
          <h2 id="connect-heading">Sign in or send us a message</h2>
        </div>
        <div className="home-split">
          <LoginCardSlot />
          <ContactForm />
        </div>
      </section>
    </div>
  );
}
