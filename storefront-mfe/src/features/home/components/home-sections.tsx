import { Link } from 'react-router-dom';
import { StoreProvider } from '@motoparts/state';
import { Testimonials } from '../../../components/testimonials';
import { ensurePageStyles } from '../../../styles/pages';
import { BusinessSummary } from './business-summary';
import { ContactForm } from './contact-form';
import { LoginCardSlot } from './login-card-slot';
import { PartsGrid } from './parts-grid';
import { PartsSection } from './parts-section';

// The home page has the first screens' rules before it renders these (home-page.tsx).
ensurePageStyles();

/**
 * Everything of the home page below its first screen: the parts, reviews, summary and contact.
 * Rendered once the store is there (home-page.tsx), which it gives its parts.
 */
export default function HomeSections() {
  return (
    <StoreProvider>
      <PartsSection>
        <PartsGrid />
        <div className="parts-toolbar">
          <Link className="btn" to="/parts">
            Browse the whole catalogue
          </Link>
        </div>
      </PartsSection>

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
    </StoreProvider>
  );
}
