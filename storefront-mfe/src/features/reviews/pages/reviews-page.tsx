import { Testimonials } from '../../../components/testimonials';
import { ensureStorefrontStyles } from '../../../styles';

ensureStorefrontStyles();

export default function ReviewsPage() {
  return (
    <div className="page">
      <header className="page-head">
        <h1>Reviews</h1>
        <p>What workshops, dealers and riders say about their orders.</p>
      </header>
      <Testimonials />
    </div>
  );
}
