import { Link } from 'react-router-dom';
import { Testimonials } from '../../../components/testimonials';
import { ensureStorefrontStyles } from '../../../styles';
import { BusinessSummary } from '../components/business-summary';
import { ContactForm } from '../components/contact-form';
import { HomeHero } from '../components/home-hero';
import { LoginCardSlot } from '../components/login-card-slot';
import { PartsGrid } from '../components/parts-grid';

ensureStorefrontStyles();

export default function HomePage() {
  return (
    <div className="home">
      <HomeHero />

      <section className="section" aria-labelledby="parts-heading">
        <div className="section-head">
          <p className="section-kicker">Our catalogue</p>
          <h2 id="parts-heading">Parts</h2>
          <p>Every part ships from our own warehouse. Minimum order and stock are shown on each card.</p>
        </div>
        <PartsGrid />
        <div className="parts-toolbar">
          <Link className="btn" to="/parts">
            Browse the whole catalogue
          </Link>
        </div>
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
