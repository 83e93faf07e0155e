import { Testimonials } from '../../../components/testimonials';
import { ensureStorefrontStyles } from '../../../styles';
import { ReviewsHead } from '../components/reviews-head';

ensureStorefrontStyles();

export default function ReviewsPage() {
  return (
    <div className="page">
      <ReviewsHead />
      <Testimonials />
    </div>
  );
}
