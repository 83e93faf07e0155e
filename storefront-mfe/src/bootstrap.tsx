import { Route, Routes } from 'react-router-dom';
import { mountStandalone } from '@motoparts/state/standalone';
import BlogsPage from './pages/blogs-page';
import CataloguePage from './pages/catalogue-page';
import HomePage from './pages/home-page';
import PortfolioPage from './pages/portfolio-page';
import PurchasePage from './pages/purchase-page';
import ReviewsPage from './pages/reviews-page';

// Standalone mode for this team: the same pages on :3001 without the shell.
void mountStandalone(
  'storefront',
  <Routes>
    <Route path="/" element={<HomePage />} />
    <Route path="/home" element={<HomePage />} />
    <Route path="/parts" element={<CataloguePage />} />
    <Route path="/blogs" element={<BlogsPage />} />
    <Route path="/reviews" element={<ReviewsPage />} />
    <Route path="/myPortfolio" element={<PortfolioPage />} />
    <Route path="/purchase/:id" element={<PurchasePage />} />
    <Route path="*" element={<HomePage />} />
  </Routes>,
);
