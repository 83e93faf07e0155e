import { ensureStorefrontStyles } from '../../../styles';
import { PortfolioView } from '../components/portfolio-view';

ensureStorefrontStyles();

export default function PortfolioPage() {
  return <PortfolioView />;
}
